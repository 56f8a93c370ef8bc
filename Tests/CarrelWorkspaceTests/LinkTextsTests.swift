import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// A move's edits are made on each linking file's text, kept from the last
/// move while the file's status (device, inode, size, mtime, ctime) holds:
/// asked again, as an editor asks `workspace/willRenameFiles` for each name
/// the writer tries, the same files are not read again, and the edits are
/// the same. A file written since is read again, and so is one written too
/// recently for its status to tell a later write apart.
final class LinkTextsTests: StateFolderTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada.md = # Ada
        P/Draft/One.md = See [Ada](../Characters/Ada.md) and [[Ada]].
        P/Draft/Two.md = [her](../Characters/Ada.md), [one](One.md)
        P/Notes/Three.md = [Ada](<../Characters/Ada.md>)
        """

    let rename = LinkMove(from: ["P", "Characters", "Ada.md"], to: ["P", "Characters", "Ada Lovelace.md"])

    func opened(_ fx: Fixture, settledNs: Int64? = nil) -> (Workspace, Library) {
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        if let settledNs { ws.linkIndex(library).texts.settledNs = settledNs }
        return (ws, library)
    }

    func edits(_ ws: Workspace, _ library: Library) -> [String] {
        ws.linkEdits(for: rename, in: library).flatMap { fix in
            fix.edits.map { "\(fix.file.joined(separator: "/"))@\($0.start): \($0.newText)" }
        }
    }

    func reads(_ ws: Workspace, _ library: Library) -> Int { ws.linkIndex(library).texts.reads }

    func testAMoveAskedAgainReadsNoLinkingFileAgain() throws {
        let fx = try Fixture(Self.tree)
        // The files are settled as soon as the clock has moved past their writing.
        usleep(20_000)
        let (ws, library) = opened(fx, settledNs: 0)
        let first = edits(ws, library)
        XCTAssertEqual(
            first,
            [
                "P/Draft/One.md@10: ../Characters/Ada%20Lovelace.md", "P/Draft/One.md@38: Ada Lovelace",
                "P/Draft/Two.md@6: ../Characters/Ada%20Lovelace.md",
                "P/Notes/Three.md@7: ../Characters/Ada Lovelace.md",
            ])
        XCTAssertEqual(reads(ws, library), 3)
        XCTAssertEqual(edits(ws, library), first)
        XCTAssertEqual(reads(ws, library), 3, "the kept texts were used")
        XCTAssertEqual(edits(Workspace(), Workspace().addLibrary(fx.bytes())), first, "a fresh read agrees")
    }

    func testAFileWrittenSinceIsReadAgain() throws {
        let fx = try Fixture(Self.tree)
        usleep(20_000)
        let (ws, library) = opened(fx, settledNs: 0)
        _ = edits(ws, library)
        try fx.add("P/Draft/Two.md = Now only [her](../Characters/Ada.md)")
        XCTAssertEqual(
            edits(ws, library),
            [
                "P/Draft/One.md@10: ../Characters/Ada%20Lovelace.md", "P/Draft/One.md@38: Ada Lovelace",
                "P/Draft/Two.md@15: ../Characters/Ada%20Lovelace.md",
                "P/Notes/Three.md@7: ../Characters/Ada Lovelace.md",
            ])
        XCTAssertEqual(reads(ws, library), 4, "only the written file was read again")
    }

    /// A file written a moment ago is not kept: a second write within the
    /// filesystem's tick, of the same size, could leave its status as it was.
    func testAFileJustWrittenIsReadEachTime() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        _ = edits(ws, library)
        XCTAssertEqual(reads(ws, library), 3)
        // The same size, so only the status's times could tell.
        try fx.add("P/Draft/Two.md = [her](../Characters/Ada.md), [one](Two.md)")
        XCTAssertEqual(
            edits(ws, library),
            [
                "P/Draft/One.md@10: ../Characters/Ada%20Lovelace.md", "P/Draft/One.md@38: Ada Lovelace",
                "P/Draft/Two.md@6: ../Characters/Ada%20Lovelace.md",
                "P/Notes/Three.md@7: ../Characters/Ada Lovelace.md",
            ])
        XCTAssertEqual(reads(ws, library), 6, "each file was read again")
    }
}
