import CarrelModel
import CarrelStore

/// Submitted pieces that another program on this device renamed or moved,
/// both halves seen by the watcher, keep their records, as after Carrel's
/// own rename: otherwise the row would show no submissions. Not a sync
/// engine's rename (paired through its temporary) nor one paired by
/// identity, which may be Syncthing's too: the machine that renamed
/// rewrote the records, and sync brings them, which a write here would
/// turn into a conflict.
extension Workspace {
    /// The records naming the item about to be moved, as `piecesBelow` finds them.
    func piecesBeforeWatchedMove(_ fromDir: Entry, _ fromName: [UInt8]) -> (Project, String, [String])? {
        guard let e = fromDir.child(EntryName(bytes: fromName)), let library = library(of: e) else { return nil }
        return piecesBelow(e, library)
    }

    /// After the model moved the item: its records name where it is now.
    func carryPieces(_ before: (Project, String, [String])?, to dir: Entry, _ name: [UInt8]) {
        guard let before, let e = dir.child(EntryName(bytes: name)), let library = library(of: e) else { return }
        carryPieces(e, from: before, library)
    }
}
