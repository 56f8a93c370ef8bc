import CarrelProtocol
import CarrelTestSupport
import Foundation
import XCTest

/// The sample library a newcomer meets first: the README's first command
/// shows it as the README says, and opening it writes nothing, so a fresh
/// clone stays clean.
final class SampleLibraryTests: XCTestCase {
    static let top: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Holds the copy below for the test's length.
    var scratch: Fixture?

    /// A copy of `Tests/SampleLibrary`, so that a write would not touch the clone.
    func copyOfSample() throws -> String {
        let fx = try Fixture()
        scratch = fx
        let copy = fx.path + "/SampleLibrary"
        try FileManager.default.copyItem(
            atPath: Self.top.appendingPathComponent("Tests/SampleLibrary").path, toPath: copy)
        return copy
    }

    /// The block the README shows under its two commands, up to its "…".
    func readmeTree() throws -> (head: [String], last: String) {
        let readme = try String(contentsOf: Self.top.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("SampleLibrary  ") }),
            let end = lines[start...].firstIndex(of: "```"),
            let elision = lines[start..<end].firstIndex(of: "…")
        else { throw XCTSkip("the README shows no sample tree") }
        return (Array(lines[start..<elision]), lines[end - 1])
    }

    func testTheReadmeShowsTheSampleAsCarrelDoes() throws {
        let copy = try copyOfSample()
        let r = try CLIRunner().run(["tree", "--library", copy], in: copy)
        XCTAssertEqual(r.status, 0, r.stderr)
        let shown = r.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        let readme = try readmeTree()
        XCTAssertEqual(Array(shown.prefix(readme.head.count)), readme.head)
        XCTAssertEqual(shown.last, readme.last)
    }

    func testOpeningTheSampleWritesNothing() throws {
        let copy = try copyOfSample()
        let before = fingerprint(copy)
        let r = try CLIRunner().run(["tree", "--library", copy], in: copy)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fingerprint(copy), before, "the CLI rewrote a file of the sample")

        let client = try ProcessClient()
        _ = try client.initialize([FileURI.uri(Array(copy.utf8))])
        _ = try client.result("carrel/tree", ["depth": 3])
        _ = try client.result("shutdown")
        client.notify("exit")
        XCTAssertNotNil(client.waitForExit())
        XCTAssertEqual(fingerprint(copy), before, "the server rewrote a file of the sample")
    }
}
