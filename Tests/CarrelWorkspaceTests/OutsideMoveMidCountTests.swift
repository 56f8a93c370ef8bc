import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelWorkspace

/// The links as they were before another program's move, taken while the
/// first count has read only some files: the files it has not read yet
/// hold links too, and the update must find them.
final class OutsideMoveMidCountTests: WatchedWorkspaceTestCase {
    func testAMoveMidCountFindsTheLinksOfFilesNotCountedYet() throws {
        try watch(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = See [[Ada]] and [her](Ada.md).
            P/Novel/One.md = Meet [Ada](Characters/Ada.md#kid).
            """)
        ws.queueUncountedWords()
        // One file read: at least one of the two linking files is not.
        XCTAssertEqual(ws.countQueuedWords(files: 1).count, 1)
        XCTAssertTrue(ws.hasWordsToCount)
        XCTAssertEqual(fx.sh("mv Ada.md 'Ada Lovelace.md'", in: "P/Novel/Characters"), 0)
        _ = ws.apply(inbox.take { $0.contains(where: \.isMovedTo) })
        let moves = ws.takeOutsideMoves()
        XCTAssertEqual(moves.count, 1)
        let library = try XCTUnwrap(ws.libraries.first)
        let move = LinkMove(
            from: ["P", "Novel", "Characters", "Ada.md"], to: ["P", "Novel", "Characters", "Ada Lovelace.md"])
        let edits = ws.linkEdits(after: move, in: library, since: ws.linkSnapshot(library, undoing: move))
        XCTAssertEqual(edits.map { $0.file.joined(separator: "/") }, ["P/Novel/Characters/Bea.md", "P/Novel/One.md"])
        XCTAssertEqual(edits.map(\.edits.count), [2, 1])
    }
}
