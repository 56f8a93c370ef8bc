import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A snapshot's temporary no note names (cut short on another machine and
/// synced in, or by a Carrel that wrote no notes) is not looked for at
/// open: the real server sweeps for it after the first view, and takes only
/// one untouched for an hour.
final class SnapshotSweepOverStdioTests: ProcessLibraryTestCase {
    func testTheSweepAfterTheFirstViewTakesOnlyAbandonedTemporaries() throws {
        let pid = try deadPid()
        let folder = "P/.carrel/snapshots/Draft/a.md"
        let abandoned = "\(folder)/.carrel-snapshot-\(pid)-1"
        let fresh = "\(folder)/.carrel-snapshot-\(pid)-2"
        home = try Fixture()
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"shortStory"}
            P/Draft/a.md = a
            \(abandoned) = synced in, long ago
            \(fresh) = maybe still being written
            """)
        XCTAssertEqual(Fixture.sh("touch -d '2 hours ago' '\(fx.path)/\(abandoned)'"), 0)
        c = try ProcessClient(home: home)
        _ = try c.initialize([fx.uri()])
        XCTAssertTrue(fx.exists(abandoned), "the open did not walk the snapshot folders")
        XCTAssertTrue(fx.exists(fresh))
        _ = try c.request("carrel/tree", ["depth": 1])
        let deadline = Date().addingTimeInterval(10)
        while fx.exists(abandoned), Date() < deadline { usleep(20_000) }
        XCTAssertFalse(fx.exists(abandoned), "swept after the first view")
        // A request queued behind the sweep: it has ended when this answers.
        _ = try c.request("carrel/tree", ["depth": 1])
        XCTAssertEqual(fx.read(fresh), "maybe still being written")
    }
}
