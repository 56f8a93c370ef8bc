import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// Another program's rename, seen whole by the watcher, takes the item's
/// snapshots along; a sync engine's rename through its temporary does not,
/// since the machine that renamed moved them and sync brings that move.
final class SnapshotWatchedMovesTests: WatchedWorkspaceTestCase {
    override func setUpWithError() throws {
        try watch(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = spring
            P/Draft/Autumn.md = autumn
            P/Ready/
            """)
    }

    func names(_ relative: String) throws -> [String] {
        try ws.snapshots(of: try ws.locate(fx.bytes(relative), uri: relative)).list.map(\.name.fileName)
    }

    func take(_ relative: String) throws -> String {
        try ws.takeSnapshot(try ws.locate(fx.bytes(relative), uri: relative), title: nil)[0].name.fileName
    }

    func testAnotherProgramsRenameCarriesThem() throws {
        let spring = try take("P/Draft/Spring.md")
        XCTAssertEqual(rename(fx.path + "/P/Draft/Spring.md", fx.path + "/P/Ready/Summer.md"), 0)
        let events = inbox.take { $0.contains(where: \.isMovedTo) }
        let changes = ws.apply(events)
        XCTAssertTrue(changes.contains { $0.kind == .moved }, "\(changes)")
        XCTAssertEqual(try names("P/Ready/Summer.md"), [spring])
        XCTAssertFalse(fx.exists("P/.carrel/snapshots/Draft/Spring.md"))
    }

    func testASyncEnginesRenameLeavesThemToSync() throws {
        let autumn = try take("P/Draft/Autumn.md")
        let temporary = fx.path + "/P/Draft/.syncthing.Fall.md.tmp"
        XCTAssertEqual(rename(fx.path + "/P/Draft/Autumn.md", temporary), 0)
        XCTAssertEqual(rename(temporary, fx.path + "/P/Draft/Fall.md"), 0)
        let events = inbox.take { $0.filter(\.isMovedTo).count >= 2 }
        let changes = ws.apply(events)
        XCTAssertTrue(changes.contains { $0.kind == .moved }, "\(changes)")
        XCTAssertTrue(fx.exists("P/.carrel/snapshots/Draft/Autumn.md/\(autumn)"), "left where sync will move them")
    }
}
