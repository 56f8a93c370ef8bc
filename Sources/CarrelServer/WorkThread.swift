import Foundation

/// A serial executor on a thread with a large stack. Everything that touches
/// the workspace runs here, one job at a time, in arrival order: that is what
/// makes mutating commands run one at a time, in order. The large stack lets
/// node building recurse through folders thousands of levels deep.
///
/// A job may also run on the thread that submits it (`runHereIfIdle`), but
/// only when no other job is running or waiting, so order and exclusion hold
/// whichever thread runs it; the lock hands the state from one to the next.
final class WorkThread: @unchecked Sendable {
    static let stackSize = 512 << 20

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var head = 0
    /// A job is running, on this thread or on a submitter's.
    private var busy = false

    init(name: String) {
        // The thread keeps its executor alive: it runs for the life of the process.
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.stackSize = Self.stackSize
        thread.start()
    }

    func async(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `job` on the calling thread when nothing is running or queued,
    /// else queues it like `async`. Handing a job to the idle work thread
    /// means waking it on the other core, which took 15 to 20 µs of every
    /// request on this kind of machine. The caller's stack must be as large
    /// as `stackSize`.
    func runHereIfIdle(_ job: @escaping () -> Void) {
        condition.lock()
        guard !busy, head == jobs.count else {
            jobs.append(job)
            condition.signal()
            condition.unlock()
            return
        }
        busy = true
        condition.unlock()
        job()
        condition.lock()
        busy = false
        // Jobs queued meanwhile (the watcher's) are the work thread's.
        if head < jobs.count { condition.signal() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while busy || head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            busy = true
            condition.unlock()
            job()
            condition.lock()
            busy = false
            condition.unlock()
        }
    }
}
