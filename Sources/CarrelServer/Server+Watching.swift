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

    /// Whether a batch seen `now` is the first after a quiet moment, with
    /// nothing held: then it is told at once.
    func leads(now: UInt64) -> Bool {
        changes.isEmpty && now &- lastNs >= Self.quietMs * 1_000_000
    }

    mutating func add(_ more: [Change], now: UInt64) {
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
    func startWatching() {
        workspace.startWatching(
            log: { [log] in log.line($0) },
            deliver: { [weak self] events in
                guard let self else { return }
                self.work.async { self.hold(self.workspace.apply(events)) }
            })
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
        // Warm the symbol index once the first requests had their turn, so the
        // first search does not pay for folding every name. While the scan
        // runs, its end warms it instead.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { [weak self] in
            guard let self else { return }
            self.work.async { if !self.workspace.isScanning { self.warmSymbolIndexes() } }
        }
    }

    /// Keeps what the watcher saw for the next notification. On the work thread.
    func hold(_ changes: [Change]) {
        guard !changes.isEmpty else { return sendNotices() }
        let now = DispatchTime.now().uptimeNanoseconds
        if watched.leads(now: now) {
            watched.lastNs = now
            return notifyChanges(changes)
        }
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
