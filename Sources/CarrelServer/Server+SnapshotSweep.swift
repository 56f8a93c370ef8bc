import CarrelWorkspace

extension Server {
    /// After the first tree answer, once: the snapshot folders walked for
    /// temporaries no note of this device's names (`Workspace.sweepSnapshotTemporaries`).
    /// An open reads only the notes, so the walk is kept out of it; queued
    /// as one job, behind the first view and whatever came with it.
    func sweepSnapshotTemporariesOnce() {
        guard !snapshotSweepQueued else { return }
        snapshotSweepQueued = true
        work.async {
            guard self.state == .running else { return }
            self.workspace.sweepSnapshotTemporaries()
        }
    }
}
