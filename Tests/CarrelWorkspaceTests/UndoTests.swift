import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// Undo and redo of binder operations: each operation comes back, and goes
/// again, through the journal in the state folder; a step the disk no
/// longer matches is refused and changes nothing.
final class UndoTests: XCTestCase {
    var fx: Fixture!
    var state: Fixture!
    var ws: Workspace!

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        ws = nil
        fx = nil
        state = nil
    }

    func open(_ tree: String = UndoTests.tree) throws {
        state = try Fixture()
        setenv("XDG_STATE_HOME", state.path, 1)
        fx = try Fixture(tree)
        reopen()
    }

    /// A new workspace, as after a restart: only the journal remembers.
    func reopen() {
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Manuscript/Scenes/Rain.md = rain
        P/Manuscript/Chapters/
        P/Notes/
        """

    func at(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    @discardableResult
    func undo() throws -> String? { try ws.undo(in: nil).report?.text(.english) }
    @discardableResult
    func redo() throws -> String? { try ws.redo(in: nil).report?.text(.english) }

    func refusal(_ body: () throws -> Void) -> Failure? {
        do {
            try body()
            return nil
        } catch { return error as? Failure }
    }

    func testRenameComesBackAndGoesAgainAcrossARestart() throws {
        try open()
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        reopen()
        XCTAssertEqual(try undo(), "Renamed “Storm.md” back to “Rain.md”.")
        XCTAssertEqual(fx.listing("P/Manuscript/Scenes"), ["Rain.md"])
        XCTAssertEqual(try redo(), "Renamed “Rain.md” to “Storm.md” again.")
        XCTAssertEqual(fx.listing("P/Manuscript/Scenes"), ["Storm.md"])
        reopen()
        XCTAssertEqual(try undo(), "Renamed “Storm.md” back to “Rain.md”.")
        XCTAssertEqual(fx.read("P/Manuscript/Scenes/Rain.md"), "rain")
    }

    func testMoveComesBackToItsFolder() throws {
        try open()
        ws.noteForUndo(
            .move, try ws.move(try at("P/Manuscript/Scenes/Rain.md"), to: try at("P/Manuscript/Chapters")))
        XCTAssertEqual(try undo(), "Moved “Rain.md” back to “Scenes”.")
        XCTAssertEqual(fx.listing("P/Manuscript"), ["Chapters/", "Scenes/", "Scenes/Rain.md"])
        XCTAssertEqual(try redo(), "Moved “Rain.md” to “Chapters” again.")
        XCTAssertEqual(fx.listing("P/Manuscript"), ["Chapters/", "Chapters/Rain.md", "Scenes/"])
    }

    func testDeleteComesBackFromTheTrashAndRestoreGoesBackIn() throws {
        try open()
        ws.noteForUndo(.delete, try ws.delete(try at("P/Manuscript/Scenes/Rain.md")))
        XCTAssertTrue(fx.exists("P/Trash/Rain.md"))
        XCTAssertEqual(try undo(), "Put “Rain.md” back from the Trash.")
        XCTAssertEqual(fx.read("P/Manuscript/Scenes/Rain.md"), "rain")
        XCTAssertEqual(try redo(), "Moved “Rain.md” to the Trash again.")
        XCTAssertTrue(fx.exists("P/Trash/Rain.md"))

        ws.noteForUndo(.restore, try ws.restore(try at("P/Trash/Rain.md")))
        XCTAssertEqual(try undo(), "Put “Rain.md” back in the Trash.")
        XCTAssertTrue(fx.exists("P/Trash/Rain.md"))
        XCTAssertEqual(try redo(), "Restored “Rain.md” to “Scenes” again.")
        XCTAssertEqual(fx.read("P/Manuscript/Scenes/Rain.md"), "rain")
    }

    func testANewItemOrACopyGoesToTheTrashNeverAway() throws {
        try open()
        ws.noteForUndo(.newItem, try ws.newFile(in: try at("P/Notes"), name: "Idea"))
        ws.noteForUndo(.newItem, try ws.newFolder(in: try at("P/Notes"), name: "Places"))
        ws.noteForUndo(.duplicate, try ws.duplicate(try at("P/Manuscript/Scenes/Rain.md")))
        XCTAssertEqual(try undo(), "Moved the new “Rain copy.md” to the Trash; Redo brings it back.")
        XCTAssertEqual(try undo(), "Moved the new “Places” to the Trash; Redo brings it back.")
        XCTAssertEqual(try undo(), "Moved the new “Idea.md” to the Trash; Redo brings it back.")
        XCTAssertEqual(fx.listing("P/Trash"), ["Idea.md", "Places/", "Rain copy.md"])
        XCTAssertEqual(fx.listing("P/Notes"), [])
        XCTAssertEqual(try redo(), "Put “Idea.md” back from the Trash.")
        XCTAssertEqual(fx.listing("P/Notes"), ["Idea.md"])
        XCTAssertEqual(try undo(), "Moved the new “Idea.md” to the Trash; Redo brings it back.")
    }

    func testNothingToUndoOrRedoIsSaidPlainly() throws {
        try open()
        XCTAssertEqual(try undo(), "Nothing to undo.")
        XCTAssertEqual(try redo(), "Nothing to redo.")
    }

    func testANewOperationClearsRedo() throws {
        try open()
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        try undo()
        ws.noteForUndo(.newItem, try ws.newFile(in: try at("P/Notes"), name: "Idea"))
        XCTAssertEqual(try redo(), "Nothing to redo.")
        XCTAssertEqual(fx.listing("P/Manuscript/Scenes"), ["Rain.md"])
    }

    func testAnItemEditedSinceIsRefusedAndNothingChanges() throws {
        try open()
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        try "rain, rewritten elsewhere".write(
            to: fx.url("P/Manuscript/Scenes/Storm.md"), atomically: false, encoding: .utf8)
        XCTAssertEqual(
            refusal { try undo() }?.message,
            .undoItemChanged(path: "P/Manuscript/Scenes/Storm.md"))
        XCTAssertEqual(fx.listing("P/Manuscript/Scenes"), ["Storm.md"])
        XCTAssertEqual(try undo(), "Nothing to undo.", "the step that can never be taken back is dropped")
    }

    func testAnItemReplacedByAnotherFileOfTheSameNameIsRefused() throws {
        try open()
        ws.noteForUndo(
            .move, try ws.move(try at("P/Manuscript/Scenes/Rain.md"), to: try at("P/Manuscript/Chapters")))
        let path = fx.path + "/P/Manuscript/Chapters/Rain.md"
        try FileManager.default.removeItem(atPath: path)
        try "rain".write(toFile: path, atomically: false, encoding: .utf8)
        reopen()
        XCTAssertEqual(refusal { try undo() }?.reason, .conflict)
        XCTAssertEqual(fx.listing("P/Manuscript"), ["Chapters/", "Chapters/Rain.md", "Scenes/"])
    }

    /// Undo promises the place an item was deleted from; a Trash item
    /// whose record is gone (another machine restored and deleted it, a
    /// hand) can only be restored by guess, which undo does not do.
    func testATrashItemThatLostItsRecordIsRefusedAndTheStepDropped() throws {
        try open()
        ws.noteForUndo(.delete, try ws.delete(try at("P/Manuscript/Scenes/Rain.md")))
        let records = fx.path + "/P/.carrel/trash"
        for name in try FileManager.default.contentsOfDirectory(atPath: records) {
            try FileManager.default.removeItem(atPath: records + "/" + name)
        }
        reopen()
        XCTAssertEqual(refusal { try undo() }?.message, .undoTrashRecordChanged(name: "Rain.md"))
        XCTAssertTrue(fx.exists("P/Trash/Rain.md"))
        XCTAssertEqual(try undo(), "Nothing to undo.")
    }

    func testAnItemMovedAwaySinceIsRefused() throws {
        try open()
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        try FileManager.default.moveItem(
            atPath: fx.path + "/P/Manuscript/Scenes/Storm.md", toPath: fx.path + "/P/Notes/Storm.md")
        reopen()
        XCTAssertEqual(refusal { try undo() }?.message, .undoItemGone(path: "P/Manuscript/Scenes/Storm.md"))
        XCTAssertEqual(fx.listing("P/Notes"), ["Storm.md"])
    }

    func testATakenOriginalNameKeepsTheStepAndChangesNothing() throws {
        try open()
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        _ = try ws.newFile(in: try at("P/Manuscript/Scenes"), name: "Rain")
        XCTAssertEqual(refusal { try undo() }?.reason, .nameTaken)
        XCTAssertEqual(fx.listing("P/Manuscript/Scenes"), ["Rain.md", "Storm.md"])
        try FileManager.default.removeItem(atPath: fx.path + "/P/Manuscript/Scenes/Rain.md")
        reopen()
        XCTAssertEqual(try undo(), "Renamed “Storm.md” back to “Rain.md”.", "kept, to try again once the way is clear")
    }

    // MARK: Settings

    func testASortComesBackWithTheFoldersOwnSorts() throws {
        try open()
        let draft = try at("P/Manuscript/Scenes")
        try ws.journalingSetting(.sort, draft) { () throws(Failure) -> Outcome in
            try ws.setSort(draft, SortSetting(by: .modified, descending: true))
        }
        let project = try at("P")
        try ws.journalingSetting(.sort, project) { () throws(Failure) -> Outcome in
            try ws.setSort(project, SortSetting(by: .created))
        }
        XCTAssertFalse(fx.read("P/.carrel/project.json")!.contains("\"modified\""), "the project's sort replaced it")
        XCTAssertEqual(try undo(), "Sorted “P” as before.")
        reopen()
        XCTAssertEqual(ws.libraries[0].projects.values.first?.metadata.folderSorts["Manuscript/Scenes"]?.by, .modified)
        XCTAssertEqual(try undo(), "Sorted “Scenes” as before.")
        reopen()
        XCTAssertNil(ws.libraries[0].projects.values.first?.metadata.folderSorts["Manuscript/Scenes"])
        XCTAssertEqual(try redo(), "Sorted “Scenes” again.")
        reopen()
        XCTAssertEqual(ws.libraries[0].projects.values.first?.metadata.folderSorts["Manuscript/Scenes"]?.by, .modified)
    }

    func testAReorderComesBackWithItsOrderAndSort() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Notes/a.md = a
            P/Notes/b.md = b
            P/Notes/c.md = c
            """)
        let c = try at("P/Notes/c.md")
        let a = try at("P/Notes/a.md")
        try ws.journalingSetting(.order, c) { () throws(Failure) -> Outcome in
            try ws.reorder(c, relativeTo: a, after: false)
        }
        XCTAssertEqual(fx.read("P/Notes/.carrel-order"), "c.md\na.md\nb.md\n")
        XCTAssertEqual(try undo(), "Put “Notes” back in its earlier order.")
        reopen()
        let notes = try XCTUnwrap(ws.libraries[0].projects.values.first)
        XCTAssertNotEqual(notes.metadata.folderSorts["Notes"]?.by, .manual, "no longer in binder order")
        XCTAssertEqual(try redo(), "Reordered “Notes” again.")
        XCTAssertEqual(fx.read("P/Notes/.carrel-order"), "c.md\na.md\nb.md\n")
    }

    /// A folder in binder order with no order file yet shows name order;
    /// undoing its first reorder shows that order again, in an order file
    /// that lists it (never an empty one), and redo still applies.
    func testUndoingAFirstReorderInBinderOrderWritesTheOrderShownBefore() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"novel","folderSorts":{"Chapters":{"by":"manual"}}}
            P/Chapters/a.md = a
            P/Chapters/b.md = b
            P/Chapters/c.md = c
            """)
        XCTAssertFalse(fx.exists("P/Chapters/.carrel-order"))
        let c = try at("P/Chapters/c.md")
        let a = try at("P/Chapters/a.md")
        try ws.journalingSetting(.order, c) { () throws(Failure) -> Outcome in
            try ws.reorder(c, relativeTo: a, after: false)
        }
        XCTAssertEqual(fx.read("P/Chapters/.carrel-order"), "c.md\na.md\nb.md\n")
        XCTAssertEqual(try undo(), "Put “Chapters” back in its earlier order.")
        XCTAssertEqual(fx.read("P/Chapters/.carrel-order"), "a.md\nb.md\nc.md\n")
        XCTAssertEqual(try redo(), "Reordered “Chapters” again.")
        XCTAssertEqual(fx.read("P/Chapters/.carrel-order"), "c.md\na.md\nb.md\n")
    }

    func testATargetAndAskingBeforeDeletingComeBack() throws {
        try open()
        let rain = try at("P/Manuscript/Scenes/Rain.md")
        try ws.journalingSetting(.target, rain) { () throws(Failure) -> Outcome in try ws.setTarget(rain, .words, 500) }
        try ws.journalingSetting(.target, rain) { () throws(Failure) -> Outcome in try ws.setTarget(rain, .words, 900) }
        let project = try at("P")
        try ws.journalingSetting(.confirmDelete, project) { () throws(Failure) -> Outcome in
            try ws.setConfirmDelete(project, false)
        }
        XCTAssertEqual(try undo(), "Deleting in “P” now asks first.")
        XCTAssertEqual(try undo(), "Put back the word target of “Rain.md”.")
        reopen()
        XCTAssertEqual(ws.libraries[0].projects.values.first?.metadata.targets["Manuscript/Scenes/Rain.md"], 500)
        XCTAssertEqual(try redo(), "Set the word target of “Rain.md” again.")
        XCTAssertEqual(try redo(), "Deleting in “P” no longer asks first.")
        reopen()
        XCTAssertEqual(ws.libraries[0].projects.values.first?.metadata.targets["Manuscript/Scenes/Rain.md"], 900)
        XCTAssertEqual(ws.libraries[0].projects.values.first?.metadata.confirmDelete, false)
    }

    func testASettingChangedSinceIsRefusedAndLeftAlone() throws {
        try open()
        let rain = try at("P/Manuscript/Scenes/Rain.md")
        try ws.journalingSetting(.target, rain) { () throws(Failure) -> Outcome in try ws.setTarget(rain, .words, 500) }
        // Another machine's change, arriving through sync: not journaled here.
        _ = try ws.setTarget(rain, .words, 700)
        XCTAssertEqual(refusal { try undo() }?.message, .undoSettingChanged(path: "P/Manuscript/Scenes/Rain.md"))
        reopen()
        XCTAssertEqual(ws.libraries[0].projects.values.first?.metadata.targets["Manuscript/Scenes/Rain.md"], 700)
    }

    func testAForgedSettingValueIsRefusedBeforeAnythingIsWritten() throws {
        try open()
        let scenes = try at("P/Manuscript/Scenes")
        let forgeries = [("folder:../x", "name"), ("sort", "sideways"), ("folder:Notes", "name upwards")]
        for (n, (key, value)) in forgeries.enumerated() {
            XCTAssertTrue(Journal.save(Journal(), for: fx.bytes()))
            try ws.journalingSetting(.sort, scenes) { () throws(Failure) -> Outcome in
                try ws.setSort(scenes, SortSetting(by: n % 2 == 0 ? .modified : .created))
            }
            let projectBefore = fx.read("P/.carrel/project.json")
            // The forged value sits in `before`, which undo would write.
            var journal = Journal.load(for: fx.bytes()).0
            journal.undo[0].before?[key] = value
            XCTAssertTrue(Journal.save(journal, for: fx.bytes()))
            XCTAssertEqual(refusal { try undo() }?.message, .undoStepUnusable(path: "P/Manuscript/Scenes"), key)
            XCTAssertEqual(fx.read("P/.carrel/project.json"), projectBefore, key)
            XCTAssertEqual(try undo(), "Nothing to undo.", "the unusable step was dropped")
        }
    }

    // MARK: The journal file, untrusted

    func journalPath() throws -> String {
        String(decoding: try XCTUnwrap(Journal.path(for: fx.bytes())), as: UTF8.self)
    }

    func testAForgedStepOutsideTheLibraryIsRefused() throws {
        try open()
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        let path = try journalPath()
        for forged in ["../outside.md", "/etc/passwd", "P/../../x.md", ""] {
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text = text.replacingOccurrences(of: "\"P/Manuscript/Scenes/Storm.md\"", with: "\"\(forged)\"")
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            reopen()
            XCTAssertEqual(refusal { try undo() }?.reason, .outsideWorkspace, forged)
            XCTAssertEqual(fx.listing("P/Manuscript/Scenes"), ["Storm.md"], forged)
            ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Storm.md"), to: "Storm"))
            ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Storm.md"), to: "Rain"))
            ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        }
    }

    func testAStepThroughALinkIsRefused() throws {
        try open()
        try FileManager.default.createSymbolicLink(
            atPath: fx.path + "/P/Notes/Away", withDestinationPath: fx.path + "/P/Manuscript")
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        let path = try journalPath()
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "\"P/Manuscript/Scenes/Storm.md\"", with: "\"P/Notes/Away/Scenes/Storm.md\"")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        reopen()
        XCTAssertEqual(refusal { try undo() }?.reason, .notFound)
        XCTAssertEqual(fx.listing("P/Manuscript/Scenes"), ["Storm.md"])
    }

    func testACorruptHugeOrNewerJournalIsSetAsideAndANewOneBegun() throws {
        try open()
        let path = try journalPath()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let huge = "{\"version\":1,\"undo\":[],\"redo\":[],\"pad\":\"" + String(repeating: "x", count: 2 << 20) + "\"}"
        let cases: [(String, String)] = [
            ("{not json", "could not be read"),
            (huge, "could not be read"),
            ("{\"version\":2,\"undo\":[],\"redo\":[]}", "newer Carrel (version 2)"),
            (
                "{\"version\":1,\"undo\":[{\"op\":\"renamed\",\"path\":\"P/a.md\",\"device\":-1}],\"redo\":[]}",
                "could not be read"
            ),
        ]
        for (text, said) in cases {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            reopen()
            XCTAssertEqual(try undo(), "Nothing to undo.")
            let notice = ws.notices.map { $0.text(.english) }.joined()
            XCTAssertTrue(notice.contains(said), notice)
            ws.notices.removeAll()
            let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                $0.contains(".set-aside-")
            }
            XCTAssertFalse(aside.isEmpty, "set aside, never deleted")
            for name in aside { try FileManager.default.removeItem(atPath: folder + "/" + name) }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        reopen()
        XCTAssertEqual(try undo(), "Nothing to undo.", "a folder where the journal goes is set aside too")
    }

    /// Another process (the CLI beside the editors' server) writing the
    /// journal holds its lock; a step journaled meanwhile waits, then adds
    /// to what that process wrote instead of writing over it.
    func testAStepWaitsForAnotherProcesssJournalWrite() throws {
        try open()
        let outcome = try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm")
        let lockPath = String(decoding: try XCTUnwrap(Journal.lockPath(for: fx.bytes())), as: UTF8.self)
        try FileManager.default.createDirectory(
            atPath: (lockPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let lock = Glibc.open(lockPath, O_RDONLY | O_CREAT, 0o600)
        XCTAssertEqual(flock(lock, LOCK_EX), 0)
        let done = DispatchSemaphore(value: 0)
        // Handed to one thread while this one only waits for it.
        nonisolated(unsafe) let workspace = ws!
        nonisolated(unsafe) let renamed = outcome
        Thread {
            workspace.noteForUndo(.rename, renamed)
            done.signal()
        }.start()
        // Ample for the step to be written if it did not wait; it must wait.
        XCTAssertEqual(done.wait(timeout: .now() + 0.3), .timedOut, "the step waited for the lock")
        let print = Fingerprint(device: 1, inode: 2, isFolder: false, size: 3, modifiedMs: 4)
        let theirs = JournalEntry(.renamed, path: "P/Notes/theirs.md", origin: "P/Notes/old.md", fingerprint: print)
        XCTAssertTrue(Journal.save(Journal(undo: [theirs]), for: fx.bytes()))
        close(lock)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(
            Journal.load(for: fx.bytes()).0.undo.map(\.path), ["P/Notes/theirs.md", "P/Manuscript/Scenes/Storm.md"])
    }

    func testTheJournalIsBoundedAndKeepsTheNewest() throws {
        try open()
        let print = Fingerprint(device: 1, inode: 2, isFolder: false, size: 3, modifiedMs: 4)
        let old = (1...Journal.maxEntries).map {
            JournalEntry(.renamed, path: "P/old \($0).md", origin: "P/older \($0).md", fingerprint: print)
        }
        XCTAssertTrue(Journal.save(Journal(undo: old), for: fx.bytes()))
        ws.noteForUndo(.rename, try ws.rename(try at("P/Manuscript/Scenes/Rain.md"), to: "Storm"))
        let journal = Journal.load(for: fx.bytes()).0
        XCTAssertEqual(journal.undo.count, Journal.maxEntries)
        XCTAssertEqual(journal.undo.first?.path, "P/old 2.md", "the oldest dropped")
        XCTAssertEqual(journal.undo.last?.path, "P/Manuscript/Scenes/Storm.md")
        var long = journal
        let name = String(repeating: "n", count: 4000)
        long.undo = long.undo.map {
            var e = $0
            e.path = name
            e.origin = name
            return e
        }
        XCTAssertLessThanOrEqual(long.encoded().count, Journal.maxBytes, "the oldest go first past the size")
        XCTAssertEqual(try Journal.decode(long.encoded()).undo.last, long.undo.last)
    }
}
