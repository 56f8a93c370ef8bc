import Foundation
import XCTest

@testable import CarrelServer

/// Jobs run one at a time in the order they were submitted, whichever
/// thread runs them.
final class WorkThreadTests: XCTestCase {
    func testAnIdleExecutorRunsTheJobOnTheCallersThread() {
        let work = WorkThread(name: "test-work")
        var ranOn: Thread?
        work.runHereIfIdle { ranOn = Thread.current }
        XCTAssertTrue(ranOn === Thread.current)
    }

    func testAJobSubmittedBehindQueuedOnesWaitsForThem() {
        let work = WorkThread(name: "test-work")
        let order = Order()
        let release = DispatchSemaphore(value: 0)
        work.async {
            release.wait(); order.add(1)
        }
        work.async { order.add(2) }
        var ranOn: Thread?
        let caller = Thread.current
        let done = DispatchSemaphore(value: 0)
        work.runHereIfIdle {
            order.add(3); ranOn = Thread.current; done.signal()
        }
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(order.values, [1, 2, 3])
        XCTAssertFalse(ranOn === caller, "a busy executor must queue the job, not run it beside the others")
    }

    func testJobsQueuedWhileOneRunsOnTheCallerRunAfterIt() {
        let work = WorkThread(name: "test-work")
        let order = Order()
        let done = DispatchSemaphore(value: 0)
        work.runHereIfIdle {
            work.async {
                order.add(2); done.signal()
            }
            // The work thread must not start the queued job while this one runs.
            usleep(50_000)
            order.add(1)
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(order.values, [1, 2])
    }
}

private final class Order: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func add(_ n: Int) { lock.lock(); list.append(n); lock.unlock() }
    var values: [Int] { lock.lock(); defer { lock.unlock() }; return list }
}
