import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// A snapshot's write is noted in the device's state folder from before
/// its temporary exists until its rename is durable, so the next open
/// removes what a crash left from the notes alone, and never walks the
/// snapshot folders for it.
final class SnapshotWritesTests: XCTestCase {
    var fx: Fixture!
    var home: Fixture!
    var ws: Workspace!
    let draft = "P/.carrel/snapshots/Draft/a.md"

    override func setUpWithError() throws {
        home = try Fixture("state/")
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        ws = nil
        fx = nil
        home = nil
    }

    var notes: String { home.path + "/state/carrel/snapshot-writes" }

    func library(_ extra: String = "") throws {
        fx = try Fixture("P/.carrel/project.json = {\"type\":\"shortStory\"}\nP/Draft/a.md = a\n" + extra)
    }

    func open() {
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func note(_ name: String, folder: String, temporary: String) {
        XCTAssertEqual(Fixture.sh("mkdir -p '\(notes)'"), 0)
        let json = "{\"folder\":\"\(folder)\",\"temporary\":\"\(temporary)\"}"
        FileManager.default.createFile(atPath: notes + "/" + name, contents: Data(json.utf8))
    }

    func notesLeft() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: notes)) ?? []).sorted() }

    func testASnapshotIsNotedWhileItIsWrittenAndTheNoteGoesAfter() throws {
        try library()
        open()
        let target = try ws.locate(fx.bytes("P/Draft/a.md"), uri: "P/Draft/a.md")
        XCTAssertEqual(try ws.takeSnapshot(target, title: nil).count, 1)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: notes, isDirectory: &isFolder), "the write was noted")
        XCTAssertTrue(isFolder.boolValue)
        XCTAssertEqual(notesLeft(), [], "and its note removed after the rename")
    }

    func testANotedTemporaryOfAGoneProcessGoesAtOpenWithItsNote() throws {
        let pid = try deadPid()
        let temporary = ".carrel-snapshot-\(pid)-42"
        try library("\(draft)/\(temporary) = half a snap\n\(draft)/2026-11-28T010203Z dev-1 1w.md = a\n")
        note("\(pid)-1.json", folder: fx.path + "/" + draft, temporary: temporary)
        open()
        XCTAssertFalse(fx.exists("\(draft)/\(temporary)"))
        XCTAssertEqual(fx.read("\(draft)/2026-11-28T010203Z dev-1 1w.md"), "a")
        XCTAssertEqual(notesLeft(), [])
    }

    func testTheNoteAWriteMakesNamesItsTemporaryForTheNextOpen() throws {
        try library()
        open()
        let target = try ws.locate(fx.bytes("P/Draft/a.md"), uri: "P/Draft/a.md")
        _ = try ws.takeSnapshot(target, title: nil)
        // As a write cut after its temporary was made: this process's pid,
        // which a later open takes for an older process's that had it.
        let project = try Directory.open(root: fx.bytes(), components: [Array("P".utf8)])
        let folder = try XCTUnwrap(
            try SnapshotFolder.open(project: project, [Array("Draft".utf8), Array("a.md".utf8)], create: false))
        let temporary = ".carrel-snapshot-\(getpid())-77"
        let name = try XCTUnwrap(SnapshotWrites.begin(folder: folder.path, temporary: Array(temporary.utf8)))
        XCTAssertEqual(notesLeft(), [String(decoding: name, as: UTF8.self)])
        FileManager.default.createFile(atPath: fx.path + "/\(draft)/\(temporary)", contents: Data("half".utf8))
        open()
        XCTAssertFalse(fx.exists("\(draft)/\(temporary)"))
        XCTAssertEqual(notesLeft(), [])
    }

    func testANoteWhoseTemporaryIsGoneIsDropped() throws {
        let pid = try deadPid()
        try library("\(draft)/2026-11-28T010203Z dev-1 1w.md = a\n")
        // Cut before the temporary was made, or after its rename.
        note("\(pid)-1.json", folder: fx.path + "/" + draft, temporary: ".carrel-snapshot-\(pid)-42")
        note(
            "\(pid)-2.json", folder: fx.path + "/P/.carrel/snapshots/Draft/never",
            temporary: ".carrel-snapshot-\(pid)-43")
        open()
        XCTAssertEqual(notesLeft(), [])
        XCTAssertEqual(fx.read("\(draft)/2026-11-28T010203Z dev-1 1w.md"), "a")
    }

    func testAWriteUnderWayIsLeftToItsProcess() throws {
        // Pid 1 always runs: its note is a write under way.
        try library("\(draft)/.carrel-snapshot-1-42 = being written\n")
        note("1-1.json", folder: fx.path + "/" + draft, temporary: ".carrel-snapshot-1-42")
        open()
        XCTAssertEqual(fx.read("\(draft)/.carrel-snapshot-1-42"), "being written")
        XCTAssertEqual(notesLeft(), ["1-1.json"])
    }

    func testAnOpenLooksOnlyAtTheNotes() throws {
        let pid = try deadPid()
        let unnoted = "\(draft)/.carrel-snapshot-\(pid)-7"
        try library("\(unnoted) = no note names me\n")
        XCTAssertEqual(Fixture.sh("touch -d '3 hours ago' '\(fx.path)/\(unnoted)'"), 0)
        open()
        XCTAssertEqual(fx.read(unnoted), "no note names me", "left for the sweep after the first view")
    }

    func testANoteOfAnotherLibraryWaitsForItsOpenAndOneOfNothingIsDropped() throws {
        let pid = try deadPid()
        let other = try Fixture("O/.carrel/snapshots/x.md/.carrel-snapshot-\(pid)-5 = other's\n")
        try library()
        note("\(pid)-1.json", folder: other.path + "/O/.carrel/snapshots/x.md", temporary: ".carrel-snapshot-\(pid)-5")
        note(
            "\(pid)-2.json", folder: home.path + "/gone/.carrel/snapshots/x.md", temporary: ".carrel-snapshot-\(pid)-6")
        open()
        XCTAssertEqual(notesLeft(), ["\(pid)-1.json"])
        XCTAssertEqual(other.read("O/.carrel/snapshots/x.md/.carrel-snapshot-\(pid)-5"), "other's")
    }

    func testHostileNotesAreDroppedAndNothingOutsideIsTouched() throws {
        let pid = try deadPid()
        let outside = try Fixture(
            "Out/.carrel-snapshot-\(pid)-1 = outside\nOut/kept.json = {\"folder\":\"/\",\"temporary\":\".carrel-snapshot-\(pid)-2\"}\n"
        )
        try library("\(draft)/.carrel-snapshot-\(pid)-3/inside = a folder, not a temporary\n")
        // A path out of the project through `..`, and one through a link.
        note(
            "\(pid)-1.json", folder: fx.path + "/P/.carrel/snapshots/../../../" + outside.path,
            temporary: ".carrel-snapshot-\(pid)-1")
        XCTAssertEqual(Fixture.sh("ln -s '\(outside.path)/Out' '\(fx.path)/P/.carrel/snapshots/Draft/linked'"), 0)
        note(
            "\(pid)-2.json", folder: fx.path + "/P/.carrel/snapshots/Draft/linked",
            temporary: ".carrel-snapshot-\(pid)-1")
        // A temporary that is a folder; a name that is no temporary of this pid.
        note("\(pid)-3.json", folder: fx.path + "/" + draft, temporary: ".carrel-snapshot-\(pid)-3")
        note("\(pid)-4.json", folder: fx.path + "/" + draft, temporary: "a.md")
        // Not JSON, too large, a link to a file outside, a pipe, a folder, a name of no note.
        FileManager.default.createFile(atPath: notes + "/\(pid)-5.json", contents: Data("{\"folder".utf8))
        FileManager.default.createFile(atPath: notes + "/\(pid)-6.json", contents: Data(count: 64 << 10))
        XCTAssertEqual(Fixture.sh("ln -s '\(outside.path)/Out/kept.json' '\(notes)/\(pid)-7.json'"), 0)
        XCTAssertEqual(Fixture.sh("mkfifo '\(notes)/\(pid)-8.json'"), 0)
        XCTAssertEqual(Fixture.sh("mkdir '\(notes)/\(pid)-9.json'"), 0)
        FileManager.default.createFile(atPath: notes + "/notes.txt", contents: Data("x".utf8))
        open()
        XCTAssertEqual(outside.read("Out/.carrel-snapshot-\(pid)-1"), "outside")
        XCTAssertEqual(outside.read("Out/kept.json"), "{\"folder\":\"/\",\"temporary\":\".carrel-snapshot-\(pid)-2\"}")
        XCTAssertEqual(fx.read("\(draft)/.carrel-snapshot-\(pid)-3/inside"), "a folder, not a temporary")
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
        XCTAssertEqual(notesLeft(), ["\(pid)-9.json"], "every note dropped but a folder, never removed as a file")
    }
}
