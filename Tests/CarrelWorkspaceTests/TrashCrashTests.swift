import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Glibc
import XCTest

/// Every state a crash can leave between the steps of a delete, a restore,
/// a rename in Trash and the move of older Trash records out of
/// project.json, built as a fixture and opened: each is repaired, every
/// item once, every item in Trash restorable to where it came from.
final class TrashCrashTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    func open(_ tree: String) throws {
        fx = try Fixture(tree)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func t(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    var records: [String] { fx.listing("P/.carrel/trash", includeHidden: true) }

    // MARK: Delete

    /// Killed after the record, before the move: the record names nothing
    /// in Trash and goes; the item never left.
    func testADeleteCutBeforeTheMoveLeavesTheItemAndNoRecord() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/5-a.json = {"name":"a.md","from":"Draft/a.md","deleted":5}
            P/Draft/a.md = a
            """)
        XCTAssertEqual(records, [])
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
    }

    /// Killed after the move: record and item are both there.
    func testADeleteCutAfterTheMoveRestoresToItsOrigin() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/5-a.json = {"name":"a.md","from":"Draft/Deep/a.md","deleted":5}
            P/Trash/a.md = a
            """)
        _ = try ws.restore(try t("P/Trash/a.md"))
        XCTAssertEqual(fx.read("P/Draft/Deep/a.md"), "a")
        XCTAssertEqual(records, [])
    }

    // MARK: Restore

    /// Killed after the move out, before the record went: the record
    /// names nothing in Trash and goes.
    func testARestoreCutBeforeTheRecordWentDropsIt() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/5-a.json = {"name":"a.md","from":"Draft/a.md","deleted":5}
            P/Draft/a.md = a
            P/Trash/
            """)
        XCTAssertEqual(records, [])
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
    }

    // MARK: Rename in Trash

    /// Killed after the new record, before the rename: the new record
    /// names nothing and goes; the old one still serves.
    func testARenameCutBeforeTheRenameKeepsTheOldRecord() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/5-a.json = {"name":"a.md","from":"Draft/a.md","deleted":5}
            P/.carrel/trash/9-b.json = {"name":"b.md","from":"Draft/a.md","deleted":5}
            P/Trash/a.md = a
            """)
        XCTAssertEqual(records, ["5-a.json"])
        _ = try ws.restore(try t("P/Trash/a.md"))
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
    }

    /// Killed after the rename, before the old record went.
    func testARenameCutAfterTheRenameKeepsTheNewRecord() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/5-a.json = {"name":"a.md","from":"Draft/a.md","deleted":5}
            P/.carrel/trash/9-b.json = {"name":"b.md","from":"Draft/a.md","deleted":5}
            P/Trash/b.md = a
            """)
        XCTAssertEqual(records, ["9-b.json"])
        _ = try ws.restore(try t("P/Trash/b.md"))
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
    }

    /// Two machines deleted an item of the same name and the Trash kept
    /// one: the newest deletion's record stays, the other goes.
    func testOfTwoRecordsForOneItemTheNewestStays() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/5-a.json = {"name":"a.md","from":"Draft/a.md","deleted":5}
            P/.carrel/trash/7-z.json = {"name":"a.md","from":"Ready/a.md","deleted":7}
            P/Trash/a.md = a
            """)
        XCTAssertEqual(records, ["7-z.json"])
        _ = try ws.restore(try t("P/Trash/a.md"))
        XCTAssertEqual(fx.read("P/Ready/a.md"), "a")
    }

    // MARK: Moving the records out of project.json

    /// Before anything: every record of an item in Trash gets a file,
    /// then project.json loses "trash"; the older version's lock, spare
    /// and temporary files go.
    func testOlderRecordsMoveToFilesOnOpen() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry","sort":{"by":"modified"},"trash":{"a.md":{"from":"Draft/Deep/a.md","deleted":3},"gone.md":{"from":"Draft/gone.md","deleted":4}}}
            P/.carrel/lock
            P/.carrel/.project.json.previous = {"type":"poetry"}
            P/.carrel/.project.json.tmp-9-9 = {"ty
            P/Trash/a.md = a
            """)
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(
            fx.listing("P/.carrel", includeHidden: true), ["project.json", "trash/"] + records.map { "trash/" + $0 })
        let text = try XCTUnwrap(fx.read("P/.carrel/project.json"))
        XCTAssertFalse(text.contains("trash\":"), text)
        XCTAssertTrue(text.contains("\"modified\""), "settings are kept")
        _ = try ws.restore(try t("P/Trash/a.md"))
        XCTAssertEqual(fx.read("P/Draft/Deep/a.md"), "a")
    }

    /// Killed after some record files were written, before project.json
    /// was rewritten: the next open writes only the missing ones.
    func testAMoveCutBeforeTheRewriteFinishesWithoutDuplicates() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry","trash":{"a.md":{"from":"Draft/a.md","deleted":3},"b.md":{"from":"Ready/b.md","deleted":4}}}
            P/.carrel/trash/3-a.json = {"name":"a.md","from":"Draft/a.md","deleted":3}
            P/Trash/a.md = a
            P/Trash/b.md = b
            """)
        XCTAssertEqual(records.count, 2)
        XCTAssertTrue(records.contains("3-a.json"))
        XCTAssertFalse(try XCTUnwrap(fx.read("P/.carrel/project.json")).contains("trash\":"))
        _ = try ws.restore(try t("P/Trash/a.md"))
        _ = try ws.restore(try t("P/Trash/b.md"))
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
        XCTAssertEqual(fx.read("P/Ready/b.md"), "b")
        XCTAssertEqual(records, [])
    }

    /// Killed after the rewrite, before the older files went: they go,
    /// a link among them removed as a link, its target untouched.
    func testAMoveCutBeforeTheCleanupRemovesLinksAsLinks() throws {
        try open(
            """
            outside.json = keep
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/3-a.json = {"name":"a.md","from":"Draft/a.md","deleted":3}
            P/.carrel/.project.json.previous -> ../../outside.json
            P/Trash/a.md = a
            """)
        XCTAssertEqual(mkfifo(fx.path + "/P/.carrel/lock", 0o644), 0)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(fx.listing("P/.carrel", includeHidden: true), ["project.json", "trash/", "trash/3-a.json"])
        XCTAssertEqual(fx.read("outside.json"), "keep")
    }
}
