import Foundation

/// A serial executor on a thread with a large stack. Everything that touches
/// the workspace runs here, one job at a time, in arrival order: that is what
/// makes mutating commands run one at a time, in order. The large stack lets
/// node building recurse through folders thousands of levels deep.
final class WorkThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var head = 0

    init(name: String, stackSize: Int = 512 << 20) {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    func async(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
