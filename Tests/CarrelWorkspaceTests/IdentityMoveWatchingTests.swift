import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// A folder renamed on another machine, as Syncthing carries it out on this
/// one: the new folder made, each file renamed into it through its
/// temporary, the old folder removed. A file renamed in before the new
/// folder is watched leaves only an IN_MOVED_FROM nothing pairs and a name
/// found when the new folder is read; its identity (device and inode) pairs
/// the two into one move, keeping the model's entry.
final class IdentityMoveWatchingTests: WatchedWorkspaceTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"poetry"}
        P/Draft/a.md = alpha
        P/Draft/Part/c.md = gamma
        P/Draft/Part/d.md = delta
        P/Ready/
        P/Trash/
        """

    func open(polled: Bool = false) throws {
        guard polled else { return try watch(Self.tree) }
        fx = try Fixture(Self.tree)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        let state = WatchState(watcher: nil, log: { _ in })
        ws.watching = state
        for library in ws.libraries { state.watchTree(library.root, library: library, workspace: ws) }
        _ = ws.settle()
    }

    func sh(_ script: String) { XCTAssertEqual(fx.sh(script, in: "P"), 0, script) }

    func events(until last: String) -> [WatchEvent] {
        inbox.take { $0.contains { String(decoding: $0.name, as: UTF8.self) == last } }
    }

    func entry(_ path: String) -> Entry? {
        guard case .entry(let e, _) = try? ws.locate(fx.bytes(path), uri: path) else { return nil }
        return e
    }

    func moved(_ from: String, _ to: String) -> Change { Change(.moved, fx.bytes(to), from: fx.bytes(from)) }

    /// Syncthing's steps for `Part` renamed to `New` on the other machine,
    /// every one made before the server applies anything, so the new
    /// folder's watch comes after its files.
    static let folderRename =
        "mkdir Draft/New"
        + " && mv Draft/Part/c.md Draft/New/.syncthing.c.md.tmp && mv Draft/New/.syncthing.c.md.tmp Draft/New/c.md"
        + " && mv Draft/Part/d.md Draft/New/.syncthing.d.md.tmp && mv Draft/New/.syncthing.d.md.tmp Draft/New/d.md"
        + " && rmdir Draft/Part"

    func testAFolderRenamedBySyncthingMovesEachFile() throws {
        try open()
        let c = entry("P/Draft/Part/c.md")
        XCTAssertNotNil(c)
        sh(Self.folderRename)
        let changes = ws.apply(events(until: "Part"))
        XCTAssertEqual(changes.first, Change(.created, fx.bytes("P/Draft/New")))
        XCTAssertEqual(changes.count, 4, "\(changes)")
        XCTAssertTrue(changes.contains(moved("P/Draft/Part/c.md", "P/Draft/New/c.md")), "\(changes)")
        XCTAssertTrue(changes.contains(moved("P/Draft/Part/d.md", "P/Draft/New/d.md")), "\(changes)")
        XCTAssertEqual(changes.last, Change(.deleted, fx.bytes("P/Draft/Part")), "the old folder goes last")
        XCTAssertTrue(entry("P/Draft/New/c.md") === c, "the model's entry moved, with its words")
        XCTAssertEqual(entry("P/Draft/New")?.fileTotal, 2)
        XCTAssertFalse(ws.needsPolling, "nothing left held")
    }

    /// The new folder is read while the file is still under its temporary;
    /// the temporary becomes the file in a later batch.
    func testTheFileFoundInALaterBatchIsStillAMove() throws {
        try open()
        sh("mkdir Draft/New && mv Draft/Part/c.md Draft/New/.syncthing.c.md.tmp")
        let first = ws.apply(events(until: "c.md"))
        XCTAssertEqual(first, [Change(.created, fx.bytes("P/Draft/New"))])
        XCTAssertNotNil(entry("P/Draft/Part/c.md"), "held where it was while its other side is awaited")
        XCTAssertTrue(ws.needsPolling)
        sh("mv Draft/New/.syncthing.c.md.tmp Draft/New/c.md")
        let second = ws.apply(events(until: "c.md"))
        XCTAssertEqual(second, [moved("P/Draft/Part/c.md", "P/Draft/New/c.md")])
        XCTAssertNil(entry("P/Draft/Part/c.md"))
    }

    /// The new folder is read, file and all, before the old folder's
    /// IN_MOVED_FROM is applied: the file was found first.
    func testTheFileFoundBeforeItsLeavingIsReadIsAMove() throws {
        try open()
        sh("mkdir Draft/New && mv Draft/Part/c.md Draft/New/c.md")
        let all = events(until: "c.md")
        let isNew = { (e: WatchEvent) in String(decoding: e.name, as: UTF8.self) == "New" }
        _ = ws.apply(all.filter(isNew))
        XCTAssertEqual(ws.apply(all.filter { !isNew($0) }), [moved("P/Draft/Part/c.md", "P/Draft/New/c.md")])
        XCTAssertEqual(entry("P/Draft")?.fileTotal, 3, "the file is in the model once")
    }

    /// A file renamed out of the library never turns up: once its hold
    /// ends it reads as deleted.
    func testAFileThatNeverTurnsUpIsDeleted() throws {
        try open()
        let outside = try Fixture("")
        sh("mv Draft/Part/c.md '\(outside.path)/c.md'")
        XCTAssertEqual(ws.apply(events(until: "c.md")), [])
        XCTAssertEqual(ws.releaseUnpairedIdentityMoves(nowMs: Clock.nowMs()), [], "not yet")
        let later = Clock.nowMs() + IdentityMoves.lifetimeMs + 1
        XCTAssertEqual(
            ws.releaseUnpairedIdentityMoves(nowMs: later), [Change(.deleted, fx.bytes("P/Draft/Part/c.md"))])
        XCTAssertFalse(ws.needsPolling)
    }

    /// Where inotify is out of watches, folders are polled, and a poll sees
    /// a rename only as a name gone and a name found.
    func testPolledFoldersSeeRenamesAndMovesAsMoves() throws {
        try open(polled: true)
        usleep(20_000)  // a later folder mtime, for the poll to see
        sh("mv Draft/a.md Draft/Alpha.md")
        XCTAssertEqual(ws.poll(), [moved("P/Draft/a.md", "P/Draft/Alpha.md")])
        usleep(20_000)
        sh("mv Draft/Alpha.md Ready/Alpha.md")
        XCTAssertEqual(ws.poll(), [moved("P/Draft/Alpha.md", "P/Ready/Alpha.md")])
        usleep(20_000)
        sh("mv Ready/Alpha.md Trash/Alpha.md")
        XCTAssertEqual(
            ws.poll(), [Change(.moved, fx.bytes("P/Trash/Alpha.md"), from: fx.bytes("P/Ready/Alpha.md"), inTrash: true)]
        )
    }
}
