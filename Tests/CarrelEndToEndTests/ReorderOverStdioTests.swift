import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Binder order through the real `carrel lsp` over pipes, as an editor
/// drives it: move up and down, a drop at a place, and a refusal; then the
/// CLI's tree of the same library shows the same order.
final class ReorderOverStdioTests: XCTestCase {
    func testReorderAndPlacedMoveOverStdio() throws {
        let fx = try Fixture(
            """
            N/.carrel/project.json = {"type":"novel","folderSorts":{"Chapters":{"by":"manual"}}}
            N/Chapters/Chapter 1.md = one
            N/Chapters/Chapter 2.md = two
            N/Chapters/Chapter 3.md = three
            N/Scenes/Storm.md = storm
            """)
        let c = try ProcessClient()
        _ = try c.initialize([fx.uri()])
        c.notify("initialized")
        func names(_ folder: String) throws -> [String] {
            let r = try c.result("carrel/tree", ["uri": .string(fx.uri(folder)), "depth": 1])
            return r[0]?["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        }
        let u = { (rel: String) -> JSONValue in .string(fx.uri(rel)) }
        XCTAssertEqual(try names("N/Chapters"), ["Chapter 1.md", "Chapter 2.md", "Chapter 3.md"])
        // Move up: before the previous sibling.
        let up = try c.command(
            "carrel.reorder", ["uri": u("N/Chapters/Chapter 3.md"), "before": u("N/Chapters/Chapter 2.md")])
        XCTAssertEqual(up["result"]?["name"], "Chapter 3.md", up.text())
        _ = try c.waitForChange { $0.contains { $0["type"] == "changed" && $0["uri"] == u("N/Chapters") } }
        XCTAssertEqual(try names("N/Chapters"), ["Chapter 1.md", "Chapter 3.md", "Chapter 2.md"])
        // A drop at a place from another folder.
        _ = try c.command(
            "carrel.moveTo",
            ["uri": u("N/Scenes/Storm.md"), "destinationUri": u("N/Chapters"), "after": u("N/Chapters/Chapter 1.md")])
        XCTAssertEqual(try names("N/Chapters"), ["Chapter 1.md", "Storm.md", "Chapter 3.md", "Chapter 2.md"])
        // A sibling in another folder is refused, and nothing changes.
        let refused = try c.command(
            "carrel.reorder", ["uri": u("N/Chapters/Chapter 1.md"), "after": u("N/Characters")])
        XCTAssertEqual(refused["error"]?["data"]?["reason"], "notSibling", refused.text())
        XCTAssertEqual(try names("N/Chapters"), ["Chapter 1.md", "Storm.md", "Chapter 3.md", "Chapter 2.md"])
        XCTAssertEqual(fx.read("N/Chapters/.carrel-order"), "Chapter 1.md\nStorm.md\nChapter 3.md\nChapter 2.md\n")
        // The CLI reads the same order from the disk.
        let tree = try CLIRunner().run(["tree", "N/Chapters"], in: fx.path)
        XCTAssertEqual(
            tree.stdout,
            "Chapters  4 files · 4 words\n├── Chapter 1.md  1 word\n├── Storm.md  1 word\n├── Chapter 3.md  1 word\n"
                + "└── Chapter 2.md  1 word\n",
            tree.stderr)
    }
}
