import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// The real server over pipes completes `[[` with the library's Markdown and
/// Fountain files' names and `](` with their relative paths, encoded as a
/// move's rewrite writes them, filtered by what is typed; elsewhere, nothing.
final class LinkCompletionTests: ProcessLibraryTestCase {
    override func setUpWithError() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada.
            P/Novel/Characters/Ada Lovelace.md = Ada L.
            P/Novel/Characters/Bea.fountain = BEA
            P/Novel/Characters/photo.png = png
            P/Novel/One.md = One.
            P/Trash/Adagio.md = gone
            """)
    }

    /// The items for a buffer of One.md holding `text`, the cursor at its end.
    func complete(_ text: String) throws -> [JSONValue] {
        let uri = JSONValue.string(fx.uri("P/Novel/One.md"))
        c.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri, "languageId": "markdown", "version": 1, "text": .string(text)]])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let answer = try c.result(
            "textDocument/completion",
            [
                "textDocument": ["uri": uri],
                "position": ["line": .int(lines.count - 1), "character": .int(lines.last!.utf16.count)],
            ])
        c.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        return answer.arrayValue ?? []
    }

    func testAWikilinkCompletesWithNamesWithoutExtension() throws {
        let items = try complete("Meet [[Ad")
        XCTAssertEqual(items.map { $0["label"] }, ["Ada", "Ada Lovelace"], "no Trash, no picture, best first")
        XCTAssertEqual(
            items.first,
            [
                "label": "Ada", "kind": 17, "detail": "P/Novel/Characters/Ada.md", "filterText": "Ada",
                "sortText": "00000",
                "textEdit": [
                    "newText": "Ada",
                    "range": ["start": ["line": 0, "character": 7], "end": ["line": 0, "character": 9]],
                ],
            ])
        XCTAssertEqual(try complete("[[").map { $0["label"] }, ["Ada", "Ada Lovelace", "Bea"])
    }

    func testAMarkdownLinkCompletesWithEncodedRelativePaths() throws {
        let items = try complete("Meet [her](Characters/Ada")
        XCTAssertEqual(
            items.map { $0["label"] }, ["Characters/Ada.md", "Characters/Ada%20Lovelace.md"])
        XCTAssertEqual(
            items.first?["textEdit"]?["range"],
            ["start": ["line": 0, "character": 11], "end": ["line": 0, "character": 25]])
        XCTAssertEqual(try complete("[x](<Characters/Ada L").map { $0["label"] }, ["Characters/Ada Lovelace.md"])
    }

    func testOutsideALinkTheListIsEmpty() throws {
        for text in ["Meet Ada", "[[Ada]] and", "[her](Ada.md) ", "[[Ada|he", "plain [Ad"] {
            XCTAssertEqual(try complete(text), [], text)
        }
    }
}
