import CarrelProtocol
import CarrelWorkspace
import Foundation

/// The server's side of the background scan: `initialize` answers once each
/// library's top levels are read, and the rows above each folder read later
/// are sent as `updated` rows of a `carrel/didChange` with no changes.
extension Server {
    /// Set to 1, keeps the background scan's subtrees back until a request
    /// needs everything; set to `reads`, its reading too: what tests use to
    /// see the rows before the deep folders arrive. Documented under
    /// "Debugging" in PROTOCOL.md.
    static let holdScanVariable = "CARREL_HOLD_SCAN"

    func startDeepScan() {
        let hold: Workspace.ScanHold
        switch ProcessInfo.processInfo.environment[Self.holdScanVariable] {
        case "1": hold = .results
        case "reads": hold = .reads
        default: hold = .none
        }
        workspace.scanDeepFoldersInBackground(hold: hold, waitingToStart: true) { [weak self] in
            guard let self else { return }
            self.work.async { self.applyFinishedScans() }
        }
    }

    /// How long after `initialize` is answered the background scan starts
    /// reading at the latest, when no `carrel/tree` came first (a stock
    /// client asks for none).
    static let deepReadingStartsWithin = 100

    /// The background scan waits for the first `carrel/tree`: on two cores,
    /// its three threads reading beside the work thread made that answer,
    /// the first view's, wait 15 ms. It starts once that is answered, or
    /// `deepReadingStartsWithin` ms after `initialize`'s answer.
    func startDeepReadingSoon() {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Self.deepReadingStartsWithin)) {
            [weak self] in
            guard let self else { return }
            self.work.async { self.workspace.startReadingDeepFolders() }
        }
    }

    /// Runs on `work` when the scan announces finished subtrees.
    func applyFinishedScans() {
        let changes = workspace.applyFinishedScans()
        sendScanProgress(changes)
    }

    /// Waits for the whole scan: for requests that need every folder.
    func finishScan() {
        guard workspace.isScanning else { return }
        let changes = workspace.finishScan()
        sendScanProgress(changes)
    }

    /// The rows whose counts moved as folders were read, then whatever
    /// changed on disk between a folder's read and its watch.
    func sendScanProgress(_ changes: [Change] = []) {
        let rows = workspace.takeScanProgress()
        if !rows.isEmpty, state == .running, extensions.didChange {
            let r = renderer
            sendDidChange(DidChangeNotification.params([], updated: rows.map(r.node)))
        }
        notifyChanges(changes + workspace.settle())
        // The files just read are counted like the others.
        scheduleCounting()
    }
}
