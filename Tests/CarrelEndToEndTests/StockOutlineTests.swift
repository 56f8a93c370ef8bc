import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A stock LSP client, as Neovim's or eglot's built-in one talks, against
/// the real binary over pipes: it opens a chapter, edits it without saving,
/// and asks for its outline and inlay hints. No Carrel plugin code at all.
final class StockOutlineTests: XCTestCase {
    func testAStockClientGetsTheOutlineAndWordsOfItsUnsavedBuffer() throws {
        let home = try Fixture()
        let fx = try Fixture(
            """
            Winter/.carrel/project.json = {"type":"novel"}
            Winter/Novel/One.md = # Arrival
            """)
        let c = try ProcessClient(home: home)
        // What Neovim 0.10 says of itself, in part.
        _ = try c.result(
            "initialize",
            [
                "processId": .null, "rootUri": .string(fx.uri()),
                "capabilities": [
                    "textDocument": [
                        "documentSymbol": ["hierarchicalDocumentSymbolSupport": true],
                        "inlayHint": ["dynamicRegistration": true],
                        "synchronization": ["didSave": true],
                    ],
                    "workspace": ["inlayHint": ["refreshSupport": true]],
                ],
            ])
        c.notify("initialized")
        let uri = JSONValue.string(fx.uri("Winter/Novel/One.md"))
        let text = "# Arrival\nThe train was late.\n\n## Platform\nSnow on the rails.\n# Departure\nGone.\n"
        c.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri, "languageId": "markdown", "version": 0, "text": .string(text)]])
        let symbols = try c.result("textDocument/documentSymbol", ["textDocument": ["uri": uri]])
        let names = symbols.arrayValue?.map { $0["name"]?.stringValue ?? "" }
        XCTAssertEqual(names, ["Arrival", "Departure"])
        XCTAssertEqual(symbols[0]?["detail"], "8 words")
        XCTAssertEqual(symbols[0]?["children"]?[0]?["name"], "Platform")
        XCTAssertEqual(symbols[0]?["children"]?[0]?["detail"], "4 words")
        XCTAssertEqual(symbols[1]?["range"]?["end"], ["line": 7, "character": 0])
        let hints = try c.result(
            "textDocument/inlayHint",
            [
                "textDocument": ["uri": uri],
                "range": ["start": ["line": 0, "character": 0], "end": ["line": 7, "character": 0]],
            ])
        XCTAssertEqual(hints.arrayValue?.map { $0["label"]?.stringValue ?? "" }, ["8 words", "4 words", "1 word"])
        // The binder row shows the unsaved words, flagged; the disk is untouched.
        _ = try c.result("carrel/tree", ["depth": 1])
        let deadline = Date().addingTimeInterval(10)
        var row = JSONValue.null
        repeat {
            row = try c.result("carrel/tree", ["uri": uri, "depth": 0])[0] ?? .null
            if row["words"] == 12 { break }
            usleep(20_000)
        } while Date() < deadline
        XCTAssertEqual(row["words"], 12)
        XCTAssertEqual(row["wordsUnsaved"], true)
        XCTAssertEqual(fx.read("Winter/Novel/One.md"), "# Arrival")
        c.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        XCTAssertEqual(try c.result("carrel/tree", ["uri": uri, "depth": 0])[0]?["words"], 1)
        _ = try c.result("shutdown")
        c.notify("exit")
        XCTAssertEqual(c.waitForExit(), 0)
    }
}
