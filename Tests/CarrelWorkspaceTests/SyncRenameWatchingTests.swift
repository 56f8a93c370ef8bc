import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// A rename made on another machine, as Syncthing carries it out on this
/// one: the old name renamed to the new name's temporary
/// (`.syncthing.NEW.tmp`, in the new name's folder), then the temporary to
/// the new name. Seen through real inotify, it is one move, as a shell `mv`
/// is, so an open buffer follows it; a temporary never finished is a
/// deletion once it has waited long enough.
final class SyncRenameWatchingTests: WatchedWorkspaceTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"poetry"}
        P/Draft/a.md = alpha
        P/Draft/b.md = beta
        P/Draft/Part/c.md = gamma
        P/Ready/
        P/Trash/
        """

    func open() throws { try watch(Self.tree) }

    func sh(_ script: String) { XCTAssertEqual(fx.sh(script, in: "P"), 0, script) }

    /// Applies what the watcher reports until an event named `last` came.
    func apply(until last: String) -> [Change] {
        ws.apply(inbox.take { $0.contains { String(decoding: $0.name, as: UTF8.self) == last } })
    }

    func exists(_ path: String) -> Bool { (try? ws.locate(fx.bytes(path), uri: path)) != nil }

    func testARenameThroughTheTemporaryIsOneMove() throws {
        try open()
        sh("mv Draft/a.md Draft/.syncthing.Alpha.md.tmp && mv Draft/.syncthing.Alpha.md.tmp Draft/Alpha.md")
        let changes = apply(until: "Alpha.md")
        XCTAssertEqual(changes, [Change(.moved, fx.bytes("P/Draft/Alpha.md"), from: fx.bytes("P/Draft/a.md"))])
        XCTAssertTrue(exists("P/Draft/Alpha.md"))
        XCTAssertFalse(exists("P/Draft/a.md"))
    }

    func testAMoveIntoAnotherFolderGoesThroughTheDestinationsTemporary() throws {
        try open()
        sh("mv Draft/a.md Ready/.syncthing.a.md.tmp && mv Ready/.syncthing.a.md.tmp Ready/a.md")
        let changes = apply(until: "a.md")
        XCTAssertEqual(changes, [Change(.moved, fx.bytes("P/Ready/a.md"), from: fx.bytes("P/Draft/a.md"))])
    }

    func testADeleteIntoTheTrashIsAMoveIntoTheTrash() throws {
        try open()
        sh("mv Draft/b.md Trash/.syncthing.b.md.tmp && mv Trash/.syncthing.b.md.tmp Trash/b.md")
        let changes = apply(until: "b.md")
        XCTAssertEqual(
            changes, [Change(.moved, fx.bytes("P/Trash/b.md"), from: fx.bytes("P/Draft/b.md"), inTrash: true)])
    }

    func testWindowsStyleTemporariesPairToo() throws {
        try open()
        sh("mv Draft/a.md Draft/~syncthing~Alpha.md.tmp && mv Draft/~syncthing~Alpha.md.tmp Draft/Alpha.md")
        let changes = apply(until: "Alpha.md")
        XCTAssertEqual(changes, [Change(.moved, fx.bytes("P/Draft/Alpha.md"), from: fx.bytes("P/Draft/a.md"))])
    }

    /// The two renames may reach the server in two batches: between them the
    /// item is neither deleted nor shown twice.
    func testHalvesInTwoBatchesAreStillOneMove() throws {
        try open()
        sh("mv Draft/a.md Draft/.syncthing.Alpha.md.tmp")
        XCTAssertEqual(apply(until: ".syncthing.Alpha.md.tmp"), [], "half a rename is no deletion")
        XCTAssertTrue(exists("P/Draft/a.md"), "kept where it was until the rename ends")
        sh("mv Draft/.syncthing.Alpha.md.tmp Draft/Alpha.md")
        let changes = apply(until: "Alpha.md")
        XCTAssertEqual(changes, [Change(.moved, fx.bytes("P/Draft/Alpha.md"), from: fx.bytes("P/Draft/a.md"))])
    }

    /// Another change in the same folder between the halves is still read.
    func testTheFolderIsStillReadBetweenTheHalves() throws {
        try open()
        sh("mv Draft/a.md Draft/.syncthing.Alpha.md.tmp && echo n > Draft/new.md")
        XCTAssertEqual(apply(until: "new.md"), [Change(.created, fx.bytes("P/Draft/new.md"))])
        sh("mv Draft/.syncthing.Alpha.md.tmp Draft/Alpha.md")
        XCTAssertEqual(
            apply(until: "Alpha.md"), [Change(.moved, fx.bytes("P/Draft/Alpha.md"), from: fx.bytes("P/Draft/a.md"))])
    }

    /// A temporary that never becomes its file (the engine stopped, or
    /// removed it): the item was deleted, and is reported so once the
    /// rename has waited long enough.
    func testATemporaryNeverFinishedIsADeletion() throws {
        try open()
        sh("mv Draft/a.md Draft/.syncthing.Alpha.md.tmp")
        XCTAssertEqual(apply(until: ".syncthing.Alpha.md.tmp"), [])
        XCTAssertTrue(ws.needsPolling, "the server's timer comes back to end the wait")
        XCTAssertEqual(ws.releaseUnfinishedSyncRenames(nowMs: Clock.nowMs()), [], "not yet")
        let later = Clock.nowMs() + SyncRenames.lifetimeMs + 1
        XCTAssertEqual(ws.releaseUnfinishedSyncRenames(nowMs: later), [Change(.deleted, fx.bytes("P/Draft/a.md"))])
        XCTAssertFalse(exists("P/Draft/a.md"))
        XCTAssertFalse(ws.needsPolling)
    }

    /// A file the engine receives anew goes through a temporary too, with no
    /// old name: it is created, as before.
    func testANewFileThroughATemporaryIsCreated() throws {
        try open()
        sh("echo x > Draft/.syncthing.New.md.tmp && mv Draft/.syncthing.New.md.tmp Draft/New.md")
        XCTAssertEqual(apply(until: "New.md"), [Change(.created, fx.bytes("P/Draft/New.md"))])
    }

    /// A temporary renamed to a name that is not its own is no rename
    /// through the temporary, but the file is still the one that left:
    /// its identity makes it a move.
    func testATemporaryRenamedToAnotherNameIsAMoveByIdentity() throws {
        try open()
        sh("mv Draft/a.md Draft/.syncthing.Alpha.md.tmp && mv Draft/.syncthing.Alpha.md.tmp Draft/Other.md")
        XCTAssertEqual(
            apply(until: "Other.md"), [Change(.moved, fx.bytes("P/Draft/Other.md"), from: fx.bytes("P/Draft/a.md"))])
    }
}
