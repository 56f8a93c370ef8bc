import CarrelModel
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import Glibc
import XCTest

/// Today's words when two Carrels on one device (the server and the CLI,
/// two editors) each keep `sessions.json`: every write merges with what
/// the other wrote, so they agree. Two workspaces here are the two
/// processes' views; `SessionsAcrossProcessesTests` runs the real ones.
final class SessionsMergeTests: StateFolderTestCase {
    var fx: Fixture!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = one two three
            Q/.carrel/project.json = {"type":"poetry"}
            Q/Draft/q.md = q
            """)
    }

    override func tearDown() {
        fx = nil
        super.tearDown()
    }

    func open() -> Workspace {
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        return ws
    }

    func count(_ ws: Workspace) {
        ws.queueUncountedWords()
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
    }

    func row(_ ws: Workspace, _ relative: String) throws -> NodeInfo {
        ws.describe(try ws.locate(fx.bytes(relative), uri: relative).item, .english)
    }

    /// The other process saw the project first today: its count starts the
    /// day, whichever process writes last.
    func testTheDayStartsAtTheEarliestCountEitherProcessMade() throws {
        let late = open()
        _ = try row(late, "P")  // read sessions.json while it held nothing
        let early = open()
        count(early)
        XCTAssertEqual(try row(early, "P").sessionWords, 0)
        try "one two three four five".write(to: fx.url("P/Draft/a.md"), atomically: false, encoding: .utf8)
        count(late)
        XCTAssertEqual(try row(late, "P").sessionWords, 2, "the day began at the other process's count")
        let third = open()
        count(third)
        XCTAssertEqual(try row(third, "P").sessionWords, 2, "and that is what the file keeps")
    }

    /// A daily target set by one process is neither lost when the other
    /// writes nor unseen by it.
    func testADailyTargetSetByOneIsKeptAndSeenByTheOther() throws {
        let server = open()
        count(server)
        let cli = open()
        count(cli)
        _ = try cli.setTarget(try cli.locate(fx.bytes("P"), uri: "P"), .session, 500)
        XCTAssertEqual(try row(server, "P").sessionTarget, 500, "seen by the other process")
        _ = try server.setTarget(try server.locate(fx.bytes("Q"), uri: "Q"), .session, 300)
        let later = open()
        XCTAssertEqual(try row(later, "P").sessionTarget, 500, "not lost by the other's write")
        XCTAssertEqual(try row(later, "Q").sessionTarget, 300)
        _ = try server.setTarget(try server.locate(fx.bytes("P"), uri: "P"), .session, nil)
        XCTAssertNil(try row(open(), "P").sessionTarget, "the latest change wins, a clearing too")
        XCTAssertNil(try row(cli, "P").sessionTarget)
    }

    /// What another program left in sessions.json is untrusted: a record of
    /// the wrong shape, or numbers out of range, are dropped, and a write
    /// keeps every well-formed record.
    func testAHostileFileIsReadAsWhatItHoldsThatMakesSense() throws {
        try FileManager.default.createDirectory(atPath: state.path + "/carrel", withIntermediateDirectories: true)
        let key = fx.path + "/Q"
        try Data(
            """
            {"\(key)": {"day": "1999-01-01", "start": 1, "target": 40, "started": 9223372036854775807,
              "targetChanged": -9223372036854775808},
             "elsewhere": {"day": [], "start": "x"}, "other": {"day": "2000-01-01", "start": 7}}
            """.utf8
        ).write(to: URL(fileURLWithPath: state.path + "/carrel/sessions.json"))
        let ws = open()
        count(ws)
        _ = try ws.setTarget(try ws.locate(fx.bytes("P"), uri: "P"), .session, 100)
        XCTAssertEqual(try row(ws, "Q").sessionTarget, 40)
        XCTAssertEqual(try row(ws, "Q").sessionWords, 0, "a new day")
        let text = try String(contentsOfFile: state.path + "/carrel/sessions.json", encoding: .utf8)
        XCTAssertTrue(text.contains("\"other\""), text)
        XCTAssertFalse(text.contains("elsewhere"), text)
    }
}
