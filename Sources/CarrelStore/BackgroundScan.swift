import CarrelModel
import Foundation

/// The deep part of a library's first scan, read while the server answers.
/// Each job is one folder the model holds unread; its whole subtree is read
/// into a detached root, pipelined like `scanInParallel` (worker threads
/// make the system calls, one coordinating thread builds the entries). The
/// owner takes finished subtrees on its own thread and grafts them: this
/// class never touches the model.
///
/// Finished jobs are announced at most once per `batchInterval`, so a large
/// library costs its clients a few notifications, not one per folder.
public final class BackgroundScan: @unchecked Sendable {
    /// One job's subtree. `root` is detached: its children, change stamp and
    /// unreadable flag are the folder's as read.
    public struct Finished: @unchecked Sendable {
        public let token: Int
        public let root: Entry
        /// The folder was not at its path when read (moved or deleted meanwhile).
        public let missing: Bool
        /// The folders of the subtree that hold an order file, for the owner to read.
        public let ordered: [(Entry, FoundOrder)]
    }

    public static let batchInterval: Int64 = 50

    /// What a held scan keeps back until a caller needs everything: tests
    /// hold it to see what a client sees before the deep folders arrive.
    public enum Hold: Sendable {
        case none
        /// Folders are read at once; their subtrees wait.
        case results
        /// Nothing is read yet: the disk may change before the read.
        case reads
    }

    private let condition = NSCondition()
    private var queued: [(token: Int, path: [UInt8])] = []
    private var finished: [Finished] = []
    private var running = false
    private var held: Hold
    /// Nothing is read until `start`: the owner's first answers come first.
    private var waiting: Bool
    private let workers: Int
    private let announce: @Sendable () -> Void

    /// `announce` runs on the scan's thread when finished jobs wait to be
    /// taken. `waitingToStart`: jobs are queued but read only once `start`
    /// (or `takeAll`) is called.
    public init(
        workers: Int = 2, hold: Hold = .none, waitingToStart: Bool = false,
        announce: @escaping @Sendable () -> Void
    ) {
        self.workers = workers
        self.held = hold
        self.waiting = waitingToStart
        self.announce = announce
    }

    public func enqueue(token: Int, path: [UInt8]) {
        condition.lock()
        queued.append((token, path))
        if held != .reads, !waiting { startIfIdle() }
        condition.unlock()
    }

    /// Starts reading the jobs queued, and those to come, if it waited.
    public func start() {
        condition.lock()
        waiting = false
        if held != .reads { startIfIdle() }
        condition.unlock()
    }

    /// Whether reading has started: false while it waits for `start` or a hold on reads.
    public var hasStarted: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !waiting && held != .reads
    }

    /// Called with `condition` locked.
    private func startIfIdle() {
        guard !running, !queued.isEmpty else { return }
        running = true
        let thread = Thread { [self] in self.coordinate() }
        thread.stackSize = 1 << 20
        thread.name = "carrel-scan"
        thread.start()
    }

    /// Whether finished jobs are kept back (tests): set at init, let go by `takeAll`.
    public var isHeld: Bool {
        condition.lock()
        defer { condition.unlock() }
        return held != .none
    }

    /// The jobs finished so far (none while held).
    public func take() -> [Finished] {
        condition.lock()
        defer { condition.unlock() }
        guard held == .none else { return [] }
        let out = finished
        finished = []
        return out
    }

    /// Lets go of a hold and waits until every job queued so far is finished.
    public func takeAll() -> [Finished] {
        condition.lock()
        defer { condition.unlock() }
        held = .none
        waiting = false
        startIfIdle()
        while running { condition.wait() }
        let out = finished
        finished = []
        return out
    }

    private func coordinate() {
        let pipe = Scanner.Pipeline()
        for _ in 0..<workers {
            let t = Thread { Scanner.serve(pipe) }
            t.stackSize = 1 << 20
            t.start()
        }
        // Per folder being read: its entry, path and job; per job: its root and listings still to come.
        var folders: [(entry: Entry, path: [UInt8], job: Int)] = []
        var jobs: [Int: (token: Int, root: Entry, outstanding: Int, missing: Bool)] = [:]
        var ordered: [Int: [(Entry, FoundOrder)]] = [:]
        var lastAnnounced = Clock.nowMs()
        var unannounced = false
        while true {
            condition.lock()
            let arrived = queued
            queued.removeAll()
            let holding = held != .none
            if arrived.isEmpty && jobs.isEmpty {
                running = false
                let anything = !finished.isEmpty && !holding
                condition.broadcast()
                condition.unlock()
                if anything { announce() }
                break
            }
            condition.unlock()
            if !arrived.isEmpty {
                pipe.condition.lock()
                for job in arrived {
                    let root = Entry(name: EntryName(bytes: Array(BytePath.split(job.path).name)), kind: .directory)
                    jobs[folders.count] = (job.token, root, 1, false)
                    pipe.work.append(Scanner.Work(token: folders.count, path: job.path))
                    folders.append((root, job.path, folders.count))
                }
                pipe.condition.broadcast()
                pipe.condition.unlock()
            }
            pipe.condition.lock()
            while pipe.results.isEmpty {
                // Finished jobs not yet announced are announced when due, even if nothing else finishes.
                guard unannounced, !holding else { pipe.condition.wait(); continue }
                let due = Date(timeIntervalSinceNow: Double(lastAnnounced + Self.batchInterval - Clock.nowMs()) / 1000)
                if !pipe.condition.wait(until: due) { break }
            }
            let batch = pipe.results
            pipe.results.removeAll(keepingCapacity: true)
            pipe.condition.unlock()
            var newWork: [Scanner.Work] = []
            var done: [Finished] = []
            for listing in batch {
                let (dir, dirPath, job) = folders[listing.token]
                if listing.token == job, listing.missing { jobs[job]!.missing = true }
                if let found = listing.found { ordered[job, default: []].append((dir, found)) }
                var subfolders = 0
                for e in Scanner.attach(listing, to: dir) where e.kind == .directory {
                    let childPath = BytePath.join(dirPath, e.name.bytes)
                    newWork.append(Scanner.Work(token: folders.count, path: childPath))
                    folders.append((e, childPath, job))
                    subfolders += 1
                }
                jobs[job]!.outstanding += subfolders - 1
                if jobs[job]!.outstanding == 0, let j = jobs.removeValue(forKey: job) {
                    let found = ordered.removeValue(forKey: job) ?? []
                    done.append(Finished(token: j.token, root: j.root, missing: j.missing, ordered: found))
                }
            }
            if !newWork.isEmpty {
                pipe.condition.lock()
                pipe.work.append(contentsOf: newWork)
                pipe.condition.broadcast()
                pipe.condition.unlock()
            }
            condition.lock()
            finished.append(contentsOf: done)
            unannounced = unannounced || !done.isEmpty
            let now = Clock.nowMs()
            let due = unannounced && held == .none && now - lastAnnounced >= Self.batchInterval
            condition.unlock()
            if due {
                lastAnnounced = now
                unannounced = false
                announce()
            }
        }
        pipe.condition.lock()
        pipe.finished = true
        pipe.condition.broadcast()
        pipe.condition.unlock()
    }
}
