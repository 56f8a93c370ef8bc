import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// A crash while a snapshot, a submission or a market's details are
/// written leaves Carrel's own hidden leftovers; the next open removes
/// them (a snapshot's from this device's notes, `SnapshotWritesTests`; one
/// no note names by the sweep after the first view, once it is an hour
/// old), and nothing that only looks like them, nothing of a process still
/// running, nothing that arrived by sync.
final class StateLeftoversTests: XCTestCase {
    var fx: Fixture!
    var home: Fixture!
    var ws: Workspace!

    override func setUpWithError() throws {
        home = try Fixture()
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        ws = nil
        fx = nil
        home = nil
    }

    func open() {
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    /// Backdated past the age the sweep waits for.
    func abandon(_ paths: [String]) {
        for path in paths { XCTAssertEqual(Fixture.sh("touch -h -d '2 hours ago' '\(fx.path)/\(path)'"), 0, path) }
    }

    func testAbandonedSnapshotTemporariesAreSweptAndLookAlikesKept() throws {
        let pid = try deadPid()
        let snapshots = "P/.carrel/snapshots"
        let leftovers = [
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-123456",
            "\(snapshots)/Draft/Deep/er/b.md/.carrel-snapshot-\(pid)-7",
            // An hour old, whatever its pid: another machine's means nothing here.
            "\(snapshots)/Draft/a.md/.carrel-snapshot-1-6",
        ]
        let kept = [
            "\(snapshots)/Draft/a.md/2026-11-28T010203Z dev-1 3w.md",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-12-3",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-x",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-notes",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-9/inside.md",
            // A writer's file outside `.carrel` is never Carrel's leftover.
            "P/Draft/.carrel-snapshot-\(pid)-4",
        ]
        // Younger than an hour: maybe a write under way, here or on the machine it came from.
        let young = "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-5"
        var tree = "P/.carrel/project.json = {\"type\":\"shortStory\"}\nP/Draft/a.md = a\nOut/kept.md = out\n"
        for path in leftovers + kept + [young] { tree += "\(path) = \(path)\n" }
        fx = try Fixture(tree)
        let outside = try Fixture("S/.carrel-snapshot-\(pid)-1 = outside")
        XCTAssertEqual(Fixture.sh("touch -d '2 hours ago' '\(outside.path)/S/.carrel-snapshot-\(pid)-1'"), 0)
        XCTAssertEqual(Fixture.sh("ln -s '\(outside.path)/S' '\(fx.path)/\(snapshots)/Draft/linked'"), 0)
        XCTAssertEqual(
            Fixture.sh("ln -s ../../../../Out/kept.md '\(fx.path)/\(snapshots)/Draft/.carrel-snapshot-\(pid)-8'"), 0)
        abandon(leftovers + kept + ["\(snapshots)/Draft/.carrel-snapshot-\(pid)-8"])
        open()
        for path in leftovers { XCTAssertTrue(fx.exists(path), "an open walks no snapshot folder: \(path)") }
        XCTAssertEqual(ws.sweepSnapshotTemporaries(), leftovers.count)
        for path in leftovers { XCTAssertFalse(fx.exists(path), path) }
        for path in kept + [young] { XCTAssertEqual(fx.read(path), path, path) }
        XCTAssertEqual(outside.read("S/.carrel-snapshot-\(pid)-1"), "outside", "a link is never followed")
        XCTAssertTrue(fx.exists("\(snapshots)/Draft/.carrel-snapshot-\(pid)-8"), "a link is no temporary of Carrel's")
        XCTAssertEqual(fx.read("Out/kept.md"), "out")
    }

    func testTheSweepReachesEverySiblingFolderAtEveryDepth() throws {
        let pid = try deadPid()
        var tree = "P/.carrel/project.json = {\"type\":\"shortStory\"}\n"
        var leftovers: [String] = []
        var kept: [String] = []
        for part in 0..<3 {
            for file in 0..<10 {
                let folder = "P/.carrel/snapshots/Draft/Part \(part)/Scene \(file).md"
                leftovers.append("\(folder)/.carrel-snapshot-\(pid)-\(part * 10 + file)")
                kept.append("\(folder)/2026-11-28T010203Z dev-\(file) 3w.md")
            }
        }
        leftovers.append("P/.carrel/snapshots/.carrel-snapshot-\(pid)-99")
        for path in leftovers + kept { tree += "\(path) = \(path)\n" }
        fx = try Fixture(tree)
        abandon(leftovers)
        open()
        XCTAssertEqual(ws.sweepSnapshotTemporaries(), leftovers.count)
        for path in leftovers { XCTAssertFalse(fx.exists(path), path) }
        for path in kept { XCTAssertEqual(fx.read(path), path, path) }
    }

    func testRecordTemporariesOfADeadProcessAreRemoved() throws {
        let pid = try deadPid()
        let records = "P/.carrel/submissions"
        let leftover = "\(records)/.tmp-\(pid)-1764300000000-42"
        let kept = [
            "\(records)/.tmp-1-1764300000000-42",
            "\(records)/.tmp-notes",
            "\(records)/.tmp-\(pid)-1764300000000",
            "\(records)/.tmp-\(pid)-1-2/inside.json",
        ]
        var tree = "P/.carrel/project.json = {\"type\":\"shortStory\"}\n\(leftover) = {\"torn\n"
        for path in kept { tree += "\(path) = \(path)\n" }
        fx = try Fixture(tree)
        open()
        XCTAssertFalse(fx.exists(leftover))
        for path in kept { XCTAssertEqual(fx.read(path), path, path) }
    }

    func testAMarketsTemporaryIsRemovedBesideItsFile() throws {
        let pid = try deadPid()
        let market = "P/Magazines/Granta"
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"shortStory"}
            \(market)/.carrel-market = {"id":"m","fields":{}}
            \(market)/.carrel-order.tmp-market-\(pid)-1764300000000-9 = {"id":"m"
            """)
        open()
        XCTAssertFalse(fx.exists("\(market)/.carrel-order.tmp-market-\(pid)-1764300000000-9"))
        XCTAssertEqual(fx.read("\(market)/.carrel-market"), "{\"id\":\"m\",\"fields\":{}}")
    }
}
