import CarrelModel
import XCTest

/// What counts as a link into the library, and how a move rewrites it.
final class LinksTests: XCTestCase {
    /// Each link as "kind target «spelled»", the spelled bytes being what a rewrite replaces.
    func found(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return Links.parse(bytes).map { l in
            "\(l.kind) \(l.target) «\(String(decoding: bytes[l.start..<l.end], as: UTF8.self))»"
        }
    }

    func testParsingTable() {
        let table: [(String, [String])] = [
            ("See [Ada](Ada.md).", ["inline Ada.md «Ada.md»"]),
            ("![map](img/map.png)", ["image img/map.png «img/map.png»"]),
            ("[Ada](../Characters/Ada.md#childhood \"her\")", ["inline ../Characters/Ada.md «../Characters/Ada.md»"]),
            ("[Ada](<Ada Lovelace.md>)", ["inline Ada Lovelace.md «Ada Lovelace.md»"]),
            ("[Ada](Ada%20Lovelace.md)", ["inline Ada Lovelace.md «Ada%20Lovelace.md»"]),
            ("[x](%C3%A9t%C3%A9.md) [y](%zz.md)", ["inline été.md «%C3%A9t%C3%A9.md»", "inline %zz.md «%zz.md»"]),
            ("[web](https://example.com/a.md) [m](mailto:a@b.c) [top](#intro)", []),
            ("[abs](/etc/passwd) [net](//host/x.md) [win](C:/x.md)", []),
            ("[up](../../outside.md)", ["inline ../../outside.md «../../outside.md»"]),
            ("[p](Notes(old).md) [q](Notes (old).md)", ["inline Notes(old).md «Notes(old).md»"]),
            ("[![badge](b.png)](Ada.md)", ["inline Ada.md «Ada.md»", "image b.png «b.png»"]),
            ("[ada]: Characters/Ada.md \"Ada\"\n[^1]: a footnote", ["reference Characters/Ada.md «Characters/Ada.md»"]),
            ("Code `[Ada](Ada.md)` and ``[[Ada]]`` stay.", []),
            ("```\n[Ada](Ada.md)\n[[Ada]]\n```\n[[Bea]]", ["wiki Bea «Bea»"]),
            ("~~~~\n```\n[[Ada]]\n~~~~\n[[Cy]]", ["wiki Cy «Cy»"]),
            (
                "[[Ada]] [[Ada#Childhood]] [[Ada|her]] ![[map]]",
                ["wiki Ada «Ada»", "wiki Ada «Ada»", "wiki Ada «Ada»", "wikiEmbed map «map»"]
            ),
            ("[[ Characters/Ada.md #Top| her ]]", ["wiki Characters/Ada.md «Characters/Ada.md»"]),
            ("[[#Heading]] [[]] [[open", []),
            ("\\[not](a.md)", []),
            ("[bad](a.md", []),
            ("é [[Zoë]]", ["wiki Zoë «Zoë»"]),
        ]
        for (text, expected) in table {
            XCTAssertEqual(found(text), expected, text)
        }
    }

    func testInvalidUTF8AndBinaryNeverTrap() {
        let bytes: [UInt8] = [0x5B, 0x5B, 0xFF, 0xFE, 0x5D, 0x5D, 0x5B, 0x61, 0x5D, 0x28, 0xC3, 0x28, 0x29, 0x00, 0x5B]
        let links = Links.parse(bytes)
        XCTAssertEqual(links.first?.kind, .wiki)
        XCTAssertEqual(links.first?.target, "\u{FFFD}\u{FFFD}")
        // Each pattern would be quadratic to a naive scan; these are linear.
        for unit in ["[", "`", "[](", "[[a", "` ``", "[x](<", "[a](b \""] {
            _ = Links.parse(Array(String(repeating: unit, count: 200_000 / unit.count).utf8))
        }
    }

    func testResolveRelativeAndEncode() {
        let file = ["Novel", "Draft", "One.md"]
        XCTAssertEqual(LinkPath.resolve("../Characters/Ada.md", from: file), ["Novel", "Characters", "Ada.md"])
        XCTAssertEqual(LinkPath.resolve("./Two.md", from: file), ["Novel", "Draft", "Two.md"])
        XCTAssertEqual(LinkPath.resolve("../../Notes.md", from: file), ["Notes.md"])
        XCTAssertNil(LinkPath.resolve("../../../etc/passwd", from: file))
        XCTAssertEqual(LinkPath.relative(from: file, to: ["Novel", "Characters", "Ada.md"]), "../Characters/Ada.md")
        XCTAssertEqual(LinkPath.relative(from: file, to: ["Novel", "Draft", "Two.md"]), "Two.md")
        XCTAssertEqual(LinkPath.relative(from: ["Top.md"], to: ["A", "B.md"]), "A/B.md")
        XCTAssertEqual(
            LinkPath.encoded("Ada Lovelace (1815)#?.md", angle: false), "Ada%20Lovelace%20%281815%29%23%3F.md")
        XCTAssertEqual(LinkPath.encoded("Ada Lovelace.md", angle: true), "Ada Lovelace.md")
    }

