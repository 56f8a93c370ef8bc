import Foundation
import XCTest

/// The module map of Sources/ARCHITECTURE.md, held by a test: each
/// target's imports and `Package.swift` dependencies must be ones its row
/// allows. It reads the files as text, so it depends on no Carrel target.
final class ModuleMapTests: XCTestCase {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    func testEveryImportOfACarrelTargetIsOneTheModuleMapAllows() throws {
        let map = try ModuleMap.read()
        let targets = try PackageManifest.read().targets
        var violations: [String] = []
        for target in targets.keys.sorted() {
            guard let allowed = map.allowed[target] else { continue }  // reported by the test below
            for file in try swiftFiles(of: target) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    guard let imported = Self.importedModule(String(line)), targets[imported] != nil,
                        imported != target, !allowed.contains(imported)
                    else { continue }
                    let path = file.path.dropFirst(Self.root.path.count + 1)
                    violations.append(
                        "\(path):\(number + 1): \(target) imports \(imported), which ARCHITECTURE.md does not allow")
                }
            }
        }
        XCTAssert(violations.isEmpty, "\n" + violations.joined(separator: "\n"))
    }

    func testEveryPackageDependencyIsOneTheModuleMapAllows() throws {
        let map = try ModuleMap.read()
        var violations: [String] = []
        for (target, dependencies) in try PackageManifest.read().targets.sorted(by: { $0.key < $1.key }) {
            guard let allowed = map.allowed[target] else {
                violations.append("Package.swift: \(target) has no row in the module map of ARCHITECTURE.md")
                continue
            }
            for d in dependencies where !allowed.contains(d) {
                violations.append("Package.swift: \(target) depends on \(d), which ARCHITECTURE.md does not allow")
            }
        }
        XCTAssert(violations.isEmpty, "\n" + violations.joined(separator: "\n"))
    }

    /// The map is read as it is written: a row that names no target or a
    /// stray word would make the two tests above pass for the wrong reason.
    func testTheModuleMapNamesEveryTargetAndOnlyTargets() throws {
        let map = try ModuleMap.read()
        let targets = try PackageManifest.read().targets
        XCTAssertEqual(Set(map.allowed.keys), Set(targets.keys))
        XCTAssertEqual(map.allowed["CarrelModel"], [], "the domain model depends on no other target")
        XCTAssertEqual(map.allowed["CarrelServer"], ["CarrelProtocol", "CarrelWorkspace", "CarrelModel", "CarrelJSON"])
    }

    func testAnImportLineIsReadWithItsAttributesAndKind() {
        XCTAssertEqual(Self.importedModule("import CarrelStore"), "CarrelStore")
        XCTAssertEqual(Self.importedModule("@testable import CarrelStore"), "CarrelStore")
        XCTAssertEqual(Self.importedModule("  @_spi(X) @preconcurrency import struct CarrelModel.Entry"), "CarrelModel")
        XCTAssertNil(Self.importedModule("// import CarrelStore"))
        XCTAssertNil(Self.importedModule("let imports = 1"))
    }

    /// The module an `import` line brings in, or nil for any other line.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        guard words.first == "import", words.count >= 2 else { return nil }
        words.removeFirst()
        let kinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        if let kind = words.first, kinds.contains(kind) { words.removeFirst() }
        guard let path = words.first else { return nil }
        return String(path.split(separator: ".").first ?? path)
    }

    /// Sources/<target>/**.swift, or Tests/<target> for the support target.
    func swiftFiles(of target: String) throws -> [URL] {
        let sources = Self.root.appendingPathComponent("Sources/" + target)
        let tests = Self.root.appendingPathComponent("Tests/" + target)
        let folder = FileManager.default.fileExists(atPath: sources.path) ? sources : tests
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}

/// The "Module map" table of Sources/ARCHITECTURE.md: for each target, the
/// targets its last column names.
struct ModuleMap {
    var allowed: [String: Set<String>] = [:]

    static func read() throws -> ModuleMap {
        let file = ModuleMapTests.root.appendingPathComponent("Sources/ARCHITECTURE.md")
        let text = try String(contentsOf: file, encoding: .utf8)
        guard let start = text.range(of: "## Module map") else { throw Missing(what: "the Module map section") }
        let section = text[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var rows: [(target: String, allows: String)] = []
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let name = cells[1].split(separator: "`").first else { continue }
            rows.append((String(name), cells[cells.count - 2]))
        }
        let names = Set(rows.map(\.target))
        var map = ModuleMap()
        for row in rows {
            let words = row.allows.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init)
            map.allowed[row.target] = Set(words.filter { names.contains($0) && $0 != row.target })
        }
        return map
    }
}

/// The non-test targets of Package.swift and the dependencies each declares.
struct PackageManifest {
    var targets: [String: [String]] = [:]

    static func read() throws -> PackageManifest {
        let text = try String(contentsOf: ModuleMapTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var manifest = PackageManifest()
        var rest = text[...]
        while let r = rest.range(of: #"\.(target|executableTarget)\(\s*name:\s*"[^"]+""#, options: .regularExpression) {
            let declaration = rest[r]
            let name = String(declaration.split(separator: "\"")[1])
            rest = rest[r.upperBound...]
            // Its dependencies are the list right after its name, if any.
            let head = rest.prefix { $0 != ")" }
            var dependencies: [String] = []
            if let d = head.range(of: #"^\s*,\s*dependencies:\s*\[[^\]]*\]"#, options: .regularExpression) {
                // Every second piece between quotes is a name.
                dependencies = head[d].split(separator: "\"").enumerated()
                    .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
            manifest.targets[name] = dependencies
        }
        guard !manifest.targets.isEmpty else { throw Missing(what: "targets in Package.swift") }
        return manifest
    }
}

struct Missing: Error, CustomStringConvertible {
    let what: String
    var description: String { "cannot find \(what)" }
}
