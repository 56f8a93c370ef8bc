import CarrelModel
import CarrelStore
import CarrelTestSupport
import XCTest

@testable import CarrelWorkspace

/// A count hands the index every Markdown and Fountain file it reads, most
/// of them without a link. The index looks for such a file only in a
/// folder where it holds some file, since only there can it hold this one
/// (its text changed since): the others cost it no path and no look.
final class LinkIndexCountedFoldersTests: StateFolderTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada.md = # Ada
        P/Draft/One.md = See [Ada](../Characters/Ada.md).
        P/Notes/A.md = No link.
        P/Notes/B.md = None here.
        P/Notes/C.fountain = INT. HOUSE
        """

    func counted(_ ws: Workspace) {
        ws.queueUncountedWords()
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
    }

    func testFilesWithoutLinksInFoldersHoldingNoneAreNotLookedFor() throws {
        let fx = try Fixture(Self.tree)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        counted(ws)
        XCTAssertEqual(ws.countedLinkPaths, 1, "only One.md, which holds a link")
        let notes = try XCTUnwrap(library.root.child("P")?.child("Notes"))
        XCTAssertTrue(notes.children.values.allSatisfy(\.readWithoutLinks), "known read, so never read again")
        XCTAssertEqual(
            ws.backlinks(to: ["P", "Characters", "Ada.md"], in: library).map(\.file), [["P", "Draft", "One.md"]])
        XCTAssertEqual(ws.linkIndexReads, 0)
    }

    /// A file the index holds, whose text lost its links and is counted
    /// again, is looked for in its folder and dropped.
    func testAFileThatLostItsLinksIsDroppedWhenCountedAgain() throws {
        let fx = try Fixture(Self.tree)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        counted(ws)
        try fx.add("P/Draft/One.md = Ada is gone.")
        ws.recountWords(after: [Change(.changed, fx.bytes("P/Draft/One.md"))])
        counted(ws)
        XCTAssertEqual(ws.backlinks(to: ["P", "Characters", "Ada.md"], in: library).count, 0)
        XCTAssertEqual(ws.linkIndexReads, 0)
    }
}
