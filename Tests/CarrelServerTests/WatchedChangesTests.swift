import CarrelWorkspace
import XCTest

@testable import CarrelServer

/// Which batches the watcher tells clients at once and which it holds for
/// the quiet: a single change at once, a burst held, and the rest of a
/// save (a file truncated, then written) at once, so its words are new.
final class WatchedChangesTests: XCTestCase {
    let ms: UInt64 = 1_000_000
    func changed(_ name: String) -> Change { Change(.changed, Array("/lib/\(name)".utf8)) }
    func created(_ name: String) -> Change { Change(.created, Array("/lib/\(name)".utf8)) }

    func testTheFirstBatchAfterAQuietMomentIsToldAtOnceAndTheNextHeld() {
        var w = WatchedChanges()
        XCTAssertTrue(w.tellsAtOnce([created("a.md")], now: 1_000 * ms))
        XCTAssertFalse(w.tellsAtOnce([created("b.md")], now: 1_010 * ms), "within the quiet: a burst")
        w.add([created("b.md")], now: 1_010 * ms)
        XCTAssertFalse(w.tellsAtOnce([created("c.md")], now: 2_000 * ms), "something is held: it goes first")
    }

    func testTheRestOfASaveIsToldAtOnceOnce() {
        var w = WatchedChanges()
        XCTAssertTrue(w.tellsAtOnce([changed("a.md")], now: 1_000 * ms), "the truncation")
        XCTAssertTrue(w.tellsAtOnce([changed("a.md")], now: 1_001 * ms), "the write that follows it")
        XCTAssertFalse(w.tellsAtOnce([changed("a.md")], now: 1_002 * ms), "a third is a burst: held")
    }

    func testABatchChangingAnotherFileIsHeld() {
        var w = WatchedChanges()
        XCTAssertTrue(w.tellsAtOnce([changed("a.md")], now: 1_000 * ms))
        XCTAssertFalse(w.tellsAtOnce([changed("a.md"), changed("b.md")], now: 1_001 * ms))
        XCTAssertFalse(w.tellsAtOnce([created("a.md")], now: 1_001 * ms), "not a change of contents")
    }

    func testAHeldBurstForgetsTheSave() {
        var w = WatchedChanges()
        XCTAssertTrue(w.tellsAtOnce([changed("a.md")], now: 1_000 * ms))
        w.add([created("b.md")], now: 1_001 * ms)
        _ = w.take()
        XCTAssertFalse(w.tellsAtOnce([changed("a.md")], now: 1_020 * ms), "the quiet has not come yet")
    }
}
