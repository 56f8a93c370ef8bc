import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// Binder order against other programs' changes, seen through real inotify:
/// a shell `mv`, a burst that removes one name and adds another, a changed
/// order file, a sync engine's conflict copy arriving.
final class OrderWatchingTests: WatchedWorkspaceTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"poetry","sort":{"by":"manual"}}
        P/Draft/a.md
        P/Draft/b.md
        P/Draft/c.md
        """

    func open(order: String) throws {
        try watch(Self.tree) { fx in try Data(order.utf8).write(to: fx.url("P/Draft/.carrel-order")) }
    }

    func names() throws -> [String] {
        let item = try ws.locate(fx.bytes("P/Draft"), uri: "d").item
        return ws.children(item).map { ws.describe($0, .english).name }
    }

    /// Applies what the watcher reports until `done`, as the server's work thread does.
    @discardableResult
    func settle(until done: () throws -> Bool) throws -> [Change] {
        var changes: [Change] = []
        let end = Date().addingTimeInterval(5)
        while Date() < end {
            changes += ws.apply(inbox.take(until: { !$0.isEmpty }, timeout: 0.2))
            if try done() { return changes }
        }
        return changes
    }

    func testAShellRenameKeepsThePlace() throws {
        try open(order: "c.md\na.md\nb.md\n")
        XCTAssertEqual(try names(), ["c.md", "a.md", "b.md"])
        XCTAssertEqual(Fixture.sh("mv '\(fx.path)/P/Draft/a.md' '\(fx.path)/P/Draft/Alpha.md'"), 0)
        try settle { try names().contains("Alpha.md") }
        XCTAssertEqual(try names(), ["c.md", "Alpha.md", "b.md"])
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "c.md\nAlpha.md\nb.md\n", "kept for the next start")
    }

    func testANameThatVanishedAndOneThatAppearedInOneBurstSwapPlaces() throws {
        try open(order: "c.md\na.md\nb.md\n")
        // Not a rename the kernel pairs: a copy and a delete, as git and sync engines do.
        XCTAssertEqual(
            Fixture.sh("cp '\(fx.path)/P/Draft/a.md' '\(fx.path)/P/Draft/Z.md' && rm '\(fx.path)/P/Draft/a.md'"), 0)
        try settle { try names().contains("Z.md") && !names().contains("a.md") }
        XCTAssertEqual(try names(), ["c.md", "Z.md", "b.md"])
    }

    /// The order file as the disk has it: its inode, its change time and
    /// its text. Any write of it, even of the same text, changes the first
    /// two.
    func orderFileOnDisk() -> [String] {
        var st = stat()
        guard lstat(fx.path + "/P/Draft/.carrel-order", &st) == 0 else { return [] }
        return ["\(st.st_ino)", "\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)", fx.read("P/Draft/.carrel-order") ?? ""]
    }

    /// A rename made on another machine arrives (through Syncthing's
    /// temporary) before that machine's order file: this machine only
    /// receives, so it writes nothing, and the item shows after the listed
    /// names until the order file that comes with it says where it goes.
    func testARenameArrivingBySyncNeverWritesTheOrderFile() throws {
        try open(order: "c.md\na.md\nb.md\n")
        let before = orderFileOnDisk()
        XCTAssertEqual(
            Fixture.sh(
                "cd '\(fx.path)/P/Draft' && mv a.md .syncthing.Alpha.md.tmp && mv .syncthing.Alpha.md.tmp Alpha.md"), 0)
        try settle { try names().contains("Alpha.md") }
        XCTAssertEqual(try names(), ["c.md", "b.md", "Alpha.md"])
        XCTAssertEqual(orderFileOnDisk(), before, "the order file was not written")
        XCTAssertEqual(
            Fixture.sh(
                "cd '\(fx.path)/P/Draft' && printf 'c.md\\nAlpha.md\\nb.md\\n' > .syncthing..carrel-order.tmp"
                    + " && mv .syncthing..carrel-order.tmp .carrel-order"), 0)
        try settle { try names() == ["c.md", "Alpha.md", "b.md"] }
        XCTAssertEqual(try names(), ["c.md", "Alpha.md", "b.md"], "the other machine's order file places it")
    }

    /// With Syncthing's versioning the old file is archived and the new one
    /// written through a temporary: a name vanished and one appeared in one
    /// burst, by sync, and the order file is not written either.
    func testANameReplacedBySyncNeverWritesTheOrderFile() throws {
        try open(order: "c.md\na.md\nb.md\n")
        let before = orderFileOnDisk()
        XCTAssertEqual(
            Fixture.sh(
                "cd '\(fx.path)/P/Draft' && cp a.md .syncthing.Z.md.tmp && mv .syncthing.Z.md.tmp Z.md && rm a.md"),
            0)
        try settle { try names().contains("Z.md") && !names().contains("a.md") }
        XCTAssertEqual(try names(), ["c.md", "b.md", "Z.md"])
        XCTAssertEqual(orderFileOnDisk(), before, "the order file was not written")
    }

    func testUnknownNamesGoLastAndVanishedOnesAreDropped() throws {
        try open(order: "c.md\na.md\nb.md\n")
        XCTAssertEqual(Fixture.sh("touch '\(fx.path)/P/Draft/0.md'"), 0)
        try settle { try names().contains("0.md") }
        XCTAssertEqual(try names(), ["c.md", "a.md", "b.md", "0.md"])
        XCTAssertEqual(Fixture.sh("rm '\(fx.path)/P/Draft/c.md'"), 0)
        try settle { try !names().contains("c.md") }
        XCTAssertEqual(try names(), ["a.md", "b.md", "0.md"])
    }

    func testAChangedOrderFileIsReadAgainAndTheFolderIsChanged() throws {
        try open(order: "c.md\na.md\nb.md\n")
        try Data("b.md\nc.md\na.md\n".utf8).write(to: fx.url("P/Draft/.carrel-order.new"))
        XCTAssertEqual(
            Fixture.sh("mv '\(fx.path)/P/Draft/.carrel-order.new' '\(fx.path)/P/Draft/.carrel-order'"), 0)
        let changes = try settle { try names() == ["b.md", "c.md", "a.md"] }
        XCTAssertEqual(try names(), ["b.md", "c.md", "a.md"])
        XCTAssertTrue(changes.contains(Change(.changed, fx.bytes("P/Draft"))), "\(changes)")
    }

    func testAConflictCopyArrivingIsMergedAndRemoved() throws {
        try open(order: "c.md\na.md\n")
        try Data("b.md\nc.md\n".utf8).write(
            to: fx.url("P/Draft/.sync-conflict-20261123-101010-ABCDEFG.carrel-order"))
        try settle {
            try names() == ["c.md", "a.md", "b.md"]
                && !fx.listing("P/Draft", includeHidden: true).contains { $0.contains("conflict") }
        }
        XCTAssertEqual(fx.listing("P/Draft", includeHidden: true).filter { $0.contains("sync-conflict") }, [])
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "c.md\na.md\nb.md\n")
    }
}
