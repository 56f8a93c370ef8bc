// swift-tools-version:6.0
// Carrel: a writer's binder over plain files, served over LSP.
// The module map and what each target may depend on is in Sources/ARCHITECTURE.md.
import PackageDescription

/// Release builds skip Swift's run-time exclusivity check, which was 14% of
/// the instructions of a full tree (every read of an entry's stored
/// properties). Debug builds, which every test runs, keep it.
let releaseSpeed: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "Carrel",
    products: [
        .executable(name: "carrel", targets: ["carrel"]),
        .executable(name: "carrel-bench", targets: ["carrel-bench"]),
        .executable(name: "carrel-torture", targets: ["carrel-torture"]),
        .executable(name: "carrel-property", targets: ["carrel-property"]),
    ],
    targets: [
        .target(name: "CCarrelSys"),
        .target(name: "CarrelJSON", swiftSettings: releaseSpeed, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "CarrelModel", swiftSettings: releaseSpeed),
        .target(
            name: "CarrelStore", dependencies: ["CarrelModel", "CarrelJSON", "CCarrelSys"], swiftSettings: releaseSpeed),
        .target(name: "CarrelWorkspace", dependencies: ["CarrelModel", "CarrelStore"], swiftSettings: releaseSpeed),
        .target(name: "CarrelProtocol", dependencies: ["CarrelJSON"], swiftSettings: releaseSpeed),
        .target(
            name: "CarrelServer", dependencies: ["CarrelProtocol", "CarrelWorkspace", "CarrelModel", "CarrelJSON"],
            swiftSettings: releaseSpeed),
        // The one client of a real `carrel lsp` over pipes, for the tests, the benchmark and the crash harness.
        .target(name: "CarrelClient", dependencies: ["CarrelJSON", "CarrelProtocol"]),
        // One seeded generator, so a generated library or a random run replays exactly.
        .target(name: "CarrelRandom"),
        .executableTarget(
            name: "carrel",
            dependencies: ["CarrelServer", "CarrelWorkspace", "CarrelModel", "CarrelJSON", "CCarrelSys"]),
        // Drives the real `carrel lsp` over pipes on a synthetic library and reports timings.
        // It depends on `carrel` only so that `swift run carrel-bench` builds the server it runs.
        .executableTarget(
            name: "carrel-bench",
            dependencies: [
                "carrel", "CarrelClient", "CarrelRandom", "CarrelModel", "CarrelJSON", "CarrelProtocol", "CCarrelSys",
            ]),
        // Kills the real `carrel lsp` mid-operation, over and over, and checks nothing was lost.
        .executableTarget(
            name: "carrel-torture", dependencies: ["CarrelClient", "CarrelRandom", "CarrelJSON", "CarrelProtocol"]),
        // Forges hostile `.carrel` contents in a real library, drives the real server and CLI over them,
        // and checks after every step that nothing crashed, hung, left the library or was destroyed.
        .executableTarget(
            name: "carrel-property", dependencies: ["CarrelClient", "CarrelRandom", "CarrelJSON", "CarrelProtocol"]),

        // Shared by the test targets: fixture trees, the in-process and stdio test clients.
        .target(
            name: "CarrelTestSupport", dependencies: ["CarrelServer", "CarrelClient", "CarrelJSON", "CarrelProtocol"],
            path: "Tests/CarrelTestSupport"),

        .testTarget(name: "CarrelJSONTests", dependencies: ["CarrelJSON"]),
        .testTarget(name: "CarrelModelTests", dependencies: ["CarrelModel"]),
        .testTarget(
            name: "CarrelStoreTests",
            dependencies: ["CarrelStore", "CarrelModel", "CCarrelSys", "CarrelRandom", "CarrelTestSupport"]),
        .testTarget(
            name: "CarrelWorkspaceTests",
            dependencies: ["CarrelWorkspace", "CarrelStore", "CarrelModel", "CarrelTestSupport"]),
        .testTarget(name: "CarrelProtocolTests", dependencies: ["CarrelProtocol", "CarrelJSON"]),
        .testTarget(
            name: "CarrelServerTests",
            dependencies: ["CarrelServer", "CarrelProtocol", "CarrelJSON", "CarrelModel", "CarrelTestSupport"]),
        // Holds the module map of Sources/ARCHITECTURE.md; reads files as text, so it depends on nothing.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(
            name: "CarrelEndToEndTests", dependencies: ["carrel", "CarrelJSON", "CarrelProtocol", "CarrelTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
