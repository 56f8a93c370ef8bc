import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// What the watcher delivers, collected as it arrives and taken whole once
/// a test has seen enough, as the server's work thread would apply it.
final class WatchInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [WatchEvent] = []
    func add(_ batch: [WatchEvent]) { lock.lock(); events += batch; lock.unlock() }
    /// Waits until `done` holds for what arrived, then takes it all.
    func take(until done: ([WatchEvent]) -> Bool, timeout: TimeInterval = 5) -> [WatchEvent] {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            lock.lock()
            if done(events) { defer { events = []; lock.unlock() }; return events }
            lock.unlock()
            usleep(5_000)
        }
        lock.lock(); defer { events = []; lock.unlock() }
        return events
    }
}

/// The library in `fx` opened and watched through real inotify, its events
/// going to the inbox, and settled as the server does: the repairs on open
/// change folders after their scan, and those events are not the test's.
func watchedWorkspace(_ fx: Fixture) -> (Workspace, WatchInbox) {
    let ws = Workspace()
    ws.addLibrary(fx.bytes())
    let inbox = WatchInbox()
    ws.startWatching(log: { _ in }, deliver: { inbox.add($0) })
    _ = ws.settle()
    return (ws, inbox)
}

/// A test of one library watched through real inotify (`watchedWorkspace`).
class WatchedWorkspaceTestCase: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!
    var inbox: WatchInbox!

    /// Makes the library from `tree` (and whatever `prepare` adds to it
    /// that a literal cannot hold), then watches it.
    func watch(_ tree: String, prepare: (Fixture) throws -> Void = { _ in }) throws {
        fx = try Fixture(tree)
        try prepare(fx)
        (ws, inbox) = watchedWorkspace(fx)
    }

    override func tearDown() {
        ws = nil
        fx = nil
        super.tearDown()
    }
}
