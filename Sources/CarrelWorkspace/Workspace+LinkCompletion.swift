import CarrelModel

extension Workspace {
    /// The files a link may be completed with: the library's Markdown and
    /// Fountain files outside the Trash, as library paths.
    public func linkableFiles(_ library: Library) -> [[String]] {
        var out: [[String]] = []
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        library.root.walk { e in
            if trashes.contains(ObjectIdentifier(e)) { return false }
            if e.kind == .file, Self.hasLinks(e.name.string), let p = libraryPath(of: e, in: library) { out.append(p) }
            return e.kind == .directory
        }
        return out
    }
}
