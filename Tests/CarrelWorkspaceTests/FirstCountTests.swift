import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// A library's first count waits for the first scan, and only for folders
/// that are still there to read.
final class FirstCountTests: XCTestCase {
    override func tearDown() { unsetenv("XDG_STATE_HOME") }

    func testAPendingFolderDeletedMeanwhileDoesNotHoldTheFirstCountBack() throws {
        let state = try Fixture()
        setenv("XDG_STATE_HOME", state.path, 1)
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Cycle/a.md = one
            """)
        let ws = Workspace()
        // Opening reads the library's listing and P's: Draft waits for the scan.
        ws.scanDeepFoldersInBackground(hold: .results) {}
        let library = ws.addLibrary(fx.bytes())
        let draft = try XCTUnwrap(library.root.child("P")?.child("Draft"))
        XCTAssertTrue(library.isPending(draft))
        ws.queueUncountedWords()
        _ = ws.countQueuedWords()
        XCTAssertTrue(ws.takeEndedFirstCounts().isEmpty, "Draft is still to be read")

        // Deleted from the model, as a change on disk does, before any scan read it.
        _ = draft.parent?.remove(draft)
        ws.queueUncountedWords()
        _ = ws.countQueuedWords()
        XCTAssertEqual(ws.takeEndedFirstCounts().map(\.path), [library.path])
    }
}
