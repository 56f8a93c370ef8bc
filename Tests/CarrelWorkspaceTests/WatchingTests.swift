import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// The watcher against real inotify, driven by hand: events are collected,
/// then applied, as the server does on its work thread.
final class WatchingTests: XCTestCase {
    func watched(_ tree: String) throws -> (Fixture, Workspace, WatchInbox) {
        let fx = try Fixture(tree)
        let (ws, inbox) = watchedWorkspace(fx)
        return (fx, ws, inbox)
    }

    func names(_ events: [WatchEvent]) -> [String] { events.map { String(decoding: $0.name, as: UTF8.self) } }

    /// The server's own delete and restore need no folder read; another
    /// program's change in the same folder, in the same batch, still gets one.
    func testOwnChangesAreNotReadAgainAndOthersAre() throws {
        let (fx, ws, inbox) = try watched(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/mine.md = m
            P/Draft/theirs.md = t
            """)
        let t = { (p: String) in try ws.locate(fx.bytes(p), uri: p) }
        let deleted = try ws.delete(try t("P/Draft/mine.md"))
        ws.expectEvents(of: deleted.changes)
        var events = inbox.take { self.names($0).contains("mine.md") && $0.contains(where: \.isMovedTo) }
        let before = ws.watching!.folderReads
        XCTAssertEqual(ws.apply(events), [], "the model already shows the delete")
        XCTAssertEqual(ws.watching!.folderReads, before, "neither Draft nor Trash was read again")

        let restored = try ws.restore(try t("P/Trash/mine.md"))
        ws.expectEvents(of: restored.changes)
        XCTAssertEqual(rename(fx.path + "/P/Draft/theirs.md", fx.path + "/P/Draft/renamed.md"), 0)
        events = inbox.take {
            self.names($0).filter { $0 == "mine.md" }.count == 2 && self.names($0).contains("renamed.md")
        }
        let changes = ws.apply(events)
        XCTAssertEqual(changes.map(\.kind), [.moved], "only the other program's rename is news")
        XCTAssertEqual(changes.first?.path, fx.bytes("P/Draft/renamed.md"))
        XCTAssertEqual(
            ws.watching!.folderReads, before + 1, "Draft is read for the other program's rename; Trash is not")
        XCTAssertNotNil(try? t("P/Draft/mine.md"))
        XCTAssertNotNil(try? t("P/Draft/renamed.md"))
    }

    /// After the server's own create, another program's changes in the
    /// same folder are still read.
    func testAnotherProgramsChangeAfterOursIsRead() throws {
        let (fx, ws, inbox) = try watched(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/.keep = x
            """)
        let made = try ws.newFolder(in: try ws.locate(fx.bytes("P/Draft"), uri: "d"), name: "Notes")
        ws.expectEvents(of: made.changes)
        XCTAssertEqual(ws.apply(inbox.take { self.names($0).contains("Notes") }), [])
        let before = ws.watching!.folderReads
        XCTAssertEqual(mkdir(fx.path + "/P/Draft/More", 0o755), 0)
        let changes = ws.apply(inbox.take { self.names($0).contains("More") })
        XCTAssertEqual(changes.map(\.path), [fx.bytes("P/Draft/More")])
        XCTAssertEqual(ws.watching!.folderReads, before + 1)
    }

    /// Sorted by date modified, a file another program saves moves to the
    /// top of its folder and of "All" (both orders are cached).
    func testASavedFileMovesUpInModifiedOrder() throws {
        let (fx, ws, inbox) = try watched(
            """
            P/.carrel/project.json = {"type":"blank"}
            P/notes/old.md = o
            P/notes/new.md = n
            """)
        let t = { (p: String) in try ws.locate(fx.bytes(p), uri: p) }
        func setModified(_ rel: String, _ seconds: Int) {
            var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, fx.path + "/" + rel, &times, 0), 0)
        }
        setModified("P/notes/old.md", 1_000_000)
        setModified("P/notes/new.md", 2_000_000)
        _ = ws.apply(inbox.take { self.names($0).contains("new.md") })
        _ = try ws.setSort(try t("P"), SortSetting(by: .modified, descending: true))
        guard case .entry(let p, let l) = try t("P"), case .entry(let notes, _) = try t("P/notes") else {
            return XCTFail()
        }
        let names = { (item: Item) in ws.children(item).map { ws.describe($0, .english).name } }
        let all = ws.children(ws.children(.entry(p, l))[0]).first {
            if case .all = $0 { return true } else { return false }
        }!
        XCTAssertEqual(names(.entry(notes, l)), ["new.md", "old.md"])
        XCTAssertEqual(names(all), ["new.md", "old.md"])

        setModified("P/notes/old.md", 3_000_000)
        _ = ws.apply(inbox.take { self.names($0).contains("old.md") })
        XCTAssertEqual(names(.entry(notes, l)), ["old.md", "new.md"])
        XCTAssertEqual(names(all), ["old.md", "new.md"])
    }

    /// An expectation is used once: the same event again is another program's.
    func testAnExpectationIsUsedOnce() {
        var expected = ExpectedEvents()
        let b = { (s: String) in Array(s.utf8) }
        expected.expect(
            [Change(.created, b("/l/P/Draft/Notes")), Change(.moved, b("/l/P/Trash/a"), from: b("/l/P/Draft/a"))],
            nowMs: 0)
        let create = WatchEvent(watch: 1, mask: UInt32(IN_CREATE | IN_ISDIR), cookie: 0, name: b("Notes"))
        let from = WatchEvent(watch: 1, mask: UInt32(IN_MOVED_FROM), cookie: 7, name: b("a"))
        let to = WatchEvent(watch: 2, mask: UInt32(IN_MOVED_TO), cookie: 7, name: b("a"))
        XCTAssertFalse(expected.consume(to, in: b("/l/P/Draft"), nowMs: 1), "the right name in the wrong folder")
        XCTAssertTrue(expected.consume(create, in: b("/l/P/Draft"), nowMs: 1))
        XCTAssertFalse(expected.consume(create, in: b("/l/P/Draft"), nowMs: 1))
        XCTAssertTrue(expected.consume(from, in: b("/l/P/Draft"), nowMs: 1))
        XCTAssertTrue(expected.consume(to, in: b("/l/P/Trash"), nowMs: 1))
        XCTAssertFalse(expected.consume(to, in: b("/l/P/Trash"), nowMs: 1))
        XCTAssertTrue(expected.isEmpty)
    }

    func testExpectationsExpire() {
        var expected = ExpectedEvents()
        expected.expect([Change(.created, Array("/l/P/Draft/a".utf8))], nowMs: 1_000)
        let event = WatchEvent(watch: 1, mask: UInt32(IN_CREATE), cookie: 0, name: Array("a".utf8))
        XCTAssertFalse(expected.consume(event, in: Array("/l/P/Draft/a".utf8), nowMs: 1_001), "another folder")
        XCTAssertFalse(
            expected.consume(event, in: Array("/l/P/Draft".utf8), nowMs: 1_000 + ExpectedEvents.lifetimeMs + 1),
            "too late")
        expected.dropExpired(nowMs: 1_000 + ExpectedEvents.lifetimeMs + 1)
        XCTAssertTrue(expected.isEmpty)
    }
}
