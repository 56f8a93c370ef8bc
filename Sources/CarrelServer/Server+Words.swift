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
        guard countingStarted, !countingScheduled, workspace.hasWordsToCount else { return }
        countingScheduled = true
        work.async { self.countSlice() }
    }

    private func countSlice() {
        countingScheduled = false
        guard state == .running else { return }
        let uncountedBefore = workspace.libraries.filter { !$0.root.wordsCounted }
        let counted = workspace.countQueuedWords(milliseconds: Server.countingSliceMs)
        // A library's first count shows everywhere at once: one `changed` on
        // it, and clients refetch what they show. Later counts are a few
        // files: their rows and those above them.
        let finished = uncountedBefore.filter { $0.root.wordsCounted }
        let finishedRoots = Set(finished.map { ObjectIdentifier($0.root) })
        let rest = counted.filter { e in
            !finishedRoots.contains(ObjectIdentifier(e.root)) && e.root.wordsCounted
        }
        if !finished.isEmpty { notifyChanges(finished.map { Change(.changed, $0.root.path) }) }
        notifyWords(rest)
        scheduleCounting()
    }

    /// `carrel/didChange` with no changes, only the rows whose words moved.
    func notifyWords(_ entries: [Entry]) {
        guard !entries.isEmpty, state == .running else { return }
        let rows = workspace.rowsAbove(entries).map(renderer.node)
        guard !rows.isEmpty else { return }
        send(Envelope.notification(DidChangeNotification.method, DidChangeNotification.params([], updated: rows)))
        refreshInlayHints()
    }
}