    /// The wikilink rule: by name without extension, case-insensitively, nearest first.
    func testWikiResolutionTable() {
        let names = WikiNames(files: [
            ["Novel", "Characters", "Ada.md"],
            ["Research", "ada.md"],
            ["Research", "Deep", "Ada.md"],
            ["Poems", "Map.png"],
            ["Novel", "Draft", "One.md"],
        ])
        let table: [(String, [String], [String]?)] = [
            ("Ada", ["Novel", "Draft", "One.md"], ["Novel", "Characters", "Ada.md"]),
            ("ADA", ["Research", "Notes.md"], ["Research", "ada.md"]),
            ("ada", ["Research", "Deep", "x.md"], ["Research", "Deep", "Ada.md"]),
            ("Ada", ["Top.md"], ["Research", "ada.md"]),
            ("Ada.md", ["Novel", "Draft", "One.md"], ["Novel", "Characters", "Ada.md"]),
            ("Deep/Ada", ["Top.md"], ["Research", "Deep", "Ada.md"]),
            ("Research/Ada", ["Novel", "x.md"], ["Research", "ada.md"]),
            ("map", ["Top.md"], ["Poems", "Map.png"]),
            ("Bea", ["Top.md"], nil),
        ]
        for (name, from, expected) in table {
            XCTAssertEqual(names.resolve(name, from: from), expected, "\(name) from \(from)")
        }
    }

    func rewrite(_ text: String, file: [String], _ move: LinkMove, files: [[String]]) -> String {
        let before = WikiNames(files: files)
        let after = WikiNames(files: files.map { move.map($0) ?? $0 })
        let bytes = Array(text.utf8)
        let edits = LinkRewrite.edits(Links.parse(bytes), file: file, move: move, before: before, after: after)
        return String(decoding: LinkRewrite.apply(edits, to: bytes), as: UTF8.self)
    }

    func testRewriteTable() {
        let files = [
            ["Novel", "Characters", "Ada.md"], ["Novel", "Draft", "One.md"], ["Research", "Ada.md"],
            ["Novel", "Characters", "Bea.md"], ["Poems", "map.png"],
        ]
        let renameAda = LinkMove(
            from: ["Novel", "Characters", "Ada.md"], to: ["Novel", "Characters", "Ada Lovelace.md"])
        let moveOne = LinkMove(from: ["Novel", "Draft", "One.md"], to: ["Novel", "One.md"])
        let moveFolder = LinkMove(from: ["Novel", "Characters"], to: ["Cast"])
        let one = ["Novel", "Draft", "One.md"]
        let table: [(String, [String], LinkMove, String)] = [
            (
                "[Ada](../Characters/Ada.md#kid \"t\") rest", one, renameAda,
                "[Ada](../Characters/Ada%20Lovelace.md#kid \"t\") rest"
            ),
            ("[Ada](<../Characters/Ada.md>)", one, renameAda, "[Ada](<../Characters/Ada Lovelace.md>)"),
            ("[ref]: ../Characters/Ada.md", one, renameAda, "[ref]: ../Characters/Ada%20Lovelace.md"),
            (
                "[[Ada]] [[Ada#Childhood|her]] ![[Ada]]", one, renameAda,
                "[[Ada Lovelace]] [[Ada Lovelace#Childhood|her]] ![[Ada Lovelace]]"
            ),
            ("[[Ada.md]]", one, renameAda, "[[Ada Lovelace.md]]"),
            (
                "[[Bea]] [x](../Characters/Bea.md) `[y](../Characters/Ada.md)`", one, renameAda,
                "[[Bea]] [x](../Characters/Bea.md) `[y](../Characters/Ada.md)`"
            ),
            // The moved file's own relative links follow it; its wikilinks still resolve.
            (
                "[Ada](../Characters/Ada.md) [[Bea]] [w](https://x.org/a.md)", one, moveOne,
                "[Ada](Characters/Ada.md) [[Bea]] [w](https://x.org/a.md)"
            ),
            // A folder's move carries everything inside it.
            ("[Ada](../Characters/Ada.md) [[Bea]]", one, moveFolder, "[Ada](../../Cast/Ada.md) [[Bea]]"),
            // Nearest first: away from Novel, [[Ada]] would name Research's Ada, so it takes a path.
            (
                "[[Ada]]", one, LinkMove(from: ["Novel", "Characters", "Ada.md"], to: ["Archive", "Old", "Ada.md"]),
                "[[Archive/Old/Ada]]"
            ),
            (
                "[up](../../../outside.md) [broken](../Nowhere.md)", one, moveOne,
                "[up](../../../outside.md) [broken](Nowhere.md)"
            ),
            (
                "[same](./Two.md)", one, LinkMove(from: ["Novel", "Draft"], to: ["Novel", "Drafts"]), "[same](./Two.md)"
            ),
            ("[two](./Two.md)", one, moveOne, "[two](./Draft/Two.md)"),
            ("[d](../Characters/)", one, moveFolder, "[d](../../Cast/)"),
        ]
        for (text, file, move, expected) in table {
            XCTAssertEqual(rewrite(text, file: file, move, files: files), expected, text)
        }
    }

    func testPositionsAreUTF16() {
        let text = Array("é😀[[Ada]]\nx [b](c.md)".utf8)
        let lines = TextLines(text)
        let links = Links.parse(text)
        XCTAssertEqual(lines.position(links[0].start).line, 0)
        XCTAssertEqual(lines.position(links[0].start).character, 5)
        XCTAssertEqual(lines.position(links[1].start).line, 1)
        XCTAssertEqual(lines.position(links[1].start).character, 6)
        XCTAssertEqual(lines.offset(line: 0, character: 5), links[0].start)
        XCTAssertEqual(lines.offset(line: 9, character: 0), nil)
    }
}
