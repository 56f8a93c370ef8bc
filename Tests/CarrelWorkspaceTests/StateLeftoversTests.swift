import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// A crash while a snapshot, a submission or a market's details are
/// written leaves Carrel's own hidden leftovers; the next open removes
/// them, and nothing that only looks like them, nothing of a process still
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

    func testSnapshotTemporariesOfADeadProcessAreRemovedAndLookAlikesKept() throws {
        let pid = try deadPid()
        let snapshots = "P/.carrel/snapshots"
        let leftovers = [
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-123456",
            "\(snapshots)/Draft/Deep/er/b.md/.carrel-snapshot-\(pid)-7",
        ]
        let kept = [
            "\(snapshots)/Draft/a.md/2026-11-28T010203Z dev-1 3w.md",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-12-3",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-x",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-notes",
            // Pid 1 always runs: its temporary is a snapshot under way.
            "\(snapshots)/Draft/a.md/.carrel-snapshot-1-5",
            "\(snapshots)/Draft/a.md/.carrel-snapshot-\(pid)-9/inside.md",
            // A writer's file outside `.carrel` is never Carrel's leftover.
            "P/Draft/.carrel-snapshot-\(pid)-4",
        ]
        var tree = "P/.carrel/project.json = {\"type\":\"shortStory\"}\nP/Draft/a.md = a\nOut/kept.md = out\n"
        for path in leftovers + kept { tree += "\(path) = \(path)\n" }
        fx = try Fixture(tree)
        let outside = try Fixture("S/.carrel-snapshot-\(pid)-1 = outside")
        XCTAssertEqual(Fixture.sh("ln -s '\(outside.path)/S' '\(fx.path)/\(snapshots)/Draft/linked'"), 0)
        XCTAssertEqual(
            Fixture.sh("ln -s ../../../../Out/kept.md '\(fx.path)/\(snapshots)/Draft/.carrel-snapshot-\(pid)-8'"), 0)
        open()
        for path in leftovers { XCTAssertFalse(fx.exists(path), path) }
        for path in kept { XCTAssertEqual(fx.read(path), path, path) }
        XCTAssertEqual(outside.read("S/.carrel-snapshot-\(pid)-1"), "outside", "a link is never followed")
        XCTAssertTrue(fx.exists("\(snapshots)/Draft/.carrel-snapshot-\(pid)-8"), "a link is no temporary of Carrel's")
        XCTAssertEqual(fx.read("Out/kept.md"), "out")
    }

    func testSnapshotTemporariesInEverySiblingFolderAtEveryDepthAreRemoved() throws {
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
        open()
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
