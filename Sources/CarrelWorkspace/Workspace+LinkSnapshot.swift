import CarrelModel

/// The links as they were before a move Carrel made, rebuilt after it, so
/// the command takes nothing before its move and its `carrel/didChange`
/// waits for no link work: the index (completed now if it must be) after
/// the owner noted the move, with the moved files put back where they were.
/// A move changes no file's text, so nothing moved is read again.
extension Workspace {
    public func linkSnapshot(_ library: Library, afterMaking move: LinkMove) -> LinkSnapshot {
        var table = linkIndex(library).table
        var wiki = wikiNames(library)
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        for pair in move.pairs {
            guard let top = entry(at: pair.to, in: library) else { continue }
            for (path, links) in table.remove(under: pair.to, isFile: top.kind == .file) {
                let old = pair.from + path[pair.to.count...]
                table.set(old, links.map { Self.moved($0, to: old) })
            }
            let leftTrash = entry(at: Array(pair.from.dropLast()), in: library).map { Self.isInTrash($0, trashes) }
            top.walk { e in
                guard e.kind == .file, let p = libraryPath(of: e, in: library) else { return e.kind == .directory }
                wiki.remove(p)
                if leftTrash != true { wiki.add(pair.from + p[pair.to.count...]) }
                return false
            }
        }
        return LinkSnapshot(table: table, wiki: wiki)
    }
}
