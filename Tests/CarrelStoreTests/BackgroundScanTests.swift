import CarrelModel
import CarrelStore
import CarrelTestSupport
import Foundation
import XCTest

/// Opening reads a library's top levels; `BackgroundScan` reads the folders
/// below them, each job's subtree whole, on its own threads.
final class BackgroundScanTests: XCTestCase {
    let tree = """
        P/Draft/a.md = a
        P/Draft/Cycle/b.md = b
        P/Draft/Cycle/Deeper/c.md = c
        P/Ready/r.md = r
        top.md = t
        """

    func testOpeningOutOfTimeReadsTheTopTwoLevelsAndReturnsTheFoldersBelow() throws {
        let fx = try Fixture(tree)
        let root = Entry(name: EntryName(bytes: fx.bytes()), kind: .directory)
        let unread = Scanner.scanInParallel(root, path: fx.bytes(), levels: 2, until: 0).unread
        XCTAssertEqual(Set(unread.map(\.name.string)), ["Draft", "Ready"])
        XCTAssertEqual(unread.map(\.children.count), [0, 0], "left unread")
        XCTAssertEqual(root.fileTotal, 1, "top.md only")
        XCTAssertEqual(root.child("P")?.folderCount, 2)
    }

    func testWithTimeLeftOpeningReadsEverything() throws {
        let fx = try Fixture(tree)
        let root = Entry(name: EntryName(bytes: fx.bytes()), kind: .directory)
        let unread = Scanner.scanInParallel(root, path: fx.bytes(), levels: 2, until: Clock.nowMs() + 60_000).unread
        XCTAssertEqual(unread.count, 0)
        XCTAssertEqual(root.fileTotal, 5)
    }

    func testEachJobComesBackAsItsWholeSubtreeAndAMissingFolderSaysSo() throws {
        let fx = try Fixture(tree)
        let announced = expectation(description: "announced")
        announced.assertForOverFulfill = false
        let scan = BackgroundScan { announced.fulfill() }
        scan.enqueue(token: 7, path: fx.bytes("P/Draft"))
        scan.enqueue(token: 8, path: fx.bytes("P/Gone"))
        wait(for: [announced], timeout: 5)
        var finished: [Int: BackgroundScan.Finished] = [:]
        let deadline = Date().addingTimeInterval(5)
        while finished.count < 2, Date() < deadline {
            for f in scan.take() { finished[f.token] = f }
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(finished[7]?.root.fileTotal, 3)
        XCTAssertEqual(finished[7]?.root.child("Cycle")?.child("Deeper")?.fileTotal, 1)
        XCTAssertEqual(finished[7]?.missing, false)
        XCTAssertEqual(finished[8]?.missing, true)
    }

    func testAHeldScanKeepsItsSubtreesUntilTakeAll() throws {
        let fx = try Fixture(tree)
        let scan = BackgroundScan(hold: .results) {}
        scan.enqueue(token: 1, path: fx.bytes("P"))
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(scan.take().count, 0)
        let all = scan.takeAll()
        XCTAssertEqual(all.map(\.token), [1])
        XCTAssertEqual(all.first?.root.fileTotal, 4)
    }

    /// Held reads start only when everything is needed: what changed before is read.
    func testHeldReadsSeeTheDiskAsItIsWhenLetGo() throws {
        let fx = try Fixture(tree)
        let scan = BackgroundScan(hold: .reads) {}
        scan.enqueue(token: 1, path: fx.bytes("P/Draft"))
        scan.enqueue(token: 2, path: fx.bytes("P/Ready"))
        try fx.add("P/Draft/Cycle/later.md = l")
        XCTAssertEqual(Fixture.sh("mv '\(fx.path)/P/Ready' '\(fx.path)/P/Moved'"), 0)
        let all = Dictionary(uniqueKeysWithValues: scan.takeAll().map { ($0.token, $0) })
        XCTAssertEqual(all[1]?.root.fileTotal, 4)
        XCTAssertEqual(all[2]?.missing, true)
    }
}
