import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// Words are counted on the work thread a slice at a time, each slice a
/// job queued behind whatever arrived meanwhile, so requests never wait
/// for more than one slice.
extension Server {
    /// After the first tree answer: count whatever the model holds.
    func startCounting() {
        guard !countingStarted else { return }
        countingStarted = true
        workspace.queueUncountedWords()
        scheduleCounting()
    }

    /// A request waits at most about this long for a slice to end.
    static let countingSliceMs = 2

    func scheduleCounting() {
        guard countingStarted, !countingScheduled else { return }
        guard workspace.hasWordsToCount else { return announceEndedFirstCounts() }
        countingScheduled = true
        work.async { self.countSlice() }
    }

    private func countSlice() {
        countingScheduled = false
        guard state == .running else { return }
        let counted = workspace.countQueuedWords(milliseconds: Server.countingSliceMs)
        // A library's first count shows everywhere at once: one `changed` on
        // it, and clients refetch what they show. Later counts are a few
        // files: their rows and those above them.
        let ended = workspace.takeEndedFirstCounts()
        let endedRoots = Set(ended.map { ObjectIdentifier($0.root) })
        let rest = counted.filter { e in
            !endedRoots.contains(ObjectIdentifier(e.root)) && workspace.firstCountAnnounced(e.root)
                && e.root.wordsCounted
        }
        announce(ended)
        notifyWords(rest)
        scheduleCounting()
    }

    /// A first count can also end with no file left to read: the scan's
    /// last folders held none, or a change counted them in passing.
    func announceEndedFirstCounts() { announce(workspace.takeEndedFirstCounts()) }

    private func announce(_ ended: [Library]) {
        if !ended.isEmpty { notifyChanges(ended.map { Change(.changed, $0.root.path) }) }
    }

    /// `carrel/didChange` with no changes, only the rows whose words moved.
    func notifyWords(_ entries: [Entry]) {
        guard !entries.isEmpty, state == .running else { return }
        if extensions.didChange {
            let rows = workspace.rowsAbove(entries).map(renderer.node)
            guard !rows.isEmpty else { return }
            sendDidChange(DidChangeNotification.params([], updated: rows))
        }
        refreshInlayHints()
    }
}
