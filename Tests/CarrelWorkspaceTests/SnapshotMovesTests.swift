import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// Snapshots follow their file: through Carrel's renames and moves (merging
/// with snapshots already at the destination), into the Trash and back, and
/// go only when it is deleted for good; a move a crash cut between the
/// file and its snapshots is finished at the next open.
final class SnapshotMovesTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!
    let snaps = "P/.carrel/snapshots"

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = spring
            P/Draft/Cycle/a.md = a
            P/Ready/
            Q/.carrel/project.json = {"type":"poetry"}
            Q/Draft/
            """)
        reopen()
    }

    override func tearDown() {
        ws = nil
        fx = nil
    }

    func reopen() {
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func t(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    func snapshot(_ relative: String) throws -> String {
        try ws.takeSnapshot(try t(relative), title: nil)[0].name.fileName
    }

    func names(_ relative: String) throws -> [String] {
        try ws.snapshots(of: try t(relative)).list.map(\.name.fileName).sorted()
    }

    func testRenamesAndMovesOfFilesAndFoldersCarryThem() throws {
        let spring = try snapshot("P/Draft/Spring.md")
        let a = try snapshot("P/Draft/Cycle/a.md")
        _ = try ws.rename(try t("P/Draft/Spring.md"), to: "Summer.md")
        XCTAssertEqual(try names("P/Draft/Summer.md"), [spring])
        XCTAssertFalse(fx.exists("\(snaps)/Draft/Spring.md"))
        _ = try ws.rename(try t("P/Draft/Cycle"), to: "Seasons")
        XCTAssertEqual(try names("P/Draft/Seasons/a.md"), [a])
        _ = try ws.move(try t("P/Draft/Seasons"), to: try t("P/Ready"))
        XCTAssertEqual(try names("P/Ready/Seasons/a.md"), [a])
        _ = try ws.move(try t("P/Draft/Summer.md"), to: try t("Q/Draft"))
        XCTAssertEqual(try names("Q/Draft/Summer.md"), [spring], "into another project's .carrel")
        XCTAssertTrue(fx.exists("Q/.carrel/snapshots/Draft/Summer.md/\(spring)"))
    }

    func testARenameToAnotherExtensionKeepsThemListedAndUsable() throws {
        let spring = try snapshot("P/Draft/Spring.md")
        _ = try ws.rename(try t("P/Draft/Spring.md"), to: "Spring.txt")
        XCTAssertEqual(try names("P/Draft/Spring.txt"), [spring])
        XCTAssertEqual(try ws.snapshots(of: try t("P/Draft/Spring.txt")).skipped.count, 0)
        _ = try ws.rename(try t("P/Draft/Spring.txt"), to: "Spring.fountain")
        XCTAssertEqual(try names("P/Draft/Spring.fountain"), [spring])
        try "rewritten".write(toFile: fx.path + "/P/Draft/Spring.fountain", atomically: false, encoding: .utf8)
        _ = try ws.rollBack(try t("P/Draft/Spring.fountain"), to: spring)
        XCTAssertEqual(fx.read("P/Draft/Spring.fountain"), "spring")
        XCTAssertTrue(try names("P/Draft/Spring.fountain").contains(where: { $0.hasSuffix(".fountain") }))
    }

    func testAMoveWhereSnapshotsOfTheNameAlreadyAreMergesThem() throws {
        let old = try snapshot("P/Draft/Spring.md")
        _ = try ws.move(try t("P/Draft/Spring.md"), to: try t("P/Ready"))
        try "a new spring".write(toFile: fx.path + "/P/Draft/Spring.md", atomically: false, encoding: .utf8)
        reopen()
        let new = try snapshot("P/Draft/Spring.md")
        _ = try ws.rename(try t("P/Ready/Spring.md"), to: "Old.md")
        _ = try ws.move(try t("P/Draft/Spring.md"), to: try t("P/Ready"))
        _ = try ws.rename(try t("P/Ready/Old.md"), to: "Older.md")
        _ = try ws.rename(try t("P/Ready/Spring.md"), to: "Older2.md")
        XCTAssertEqual(try names("P/Ready/Older.md"), [old])
        XCTAssertEqual(try names("P/Ready/Older2.md"), [new])
        // Two folders of snapshots for one name, as two files of one name
        // on two machines leave them: each keeps all its snapshots.
        try FileManager.default.createDirectory(
            atPath: fx.path + "/\(snaps)/Ready/Merged.md", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fx.path + "/\(snaps)/Ready/Older.md/\(old)", toPath: fx.path + "/\(snaps)/Ready/Merged.md/\(old)")
        try FileManager.default.removeItem(atPath: fx.path + "/\(snaps)/Ready/Older.md/\(old)")
        _ = try ws.rename(try t("P/Ready/Older2.md"), to: "Merged.md")
        XCTAssertEqual(try names("P/Ready/Merged.md"), [new, old].sorted())
    }

    func testToTheTrashAndBackAndGoneOnlyWhenDeletedForGood() throws {
        let spring = try snapshot("P/Draft/Spring.md")
        _ = try ws.delete(try t("P/Draft/Spring.md"))
        XCTAssertEqual(try names("P/Trash/Spring.md"), [spring])
        _ = try ws.restore(try t("P/Trash/Spring.md"))
        XCTAssertEqual(try names("P/Draft/Spring.md"), [spring])
        _ = try ws.delete(try t("P/Draft/Spring.md"))
        _ = try ws.delete(try t("P/Trash/Spring.md"))
        XCTAssertFalse(fx.exists("\(snaps)/Trash/Spring.md"), "deleted for good with its file")
        let a = try snapshot("P/Draft/Cycle/a.md")
        _ = try ws.delete(try t("P/Draft/Cycle"))
        XCTAssertEqual(try names("P/Trash/Cycle/a.md"), [a])
        _ = try ws.emptyTrash(try t("P"))
        XCTAssertFalse(fx.exists("\(snaps)/Trash/Cycle"), "emptying the Trash takes them")
    }

    func testAMoveACrashCutShortIsFinishedAtOpen() throws {
        let spring = try snapshot("P/Draft/Spring.md")
        // The crash came after the note and the file's rename, before the snapshots moved.
        let note = SnapshotMoves.begin(
            SnapshotMoves.Move(
                fromProject: fx.bytes("P"), from: ["Draft", "Spring.md"], toProject: fx.bytes("P"),
                to: ["Ready", "Spring.md"]), pid: try deadPid())
        XCTAssertNotNil(note)
        try FileManager.default.moveItem(
            atPath: fx.path + "/P/Draft/Spring.md", toPath: fx.path + "/P/Ready/Spring.md")
        reopen()
        XCTAssertEqual(try names("P/Ready/Spring.md"), [spring])
        XCTAssertFalse(
            SnapshotMoves.pending().contains { $0.name == note }, "the note goes once the snapshots followed")
    }

    func testANoteOfAMoveThatNeverHappenedIsDropped() throws {
        let a = try snapshot("P/Draft/Cycle/a.md")
        let note = SnapshotMoves.begin(
            SnapshotMoves.Move(
                fromProject: fx.bytes("P"), from: ["Draft", "Cycle", "a.md"], toProject: fx.bytes("P"),
                to: ["Ready", "a.md"]), pid: try deadPid())
        reopen()
        XCTAssertEqual(try names("P/Draft/Cycle/a.md"), [a], "the file never moved, nor do its snapshots")
        XCTAssertFalse(SnapshotMoves.pending().contains { $0.name == note })
    }

    func testANoteOfAMoveStillUnderWayIsLeftToItsProcess() throws {
        _ = try snapshot("P/Draft/Spring.md")
        let note = SnapshotMoves.begin(
            SnapshotMoves.Move(
                fromProject: fx.bytes("P"), from: ["Draft", "Spring.md"], toProject: fx.bytes("P"),
                to: ["Ready", "Spring.md"]))
        try FileManager.default.moveItem(
            atPath: fx.path + "/P/Draft/Spring.md", toPath: fx.path + "/P/Ready/Spring.md")
        reopen()
        XCTAssertTrue(fx.exists("\(snaps)/Draft/Spring.md"), "this process is moving them")
        SnapshotMoves.done(try XCTUnwrap(note))
    }

    func testARefusedMoveLeavesNoNoteBehind() throws {
        _ = try snapshot("P/Draft/Spring.md")
        try "taken".write(toFile: fx.path + "/P/Ready/Spring.md", atomically: false, encoding: .utf8)
        // Every note, this process's too.
        let notes = { () -> [String] in
            let folder = String(decoding: StateFiles.directory() ?? [], as: UTF8.self) + "/snapshot-moves"
            return (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        }
        let before = notes()
        XCTAssertThrowsError(try ws.move(try t("P/Draft/Spring.md"), to: try t("P/Ready")))
        XCTAssertEqual(notes(), before)
    }
}
