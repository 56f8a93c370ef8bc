import CarrelTestSupport
import Foundation
import XCTest

/// A user has 128 inotify instances. A process that makes many servers,
/// as the test suites do, must give each one's back when the server goes,
/// or the later ones silently fall back to polling and read outside moves
/// as deletions and creations.
final class WatcherReleaseTests: XCTestCase {
    /// The inotify instances this process holds, from its open descriptors.
    static func inotifyInstances() -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)) == "anon_inode:inotify"
        }.count
    }

    func testADroppedServerGivesItsInotifyInstanceBack() throws {
        let fx = try Fixture("P/.carrel/project.json = {\"type\":\"poetry\"}")
        let before = Self.inotifyInstances()
        for _ in 0..<10 {
            var client: InProcessClient? = InProcessClient()
            _ = try client!.initialize([fx.uri()])
            _ = try client!.result("carrel/tree", ["depth": 1])
            client = nil
        }
        // The watcher's thread closes its descriptor as it ends, just after.
        let deadline = Date().addingTimeInterval(5)
        while Self.inotifyInstances() > before, Date() < deadline { usleep(10_000) }
        XCTAssertLessThanOrEqual(Self.inotifyInstances(), before, "ten servers came and went")
    }
}
