import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// A batch is applied some time after the watcher read it, and the folders
/// it names are read then: a file renamed or removed in between is already
/// gone from the folder while the kernel's event saying so waits for the
/// next batch. The file waits for that event, held as a move's first half,
/// so a rename still reaches clients as one `moved` and a removal as one
/// `deleted`.
final class FolderReadAheadOfEventsTests: WatchedWorkspaceTestCase {
    func open() throws {
        try watch(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea
            P/Ready/
            P/Trash/
            """)
    }

    func sh(_ script: String) { XCTAssertEqual(fx.sh(script, in: "P"), 0, script) }

    func events(until last: String) -> [WatchEvent] {
        inbox.take { $0.contains { String(decoding: $0.name, as: UTF8.self) == last } }
    }

    /// The events of a write to `Draft/Spring.md`, read before `then` runs.
    func batchReadBefore(_ then: String) -> [WatchEvent] {
        sh("printf tide >> Draft/Spring.md")
        let early = events(until: "Spring.md")
        sh(then)
        return early
    }

    func testAFileRenamedAfterItsFolderEventsWereReadIsMoved() throws {
        try open()
        let early = batchReadBefore("mv Draft/Spring.md Ready/Spring.md")
        XCTAssertEqual(ws.apply(early).filter { $0.kind != .changed }, [], "nothing gone yet: its event is to come")
        XCTAssertEqual(
            ws.apply(events(until: "Spring.md")).filter { $0.kind != .changed },
            [Change(.moved, fx.bytes("P/Ready/Spring.md"), from: fx.bytes("P/Draft/Spring.md"))])
        XCTAssertFalse(ws.needsPolling, "nothing left held")
    }

    func testAFileRemovedAfterItsFolderEventsWereReadIsDeletedWithItsEvent() throws {
        try open()
        let early = batchReadBefore("rm Draft/Spring.md")
        XCTAssertEqual(ws.apply(early).filter { $0.kind != .changed }, [])
        XCTAssertEqual(ws.apply(events(until: "Spring.md")), [Change(.deleted, fx.bytes("P/Draft/Spring.md"))])
        XCTAssertFalse(ws.needsPolling, "its deletion ended the hold, with no wait")
    }
}
