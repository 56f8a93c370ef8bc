import CarrelModel
import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

@testable import CarrelWorkspace

/// Every state a stop can leave while a move's link updates are written,
/// planted as the record and files a stopped Carrel leaves, then opened:
/// each file ends with the old links or the new, and the record is gone.
/// Forged records are refused and change nothing.
final class LinkUpdateRecoveryTests: StateFolderTestCase {
    var fx: Fixture!

    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada Lovelace.md = # Ada
        P/Draft/One.md = See [Ada](../Characters/Ada.md).
        P/Draft/Two.md = And [her](../Characters/Ada.md) again.
        """
    static let oneAfter = "See [Ada](../Characters/Ada%20Lovelace.md)."
    static let twoAfter = "And [her](../Characters/Ada%20Lovelace.md) again."

    override func setUpWithError() throws {
        try super.setUpWithError()
        // Ada.md was renamed to "Ada Lovelace.md": the move is done, the links not yet.
        fx = try Fixture(Self.tree)
    }

    override func tearDown() {
        fx = nil
        super.tearDown()
    }

    /// The record's entry for one file of Draft, as `writeLinkEdits` makes it.
    func recorded(_ name: String) throws -> LinkUpdateRecord.File {
        let dir = try Directory.open(fx.bytes("P/Draft"))
        let read = try XCTUnwrap(dir.readText(Array(name.utf8)))
        let text = String(decoding: read.bytes, as: UTF8.self)
        let target = try XCTUnwrap(text.range(of: "../Characters/Ada.md"))
        let start = text.utf8.distance(from: text.startIndex, to: target.lowerBound)
        let edit = TextEdit(start: start, end: start + 20, newText: "../Characters/Ada%20Lovelace.md")
        return LinkUpdateRecord.File(path: ["P", "Draft", name], before: read.stamp, text: read.bytes, edits: [edit])
    }

    func plant(_ files: [LinkUpdateRecord.File]) throws {
        XCTAssertNotNil(LinkUpdateRecord(library: fx.realPath, files: files).write(for: fx.realPath))
    }

    /// The file rewritten as a live update does, through the exchange.
    func rewrite(_ name: String, to text: String) throws {
        let dir = try Directory.open(fx.bytes("P/Draft"))
        let read = try XCTUnwrap(dir.readText(Array(name.utf8)))
        try dir.replaceText(Array(name.utf8), readAs: read.stamp, with: Array(text.utf8))
    }

    var records: [String] { state.listing("carrel/links", includeHidden: true) }

    func openLibrary() -> Workspace {
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        return ws
    }

    // MARK: Stages of an update

    /// Stopped after the record, before the first file: open makes every edit.
    func testStoppedBeforeAnyFileOpenFinishesEveryFile() throws {
        try plant([recorded("One.md"), recorded("Two.md")])
        let ws = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), Self.oneAfter)
        XCTAssertEqual(fx.read("P/Draft/Two.md"), Self.twoAfter)
        XCTAssertEqual(records, [])
        XCTAssertEqual(ws.notices, [.linkUpdatesFinished(files: 2)])
    }

    /// Stopped between two files: the first keeps its new text, the second is finished.
    func testStoppedBetweenFilesOpenFinishesTheRest() throws {
        try plant([recorded("One.md"), recorded("Two.md")])
        try rewrite("One.md", to: Self.oneAfter)
        let ws = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), Self.oneAfter)
        XCTAssertEqual(fx.read("P/Draft/Two.md"), Self.twoAfter)
        XCTAssertEqual(records, [])
        XCTAssertEqual(ws.notices, [.linkUpdatesFinished(files: 1)])
    }

    /// Stopped after the last file, before the record went: it is dropped, nothing written.
    func testStoppedAfterEveryFileOpenDropsTheRecord() throws {
        try plant([recorded("One.md"), recorded("Two.md")])
        try rewrite("One.md", to: Self.oneAfter)
        try rewrite("Two.md", to: Self.twoAfter)
        let ws = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), Self.oneAfter)
        XCTAssertEqual(fx.read("P/Draft/Two.md"), Self.twoAfter)
        XCTAssertEqual(records, [])
        XCTAssertEqual(ws.notices, [])
    }

    /// A file another program changed since the record keeps its text; the writer is told.
    func testAFileChangedSinceTheRecordIsLeftAsItIs() throws {
        try plant([recorded("One.md"), recorded("Two.md")])
        try rewrite("Two.md", to: "And [her](../Characters/Ada.md) again, rewritten elsewhere.")
        let ws = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), Self.oneAfter)
        XCTAssertEqual(fx.read("P/Draft/Two.md"), "And [her](../Characters/Ada.md) again, rewritten elsewhere.")
        XCTAssertEqual(records, [])
        XCTAssertEqual(ws.notices, [.linkUpdatesFinished(files: 1), .linksNotUpdated(names: "“Two.md”")])
    }

    /// The same text written anew (another inode, another mtime) is not the file read.
    func testTheSameTextWrittenAgainIsNotTheFileRead() throws {
        try plant([recorded("One.md")])
        try rewrite("One.md", to: "See [Ada](../Characters/Ada.md).")
        _ = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada.md).")
        XCTAssertEqual(records, [])
    }

    /// A record whose writer still runs (another Carrel mid-update) is its own business.
    func testARecordOfARunningCarrelIsLeftToIt() throws {
        try plant([recorded("One.md")])
        let mine = try XCTUnwrap(records.first)
        // pid 1 always runs.
        let theirs = mine.replacingOccurrences(of: "-\(getpid())-", with: "-1-")
        XCTAssertEqual(rename(state.path + "/carrel/links/" + mine, state.path + "/carrel/links/" + theirs), 0)
        _ = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada.md).")
        XCTAssertEqual(records, [theirs])
    }

    /// A temporary whose writer is gone was never a record: removed, nothing done.
    func testATornTemporaryIsRemoved() throws {
        try plant([recorded("One.md")])
        let name = try XCTUnwrap(records.first)
        let dead = name.replacingOccurrences(of: "-\(getpid())-", with: "-999999999-")
        XCTAssertEqual(
            rename(state.path + "/carrel/links/" + name, state.path + "/carrel/links/." + dead + ".tmp"), 0)
        _ = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada.md).")
        XCTAssertEqual(records, [])
    }

    /// A record of another library is not this one's.
    func testARecordOfAnotherLibraryIsNotRead() throws {
        let other = try Fixture(Self.tree)
        let path = other.bytes()
        let file = try recorded("One.md")
        XCTAssertNotNil(LinkUpdateRecord(library: path, files: [file]).write(for: path))
        _ = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada.md).")
        XCTAssertEqual(records.count, 1)
    }

    // MARK: The record comes first

    /// The edits of One.md and Two.md for Ada.md's rename, on a library where it is not made yet.
    func editsForTheRename(_ ws: Workspace) throws -> (Library, [LinkFileEdit]) {
        try fx.add("P/Characters/Ada.md = # Ada")
        let library = ws.addLibrary(fx.bytes())
        let move = LinkMove(from: ["P", "Characters", "Ada.md"], to: ["P", "Characters", "Ada Lovelace 2.md"])
        let fixes = ws.linkEdits(for: move, in: library)
        XCTAssertEqual(fixes.map(\.file.last), ["One.md", "Two.md"])
        return (library, fixes)
    }

    func testAnUpdateLeavesNoRecordBehind() throws {
        let ws = Workspace()
        let (library, fixes) = try editsForTheRename(ws)
        XCTAssertEqual(ws.writeLinkEdits(fixes, in: library).written, 2)
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada%20Lovelace%202.md).")
        XCTAssertEqual(records, [])
    }

    /// No durable record, no edit: a stop could not be finished.
    func testWithoutARecordNoFileIsWritten() throws {
        let ws = Workspace()
        let (library, fixes) = try editsForTheRename(ws)
        try state.add("carrel = not a folder")
        let result = ws.writeLinkEdits(fixes, in: library)
        XCTAssertEqual(result.written, 0)
        XCTAssertEqual(result.refused.map(\.last), ["One.md", "Two.md"])
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada.md).")
        XCTAssertEqual(fx.read("P/Draft/Two.md"), "And [her](../Characters/Ada.md) again.")
    }

    // MARK: Forged records

    /// Plants `contents` under a record's name for this library.
    func forge(_ make: (String) throws -> Void) throws -> String {
        try plant([recorded("One.md")])
        let name = try XCTUnwrap(records.first)
        let path = state.path + "/carrel/links/" + name
        XCTAssertEqual(unlink(path), 0)
        try make(path)
        return path
    }

    func assertRefused(
        _ flaw: LinkRecordFlaw, _ ws: Workspace, _ path: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(ws.notices, [.linkRecordRefused(path: path, because: flaw)], file: file, line: line)
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada.md).", file: file, line: line)
        XCTAssertEqual(records.count, 1, "a refused record is left to look at", file: file, line: line)
    }

    func testASymlinkedRecordIsRefusedAndItsTargetUntouched() throws {
        let outside = try Fixture("record.json = {}")
        let path = try forge { XCTAssertEqual(symlink(outside.path + "/record.json", $0), 0) }
        assertRefused(.found(.link), openLibrary(), path)
        XCTAssertEqual(outside.read("record.json"), "{}")
    }

    func testAPipeForARecordIsRefusedWithoutBlocking() throws {
        let path = try forge { XCTAssertEqual(mkfifo($0, 0o600), 0) }
        assertRefused(.found(.pipe), openLibrary(), path)
    }

    func testAHugeRecordIsRefusedUnread() throws {
        let path = try forge { p in
            let fd = Glibc.open(p, O_WRONLY | O_CREAT, 0o600)
            XCTAssertEqual(ftruncate(fd, off_t(LinkUpdateRecord.sizeLimit + 1)), 0)
            close(fd)
        }
        assertRefused(.tooLarge(limit: LinkUpdateRecord.sizeLimit), openLibrary(), path)
    }

    func testARecordNamingAPathOutOfTheLibraryIsRefused() throws {
        let outside = try Fixture("victim.md = See [Ada](../Characters/Ada.md).")
        var file = try recorded("One.md")
        file.path = ["..", "..", outside.path.split(separator: "/").last.map(String.init)!, "victim.md"]
        let path = try forge { p in
            let bytes = LinkUpdateRecord(library: fx.realPath, files: [file]).encoded()
            XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data(bytes)))
        }
        assertRefused(.pathOutsideLibrary, openLibrary(), path)
        XCTAssertEqual(outside.read("victim.md"), "See [Ada](../Characters/Ada.md).")
    }

    func testARecordThatIsNotJSONIsRefused() throws {
        let path = try forge { XCTAssertTrue(FileManager.default.createFile(atPath: $0, contents: Data("{".utf8))) }
        assertRefused(.malformed(detail: "not JSON"), openLibrary(), path)
    }

    func testEditsBeyondTheTextReadAreRefused() throws {
        var file = try recorded("One.md")
        file.edits = [TextEdit(start: 0, end: 1 << 40, newText: "x")]
        let path = try forge { p in
            let bytes = LinkUpdateRecord(library: fx.realPath, files: [file]).encoded()
            XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data(bytes)))
        }
        assertRefused(.malformed(detail: "edits"), openLibrary(), path)
    }
}
