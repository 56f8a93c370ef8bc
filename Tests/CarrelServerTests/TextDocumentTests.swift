import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Standard LSP for stock clients: an open buffer's words on its row,
/// shown as unsaved and never written; a file's outline with each
/// section's words; words after each heading as inlay hints.
final class TextDocumentTests: ServedLibraryTestCase {
    func start(refresh: Bool = false) throws {
        try serveStock(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/ch.md = one two three
            """, capabilities: refresh ? ["workspace": ["inlayHint": ["refreshSupport": true]]] : [:]
        ) { fx in
            try "# Part\nintro words\n## Scene\nfour five six seven\n".write(
                to: fx.url("P/Novel/outline.md"), atomically: false, encoding: .utf8)
        }
    }

    func waitForWords(_ relative: String, _ words: Int) throws {
        let deadline = Date().addingTimeInterval(10)
        while try row(relative)["words"] != .int(words) {
            guard Date() < deadline else { return XCTFail("\(relative) never showed \(words) words") }
            usleep(10_000)
        }
    }

    func open(_ relative: String, _ text: String) {
        client.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(fx.uri(relative)), "languageId": "markdown", "version": 1, "text": .string(text),
                ]
            ])
    }

    func change(_ relative: String, _ text: String, version: Int) {
        client.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(fx.uri(relative)), "version": .int(version)],
                "contentChanges": [["text": .string(text)]],
            ])
    }

    func testTheOutlineOfAFileOnDisk() throws {
        try start()
        let symbols = try client.result(
            "textDocument/documentSymbol", ["textDocument": ["uri": .string(fx.uri("P/Novel/outline.md"))]])
        XCTAssertEqual(
            symbols.text(),
            #"[{"children":[{"children":[],"detail":"4 words","kind":15,"name":"Scene","range":{"end":{"character":0,"line":4},"start":{"character":0,"line":2}},"selectionRange":{"end":{"character":8,"line":2},"start":{"character":0,"line":2}}}],"detail":"6 words","kind":15,"name":"Part","range":{"end":{"character":0,"line":4},"start":{"character":0,"line":0}},"selectionRange":{"end":{"character":6,"line":0},"start":{"character":0,"line":0}}}]"#
        )
    }

    func testInlayHintsFollowEachHeading() throws {
        try start()
        let hints = try client.result(
            "textDocument/inlayHint",
            [
                "textDocument": ["uri": .string(fx.uri("P/Novel/outline.md"))],
                "range": ["start": ["line": 0, "character": 0], "end": ["line": 3, "character": 0]],
            ])
        XCTAssertEqual(
            hints.text(),
            #"[{"label":"6 words","paddingLeft":true,"position":{"character":6,"line":0}},{"label":"4 words","paddingLeft":true,"position":{"character":8,"line":2}}]"#
        )
    }

    func testFilesOutsideEveryLibraryAreAnsweredEmpty() throws {
        try start()
        let outside = try Fixture("elsewhere.md = # Title")
        let uri = JSONValue.string(outside.uri("elsewhere.md"))
        XCTAssertEqual(try client.result("textDocument/documentSymbol", ["textDocument": ["uri": uri]]), [])
        XCTAssertEqual(try client.result("textDocument/inlayHint", ["textDocument": ["uri": uri]]), [])
        XCTAssertEqual(
            try client.result("textDocument/documentSymbol", ["textDocument": ["uri": "untitled:Untitled-1"]]), [])
        client.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri, "languageId": "markdown", "version": 1, "text": "# Changed"]])
        XCTAssertEqual(try client.result("textDocument/documentSymbol", ["textDocument": ["uri": uri]]), [])
    }

    func testAnOpenBuffersWordsShowAsUnsavedAndAreNeverWritten() throws {
        try start()
        _ = try client.result("carrel/tree", ["depth": 1])
        try waitForWords("P", 11)
        open("P/Novel/ch.md", "one two three")
        XCTAssertNil(try row("P/Novel/ch.md")["wordsUnsaved"], "the buffer holds what the disk holds")
        change("P/Novel/ch.md", "one two three four five", version: 2)
        let file = try row("P/Novel/ch.md")
        XCTAssertEqual(file["words"], 5)
        XCTAssertEqual(file["wordsUnsaved"], true)
        XCTAssertEqual(file["summary"], "5 words (unsaved)")
        XCTAssertEqual(try row("P")["words"], 13)
        XCTAssertEqual(fx.read("P/Novel/ch.md"), "one two three", "nothing is written")
        let symbols = try client.result(
            "textDocument/documentSymbol", ["textDocument": ["uri": .string(fx.uri("P/Novel/ch.md"))]])
        XCTAssertEqual(symbols, [])
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(fx.uri("P/Novel/ch.md"))]])
        XCTAssertEqual(try row("P/Novel/ch.md")["words"], 3)
        XCTAssertNil(try row("P/Novel/ch.md")["wordsUnsaved"])
        XCTAssertEqual(try row("P")["words"], 11)
    }

    func testTheOutlineOfAnOpenBufferIsItsUnsavedText() throws {
        try start()
        open("P/Novel/ch.md", "# New heading\nalpha beta\n")
        let symbols = try client.result(
            "textDocument/documentSymbol", ["textDocument": ["uri": .string(fx.uri("P/Novel/ch.md"))]])
        XCTAssertEqual(symbols.arrayValue?.first?["name"], "New heading")
        XCTAssertEqual(symbols.arrayValue?.first?["detail"], "2 words")
    }

    func testClientsThatCanAreAskedToRefreshInlayHints() throws {
        try start(refresh: true)
        _ = try client.result("carrel/tree", ["depth": 1])
        try waitForWords("P", 11)
        open("P/Novel/ch.md", "one two three four")
        let ask = try client.inbox.take("a refresh") { $0["method"] == "workspace/inlayHint/refresh" }
        XCTAssertNil(ask["params"], "params left out, never null: \(ask.text())")
        client.send(["jsonrpc": "2.0", "id": ask["id"]!, "result": .null])
    }
}
