import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// A move's linking files come from the index's reverse maps (targets and
/// wikilink names to linking files) and its kept wikilink table, not from a
/// walk of the library. Through renames, a folder's move, a delete and a
/// buffer's edits, they answer as an index built afresh on the same files.
final class LinkReverseIndexTests: StateFolderTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada.md = # Ada
        P/Characters/Bea.md = [[Ada]] and [Ada](Ada.md) and [[Draft/One]]
        P/Draft/One.md = See [Ada](../Characters/Ada.md) and [[Bea]] and [two](Two.md).
        P/Draft/Two.md = No link here at all.
        P/Notes/plain.txt = [not](a link file)
        """

    /// A workspace whose index and wikilink table are built.
    func opened(_ fx: Fixture) -> (Workspace, Library) {
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        _ = ws.wikiNames(library)
        return (ws, library)
    }

    func item(_ ws: Workspace, _ fx: Fixture, _ path: String) throws -> Workspace.Target {
        try ws.locate(fx.bytes(path), uri: fx.uri(path))
    }

    /// What links answer for each file: its backlinks, and the edits a rename of it would make.
    func answers(_ ws: Workspace, _ library: Library) -> [String] {
        var files: [[String]] = []
        library.root.walk { e in
            if e.kind == .file, let p = ws.libraryPath(of: e, in: library) { files.append(p) }
            return e.kind == .directory
        }
        return files.sorted { $0.joined(separator: "/") < $1.joined(separator: "/") }.flatMap { path in
            let name = path.joined(separator: "/")
            let back = ws.backlinks(to: path, in: library).map {
                "\(name) ← \($0.file.joined(separator: "/"))@\($0.link.start)"
            }
            let move = LinkMove(from: path, to: path.dropLast() + ["Renamed " + (path.last ?? "")])
            let edits = ws.linkEdits(for: move, in: library).map { fix in
                "\(name) moved: \(fix.file.joined(separator: "/")) "
                    + fix.edits.map { "\($0.start)=\($0.newText)" }.joined(separator: ",")
            }
            return back + edits
        }
    }

    func assertAgreesWithAFreshIndex(
        _ ws: Workspace, _ library: Library, _ fx: Fixture, buffer: (String, String)? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let table = ws.linkIndex(library).table
        let rebuilt = LinkTable(files: table.files)
        XCTAssertEqual(table.inbound, rebuilt.inbound, file: file, line: line)
        XCTAssertEqual(table.wikiRefs, rebuilt.wikiRefs, file: file, line: line)
        let fresh = Workspace()
        let other = fresh.addLibrary(fx.bytes())
        if let (path, text) = buffer {
            let entry = try XCTUnwrap(fresh.entry(at: path.split(separator: "/").map(String.init), in: other))
            fresh.indexBuffer(entry, text: Array(text.utf8))
        }
        let expected = answers(fresh, other)
        XCTAssertFalse(expected.isEmpty, file: file, line: line)
        XCTAssertEqual(answers(ws, library), expected, file: file, line: line)
    }

    func testRenamesKeepTheReverseIndexTrue() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        try assertAgreesWithAFreshIndex(ws, library, fx)
        ws.noteLinkChanges(try ws.rename(try item(ws, fx, "P/Characters/Ada.md"), to: "Ada Lovelace.md").changes)
        try assertAgreesWithAFreshIndex(ws, library, fx)
        ws.noteLinkChanges(try ws.rename(try item(ws, fx, "P/Characters/Bea.md"), to: "Ada.md").changes)
        try assertAgreesWithAFreshIndex(ws, library, fx)
    }

    func testAFolderMoveKeepsTheReverseIndexTrue() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        let outcome = try ws.move(try item(ws, fx, "P/Draft"), to: try item(ws, fx, "P/Characters"))
        ws.noteLinkChanges(outcome.changes)
        XCTAssertNotNil(ws.entry(at: ["P", "Characters", "Draft", "One.md"], in: library))
        try assertAgreesWithAFreshIndex(ws, library, fx)
    }

    func testADeleteToTheTrashLeavesNoLinkingFileBehind() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        ws.noteLinkChanges(try ws.delete(try item(ws, fx, "P/Draft/One.md")).changes)
        XCTAssertNil(ws.linkIndex(library).table.inbound[["P", "Draft", "Two.md"]])
        try assertAgreesWithAFreshIndex(ws, library, fx)
        ws.noteLinkChanges(try ws.delete(try item(ws, fx, "P/Characters/Ada.md")).changes)
        try assertAgreesWithAFreshIndex(ws, library, fx)
    }

    func testABufferEditKeepsTheReverseIndexTrue() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        let two = try XCTUnwrap(ws.entry(at: ["P", "Draft", "Two.md"], in: library))
        let text = "[[Bea]] and [Ada](../Characters/Ada.md)"
        ws.indexBuffer(two, text: Array(text.utf8))
        try assertAgreesWithAFreshIndex(ws, library, fx, buffer: ("P/Draft/Two.md", text))
        ws.indexBuffer(two, text: nil)
        try assertAgreesWithAFreshIndex(ws, library, fx)
    }

    /// A file's move takes its linking files from its own entry; a link
    /// through a file's path (broken before and after) and a folder's files
    /// are still found, as the look at every target found them.
    func testTargetsBelowAMovedPathFollowIt() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Characters/Ada.md = # Ada
            P/Draft/One.md = [in](../Characters/Ada.md/inner) and [ada](../Characters/Ada.md)
            P/Draft/Two.md = [bea](../Characters/Bea.md)
            """)
        let (ws, library) = opened(fx)
        func edits(_ from: [String], _ to: [String]) -> [String] {
            ws.linkEdits(for: LinkMove(from: from, to: to), in: library).flatMap { fix in
                fix.edits.map { "\(fix.file.joined(separator: "/")): \($0.newText)" }
            }
        }
        XCTAssertEqual(
            edits(["P", "Characters", "Ada.md"], ["P", "Characters", "Eve.md"]),
            ["P/Draft/One.md: ../Characters/Eve.md/inner", "P/Draft/One.md: ../Characters/Eve.md"])
        XCTAssertEqual(
            edits(["P", "Characters"], ["P", "People"]),
            [
                "P/Draft/One.md: ../People/Ada.md/inner", "P/Draft/One.md: ../People/Ada.md",
                "P/Draft/Two.md: ../People/Bea.md",
            ])
        // Once no link leads below a path, its move finds none there.
        let one = try XCTUnwrap(ws.entry(at: ["P", "Draft", "One.md"], in: library))
        ws.indexBuffer(one, text: Array("no links".utf8))
        XCTAssertEqual(edits(["P", "Characters", "Ada.md"], ["P", "Characters", "Eve.md"]), [])
        XCTAssertEqual(edits(["P", "Characters"], ["P", "People"]), ["P/Draft/Two.md: ../People/Bea.md"])
    }
}
