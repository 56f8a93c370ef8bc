import CarrelModel
import XCTest

/// The wikilink table after a move, seen through the table before it
/// (`moved`) or kept current by removing and adding files, resolves every
/// name as a table built afresh from the files after the move.
final class WikiNamesMoveTests: XCTestCase {
    static let files: [[String]] = [
        ["P", "Characters", "Ada.md"], ["P", "Characters", "Bea.md"], ["P", "Draft", "Ada.md"],
        ["P", "Draft", "One.md"], ["P", "Notes", "ada.txt"],
    ]
    static let names = ["Ada", "ada.txt", "Bea", "Ada Lovelace", "Draft/Ada", "Characters/Ada", "One", "Archive/One"]
    static let from: [[String]] = [["P", "Draft", "One.md"], ["P", "Characters", "Bea.md"], ["P", "Notes", "x.md"]]

    func resolved(_ wiki: WikiNames) -> [String] {
        Self.names.flatMap { name in
            Self.from.map { f in
                "\(name) from \(f.joined(separator: "/")): \(wiki.resolve(name, from: f)?.joined(separator: "/") ?? "-")"
            }
        }
    }

    func check(
        removing removed: [[String]], adding added: [[String]], file: StaticString = #filePath, line: UInt = #line
    ) {
        let fresh = WikiNames(files: Self.files.filter { !removed.contains($0) } + added)
        let before = WikiNames(files: Self.files)
        XCTAssertEqual(
            resolved(before.moved(removing: removed, adding: added)), resolved(fresh), file: file, line: line)
        var kept = before
        for f in removed { kept.remove(f) }
        for f in added { kept.add(f) }
        XCTAssertEqual(resolved(kept), resolved(fresh), file: file, line: line)
        XCTAssertNotEqual(resolved(fresh), resolved(before), "the move changes some answer", file: file, line: line)
    }

    func testARenameResolvesAsAFreshTable() {
        check(removing: [["P", "Characters", "Ada.md"]], adding: [["P", "Characters", "Ada Lovelace.md"]])
    }

    func testAFolderMoveResolvesAsAFreshTable() {
        check(
            removing: [["P", "Draft", "Ada.md"], ["P", "Draft", "One.md"]],
            adding: [["P", "Archive", "Ada.md"], ["P", "Archive", "One.md"]])
    }

    func testAMoveIntoATrashOnlyRemoves() {
        check(removing: [["P", "Characters", "Ada.md"]], adding: [])
    }

    func testFolderRemovalForgetsEverythingBelow() {
        var wiki = WikiNames(files: Self.files)
        wiki.remove(under: ["P", "Draft"])
        XCTAssertEqual(wiki.resolve("One", from: ["P", "x.md"]), nil)
        XCTAssertEqual(wiki.resolve("Ada", from: ["P", "Draft", "x.md"]), ["P", "Characters", "Ada.md"])
    }
}
