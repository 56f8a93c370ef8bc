import CarrelModel
import XCTest

/// Where a link's target is being typed, from the line up to the cursor.
final class LinkCompletionContextTests: XCTestCase {
    func testTheTargetBeingTypedIsFoundAndNothingElse() {
        let table: [(String, LinkCompletion.Kind?, Int)] = [
            ("Meet [[Ad", .wiki, 7),
            ("[[", .wiki, 2),
            ("[[Novel/Ch", .wiki, 2),
            ("[her](Characters/Ada", .markdown, 6),
            ("[her](<Ada Lo", .markdown, 7),
            ("![map](img/", .markdown, 7),
            ("[[Ada]] then [[Be", .wiki, 15),
            ("Meet Ada", nil, 0),
            ("[[Ada]]", nil, 0),
            ("[[Ada|her", nil, 0),
            ("[[Ada#Child", nil, 0),
            ("[her](Ada.md) and", nil, 0),
            ("[her](Ada.md#ki", nil, 0),
            ("plain [Ad", nil, 0),
            ("(Ad", nil, 0),
        ]
        for (line, kind, start) in table {
            let found = LinkCompletion.context(Array(line.utf8)[...])
            XCTAssertEqual(found?.kind, kind, line)
            if kind != nil { XCTAssertEqual(found?.start, start, line) }
        }
    }

    func testCandidatesAreFilteredEncodedAndBestFirst() {
        let files = [["P", "Characters", "Ada.md"], ["P", "Characters", "Ada Lovelace.md"], ["P", "One.md"]]
        let names = WikiNames(files: files)
        let wiki = LinkCompletion.candidates(
            .wiki, typed: "ada", angle: false, from: ["P", "One.md"], files: files, names: names)
        XCTAssertEqual(wiki.map(\.text), ["Ada", "Ada Lovelace"])
        let markdown = LinkCompletion.candidates(
            .markdown, typed: "Characters/Ada%20L", angle: false, from: ["P", "One.md"], files: files, names: names)
        XCTAssertEqual(markdown.map(\.text), ["Characters/Ada%20Lovelace.md"], "the typed escape is read decoded")
        let angle = LinkCompletion.candidates(
            .markdown, typed: "", angle: true, from: ["P", "Characters", "Ada.md"], files: files, names: names)
        XCTAssertEqual(angle.map(\.text), ["../One.md", "Ada Lovelace.md"])
    }
}
