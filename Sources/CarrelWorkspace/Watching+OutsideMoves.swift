import CarrelModel

/// Which moves the watcher saw were made by a program on this machine (a
/// shell's `mv`, a file manager, `git mv`), whose links the writer may want
/// kept true, and which arrived by sync, whose links the other machine
/// already kept (or chose not to): updating those here would write the same
/// files sync is bringing, and make conflicts.
///
/// A move is taken as local only when the kernel paired it by cookie (one
/// rename(2) from a watched folder to a watched folder) and neither folder
/// saw a sync engine's temporary in the batch. Syncthing never renames so:
/// a rename made on another machine arrives through the new name's
/// temporary (`Watching+SyncRenames.swift`), a folder renamed there as files
/// moved in through temporaries and paired by identity
/// (`Watching+IdentityMoves.swift`); git's checkouts and pulls delete and
/// create. Both are left out. An engine that applies a remote rename as one
/// plain rename (Dropbox) cannot be told apart from a shell's, so its
/// renames are offered too; the writer's answer (or "never") decides.
extension Workspace {
    static func outsideMoves(
        _ paired: [(change: Change, from: Entry, to: Entry)], syncMade: [ObjectIdentifier: Entry]
    ) -> [Change] {
        paired.filter { m in
            !m.change.inTrash && syncMade[ObjectIdentifier(m.from)] == nil && syncMade[ObjectIdentifier(m.to)] == nil
        }.map(\.change)
    }

    /// The local moves seen since last asked, each once.
    public func takeOutsideMoves() -> [Change] {
        guard let state = watching else { return [] }
        defer { state.outsideMoves = [] }
        return state.outsideMoves
    }

    /// The links as they were before `move`, which the model has already
    /// made: the index (kept as it was until the owner notes the batch's
    /// changes), with each file it does not hold yet read where it now is
    /// and indexed where it was; and the wikilink names of the files before
    /// the move. Until its first need the index holds only what counting
    /// read, and a move may come at any moment of the first count.
    public func linkSnapshot(_ library: Library, undoing move: LinkMove) -> LinkSnapshot {
        let back = LinkMove(move.pairs.map { LinkMove(from: $0.to, to: $0.from) })
        let built = linkIndexes[ObjectIdentifier(library.root)]
        let complete = built?.complete == true
        var files = built?.table.files ?? [:]
        var before: [[String]] = []
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        library.root.walk { e in
            guard e.kind == .file, let p = libraryPath(of: e, in: library) else { return e.kind == .directory }
            let old = back.map(p) ?? p
            if !e.isDescendant(ofAny: trashes) { before.append(old) }
            if !complete, !e.readWithoutLinks, files[old] == nil, Self.hasLinks(e.name.string),
                let text = bufferText(e) ?? readWithStamp(e, library)?.bytes
            {
                files[old] = Self.indexed(text, from: old)
            }
            return false
        }
        let table = complete ? built?.table : nil
        return LinkSnapshot(table: table ?? LinkTable(files: files), wiki: WikiNames(files: before))
    }
}

extension Entry {
    fileprivate func isDescendant(ofAny folders: Set<ObjectIdentifier>) -> Bool {
        var e = parent
        while let p = e {
            if folders.contains(ObjectIdentifier(p)) { return true }
            e = p.parent
        }
        return false
    }
}
