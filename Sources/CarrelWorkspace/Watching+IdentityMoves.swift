import CarrelModel
import CarrelStore

/// Files that left one place and turned up at another where no event paired
/// the two, known by their identity (`Entry.identity`: device and inode).
/// A folder renamed on another machine reaches this one through Syncthing
/// as a new folder, each file renamed into it, and the old folder removed:
/// a file renamed in before the new folder's watch shows only as a name
/// gone from the old folder (an IN_MOVED_FROM nothing pairs) and one found
/// when the new folder is read. A polled folder (no watch left) shows any
/// rename so. Pairing the two by identity tells clients `moved`, so an open
/// buffer follows, and keeps the model's entry (its words).
///
/// Either side may come first: the file is read in the new folder while
/// its IN_MOVED_FROM is still queued, or the IN_MOVED_FROM comes first and
/// the file is found later. So each side waits, at most `lifetimeMs`:
/// a file that may have moved is held where the model shows it (a folder
/// read skips it, as a sync rename's first half), and a file found is
/// remembered. Only files: a folder's watch is the folder's inode's, and
/// Syncthing never moves a folder anyway.
struct IdentityMoves {
    struct Held {
        let entry: Entry
        /// Where the model shows it, and under which name.
        let folder: Entry
        let name: EntryName
        let sinceMs: Int64
    }

    private struct Key: Hashable {
        let folder: ObjectIdentifier
        let name: EntryName
    }

    private var held: [UInt64: Held] = [:]
    private var heldNames: Set<Key> = []
    private var found: [UInt64: (entry: Entry, sinceMs: Int64)] = [:]

    /// As long as a sync rename's hold: a move's two sides are two system
    /// calls of one program, a few milliseconds apart.
    static let lifetimeMs: Int64 = SyncRenames.lifetimeMs

    var isEmpty: Bool { held.isEmpty }

    /// Whether `entry` may be a file that moved: a file whose identity is known.
    static func mayPair(_ entry: Entry) -> Bool { entry.kind == .file && entry.identity != 0 }

    mutating func hold(_ entry: Entry, nowMs: Int64) {
        guard Self.mayPair(entry), let folder = entry.parent else { return }
        if let replaced = held[entry.identity] {
            heldNames.remove(Key(folder: ObjectIdentifier(replaced.folder), name: replaced.name))
        }
        held[entry.identity] = Held(entry: entry, folder: folder, name: entry.name, sinceMs: nowMs)
        heldNames.insert(Key(folder: ObjectIdentifier(folder), name: entry.name))
    }

    func holds(_ name: EntryName, in folder: Entry) -> Bool {
        !heldNames.isEmpty && heldNames.contains(Key(folder: ObjectIdentifier(folder), name: name))
    }

    /// The held file `identity` names, no longer held.
    mutating func takeHeld(_ identity: UInt64) -> Held? {
        guard !held.isEmpty, let h = held.removeValue(forKey: identity) else { return nil }
        heldNames.remove(Key(folder: ObjectIdentifier(h.folder), name: h.name))
        return h
    }

    /// Ends `entry`'s hold, if it is held: an event said where it went.
    mutating func release(_ entry: Entry) {
        guard !held.isEmpty, let h = held[entry.identity], h.entry === entry else { return }
        _ = takeHeld(entry.identity)
    }

    mutating func remember(_ entry: Entry, nowMs: Int64) {
        if Self.mayPair(entry) { found[entry.identity] = (entry, nowMs) }
    }

    /// The file found lately with `identity`, forgotten.
    mutating func takeFound(_ identity: UInt64) -> Entry? {
        guard !found.isEmpty else { return nil }
        return found.removeValue(forKey: identity)?.entry
    }

    mutating func forgetOldFound(nowMs: Int64) {
        if !found.isEmpty { found = found.filter { nowMs - $0.value.sinceMs <= Self.lifetimeMs } }
    }

    /// Holds that waited too long, no longer held.
    mutating func takeExpired(nowMs: Int64) -> [Held] {
        forgetOldFound(nowMs: nowMs)
        let expired = held.filter { nowMs - $0.value.sinceMs > Self.lifetimeMs }
        for (identity, _) in expired { _ = takeHeld(identity) }
        return Array(expired.values)
    }

    mutating func removeAll() {
        held = [:]
        heldNames = []
        found = [:]
    }
}

extension Workspace {
    /// `gone` (a file still in the model) left its place: the move's other
    /// side if it was found lately, else nil.
    func pairGone(_ gone: Entry) -> Change? {
        guard let state = watching, IdentityMoves.mayPair(gone),
            let fresh = state.identityMoves.takeFound(gone.identity)
        else { return nil }
        return replace(fresh, by: gone)
    }

    /// `fresh` was just found on disk: the file held with its identity,
    /// moved to it, or nil.
    func pairFound(_ fresh: Entry) -> Change? {
        guard let state = watching, IdentityMoves.mayPair(fresh),
            let held = state.identityMoves.takeHeld(fresh.identity)
        else { return nil }
        guard held.entry.parent === held.folder, held.entry.name == held.name else { return nil }
        return replace(fresh, by: held.entry)
    }

    /// Puts `known` where `fresh` is, under its name; `fresh` leaves the model.
    private func replace(_ fresh: Entry, by known: Entry) -> Change? {
        guard known !== fresh, known.kind == fresh.kind, let to = fresh.parent, to.child(fresh.name) === fresh,
            library(of: known) != nil, library(of: to) === library(of: known)
        else { return nil }
        let old = known.path
        to.remove(fresh)
        known.move(to: to, as: fresh.name)
        known.modified = fresh.modified
        watching?.identityMoved.insert(known.path)
        return Change(.moved, known.path, from: old, inTrash: inTrashFlag(known))
    }

    /// Files found below `top` (just read) that were held: moved there.
    func pairFound(below top: Entry) -> [Change] {
        guard let state = watching, !state.identityMoves.isEmpty else { return [] }
        var files: [Entry] = []
        top.walk { e in
            if e.kind == .file { files.append(e) }
            return e.kind == .directory
        }
        return files.compactMap { pairFound($0) }
    }

    /// Remembers every file below `top` (just read), for a move whose
    /// leaving is still to be read.
    func rememberFound(below top: Entry, nowMs: Int64) {
        guard let state = watching else { return }
        top.walk { e in
            state.identityMoves.remember(e, nowMs: nowMs)
            return e.kind == .directory
        }
    }

    /// Ends the holds whose file never turned up: each reads as deleted
    /// from its folder, or from the nearest folder above still on disk.
    func releaseUnpairedIdentityMoves(nowMs: Int64) -> [Change] {
        guard let state = watching else { return [] }
        var folders: [ObjectIdentifier: Entry] = [:]
        for held in state.identityMoves.takeExpired(nowMs: nowMs) {
            var folder: Entry? = held.folder
            while let f = folder, library(of: f) != nil, Scanner.stat(f.path) == nil { folder = f.parent }
            if let f = folder { folders[ObjectIdentifier(f)] = f }
        }
        var changes: [Change] = []
        for folder in folders.values where library(of: folder) != nil { changes += reconcile(folder, bySync: true) }
        return changes
    }
}
