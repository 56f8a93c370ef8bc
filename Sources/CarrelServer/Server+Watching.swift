import CarrelWorkspace
import Foundation

/// Changes the watcher saw. The first batch after a quiet moment is told at
/// once, so a single change costs no wait; what follows it within the
/// moment is held until the disk has been quiet: a `git pull` or a sync
/// engine's burst is hundreds of inotify batches, and clients want one or
/// two `carrel/didChange` for it, not one each. The model is updated at
/// once; only the notification waits.
struct WatchedChanges {
    /// How long the disk must be quiet before clients are told.
    static let quietMs: UInt64 = 50
    /// Never holds a change back longer than this, however long the burst.
    static let longestMs: UInt64 = 1_000

    var changes: [Change] = []
    var firstNs: UInt64 = 0
    var lastNs: UInt64 = 0
    var flushScheduled = false
    /// The files whose contents the batch told at once changed: one more
    /// batch changing only them is the rest of the same save, not a burst.
    var toldContents: Set<[UInt8]> = []

    /// Whether a batch seen `now` is told at once rather than held: the
    /// first after a quiet moment, with nothing held; or, once, the rest of
    /// a save that batch told (a program truncates a file, then writes it:
    /// the words clients see must be those of the written file, without
    /// waiting for the quiet).
    mutating func tellsAtOnce(_ batch: [Change], now: UInt64) -> Bool {
        guard changes.isEmpty else { return false }
        let quiet = now &- lastNs >= Self.quietMs * 1_000_000
        let restOfSave =
            !toldContents.isEmpty && batch.allSatisfy { $0.kind == .changed && toldContents.contains($0.path) }
        guard quiet || restOfSave else { return false }
        lastNs = now
        toldContents = restOfSave ? [] : Set(batch.lazy.filter { $0.kind == .changed }.map(\.path))
        return true
    }

    mutating func add(_ more: [Change], now: UInt64) {
        toldContents = []
        if changes.isEmpty { firstNs = now }
        lastNs = now
        changes += more
    }

    /// Whether to tell clients now: quiet long enough, or held long enough.
    func due(now: UInt64) -> Bool {
        now &- lastNs >= Self.quietMs * 1_000_000 || now &- firstNs >= Self.longestMs * 1_000_000
    }

    mutating func take() -> [Change] {
        defer { changes = [] }
        return changes
    }
}

extension Server {
    /// Watches every folder read so far. Called before `initialize` is
    /// answered, not at `initialized`: a program may rename a file the moment
    /// the answer goes out, and only a watch already there sees that as one
    /// move (whose links the writer is offered to update) rather than a
    /// folder changed while unwatched, which `settle` can only read again.
    /// Batches are applied on the work thread, so none is told before the
    /// answer.
    func watchLibraries() {
        let inbox = watchInbox
        workspace.startWatching(
            log: { [log] in log.line($0) },
            deliver: { [weak self] events in
                // Queued here, in the watcher's order, rather than in the
                // block: a command that catches up with the watcher takes
                // the batches already handed on first, so none is applied
                // after a later one.
                inbox.append(events)
                guard let self else { return }
                self.work.async { self.applyWatchedEvents() }
            })
    }

    /// After `initialize` is answered: what changed between a folder's read
    /// and its watch, then polling and warming.
    func settleAndPoll() {
        notifyChanges(workspace.settle())
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.work.async {
                guard self.workspace.needsPolling else { return }
                self.notifyChanges(self.workspace.poll())
            }
        }
        timer.resume()
        pollTimer = timer
    }

    /// Applies the batches the watcher handed on. On the work thread.
    /// `forCommand`: a command runs next, and its notification carries
    /// these changes first; clients take the first `carrel/didChange` after
    /// a command's answer for the command's own, so none may come between.
    func applyWatchedEvents(forCommand: Bool = false) {
        for events in watchInbox.takeAll() {
            let changes = workspace.apply(events)
            let moves = outsideMovesOfLastBatch()
            if forCommand && !changes.isEmpty {
                watched.add(changes, now: DispatchTime.now().uptimeNanoseconds)
                scheduleFlush()
            } else {
                hold(changes)
            }
            offerLinkUpdates(moves)
        }
    }

    /// Brings the model up to what the kernel has reported so far, so a
    /// command acts on the disk as it was when the writer sent it: a file
    /// another program wrote a moment before is in the links a rename keeps
    /// true. On the work thread.
    func catchUpWithDisk() {
        workspace.catchUpWithWatcher()
        applyWatchedEvents(forCommand: true)
    }

    /// Keeps what the watcher saw for the next notification. On the work thread.
    func hold(_ changes: [Change]) {
        guard !changes.isEmpty else { return sendNotices() }
        let now = DispatchTime.now().uptimeNanoseconds
        if watched.tellsAtOnce(changes, now: now) { return notifyChanges(changes) }
        watched.add(changes, now: now)
        scheduleFlush()
    }

    private func scheduleFlush() {
        guard !watched.flushScheduled else { return }
        watched.flushScheduled = true
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(WatchedChanges.quietMs))) {
            [weak self] in
            guard let self else { return }
            self.work.async { self.flushWatched() }
        }
    }

    private func flushWatched() {
        watched.flushScheduled = false
        guard !watched.changes.isEmpty else { return }
        guard watched.due(now: DispatchTime.now().uptimeNanoseconds) else { return scheduleFlush() }
        notifyChanges(watched.take())
    }

    /// What the watcher saw and clients were not told yet, taken so that a
    /// command's notification comes after them, in the order things happened.
    func takeWatched() -> [Change] { watched.take() }
}

/// The batches the watcher handed on and the work thread has not applied.
final class WatchInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [WatchBatch] = []

    func append(_ events: WatchBatch) {
        lock.lock()
        batches.append(events)
        lock.unlock()
    }

    func takeAll() -> [WatchBatch] {
        lock.lock()
        defer { lock.unlock() }
        let out = batches
        batches = []
        return out
    }
}
