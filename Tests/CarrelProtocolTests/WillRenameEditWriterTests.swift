import CarrelJSON
import XCTest

@testable import CarrelProtocol

/// The `WorkspaceEdit` a `workspace/willRenameFiles` answers is written
/// straight to bytes: the same bytes as the edit built as a `JSONValue`,
/// keys sorted, strings escaped, a URI given twice keeping its last edits.
final class WillRenameEditWriterTests: XCTestCase {
    typealias Edit = WillRenameFilesRequest.TextEdit

    func written(_ changes: [(uri: String, edits: [Edit])]) -> String {
        var w = JSONWriter()
        WillRenameFilesRequest.write(changes, to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    func built(_ changes: [(uri: String, edits: [Edit])]) -> String {
        let values = changes.map { c in
            (
                c.uri,
                c.edits.map {
                    WillRenameFilesRequest.textEdit(
                        startLine: $0.startLine, startCharacter: $0.startCharacter, endLine: $0.endLine,
                        endCharacter: $0.endCharacter, newText: $0.newText)
                }
            )
        }
        return String(decoding: WillRenameFilesRequest.edit(values).encoded(), as: UTF8.self)
    }

    func testWritesTheBytesOfTheBuiltEdit() {
        let cases: [[(uri: String, edits: [Edit])]] = [
            [],
            [("file:///b/One.md", [])],
            [
                (
                    "file:///b/Two.md",
                    [
                        Edit(startLine: 0, startCharacter: 6, endLine: 0, endCharacter: 26, newText: "../Ada%20L.md"),
                        Edit(startLine: 12, startCharacter: 0, endLine: 12, endCharacter: 1_000_000, newText: "Ada"),
                    ]
                ),
                (
                    "file:///a/%C3%89t%C3%A9.md",
                    [
                        Edit(
                            startLine: 3, startCharacter: 1, endLine: 4, endCharacter: 2,
                            newText: "é \"q\" \\ \u{1}\t<a b>")
                    ]
                ),
                (
                    "file:///b/One.md",
                    [Edit(startLine: 1, startCharacter: 2, endLine: 1, endCharacter: 3, newText: "x")]
                ),
                (
                    "file:///b/One.md",
                    [Edit(startLine: 9, startCharacter: 8, endLine: 9, endCharacter: 9, newText: "y")]
                ),
            ],
        ]
        for changes in cases {
            XCTAssertEqual(written(changes), built(changes))
        }
        XCTAssertEqual(written([]), #"{"changes":{}}"#)
    }
}
