import CarrelModel
import CarrelStore

/// Renames a sync engine makes in two steps: the old name renamed to the new
/// name's temporary (`SyncTemporary`), then the temporary to the new name.
/// Between the steps the item is held where the model has it, so its
/// folder's reading does not report it deleted, and the second step moves
/// it: clients see one move, as for a shell `mv`, and an open buffer
/// follows. The two steps may reach the server in different batches.
struct SyncRenames {
    struct Held {
        /// Where the model still shows the item, and under which name.
        let folder: Entry
        let name: [UInt8]
        /// The temporary it went to, in the new name's folder.
        let temporary: [UInt8]
        let sinceMs: Int64
    }

    private struct Key: Hashable {
        let folder: ObjectIdentifier
        let name: [UInt8]
    }

    /// By the temporary's folder and name.
    private var byTemporary: [Key: Held] = [:]
    /// The names held, by the folder the model shows them in.
    private var byOrigin: [Key: Int] = [:]

    /// The engine renames the temporary right after filling in its times
    /// and permissions; a temporary still there after this never became
    /// the file (the engine stopped, or removed it), so the item was
    /// deleted.
    static let lifetimeMs: Int64 = 2_000

    var isEmpty: Bool { byTemporary.isEmpty }

    mutating func hold(
        _ name: [UInt8], in folder: Entry, as temporary: [UInt8], in temporaryFolder: Entry, nowMs: Int64
    ) {
        let key = Key(folder: ObjectIdentifier(temporaryFolder), name: temporary)
        if let replaced = byTemporary[key] { release(replaced) }
        byTemporary[key] = Held(folder: folder, name: name, temporary: temporary, sinceMs: nowMs)
        byOrigin[Key(folder: ObjectIdentifier(folder), name: name), default: 0] += 1
    }

    /// The item held under `temporary`, no longer held.
    mutating func take(_ temporary: [UInt8], in temporaryFolder: Entry) -> Held? {
        guard
            let held = byTemporary.removeValue(forKey: Key(folder: ObjectIdentifier(temporaryFolder), name: temporary))
        else { return nil }
        release(held)
        return held
    }

    /// Whether the model keeps `name` in `folder` though the disk no longer has it.
    func holds(_ name: EntryName, in folder: Entry) -> Bool {
        !byOrigin.isEmpty && byOrigin[Key(folder: ObjectIdentifier(folder), name: name.bytes)] != nil
    }

    /// Holds that waited too long, no longer held.
    mutating func takeExpired(nowMs: Int64) -> [Held] {
        let expired = byTemporary.filter { nowMs - $0.value.sinceMs > Self.lifetimeMs }
        for (key, held) in expired {
            byTemporary[key] = nil
            release(held)
        }
        return Array(expired.values)
    }

    mutating func removeAll() -> [Held] {
        defer {
            byTemporary = [:]
            byOrigin = [:]
        }
        return Array(byTemporary.values)
    }

    private mutating func release(_ held: Held) {
        let key = Key(folder: ObjectIdentifier(held.folder), name: held.name)
        if let n = byOrigin[key], n > 1 { byOrigin[key] = n - 1 } else { byOrigin[key] = nil }
    }
}

extension Workspace {
    /// Ends the renames whose second step never came: each item is read
    /// as deleted from its folder. The owner calls this from its timer
    /// while `needsPolling` says so.
    func releaseUnfinishedSyncRenames(nowMs: Int64) -> [Change] {
        guard let state = watching, !state.syncRenames.isEmpty else { return [] }
        var changes: [Change] = []
        var folders: [ObjectIdentifier: Entry] = [:]
        for held in state.syncRenames.takeExpired(nowMs: nowMs) { folders[ObjectIdentifier(held.folder)] = held.folder }
        for folder in folders.values where library(of: folder) != nil { changes += reconcile(folder, bySync: true) }
        return changes
    }
}
