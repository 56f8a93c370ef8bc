import CarrelModel

/// A folder an item can be moved into, with the path a picker shows.
public struct Destination {
    public let folder: Entry
    /// Titles from the library down to the folder: "Writing › My Poems › Draft".
    public let label: [String]
}

extension Workspace {
    /// Every folder `move` would accept for `target` and that would change
    /// something, in display order: its library's folders, a project's
    /// permanent folders in template order, its own project's Trash (a
    /// delete); never the item itself or what it holds, its own folder,
    /// "All", another project's Trash or anything in a Trash, links, or
    /// folders Carrel may not read. `forNewFolder`: where "New folder…"
    /// may make a folder to move the item into: its own folder too, and no
    /// Trash, since nothing made there could be moved into.
    public func moveDestinations(
        _ target: Target, _ language: Language, forNewFolder: Bool = false
    ) throws(Failure) -> [Destination] {
        let (entry, library) = try entryTarget(target)
        try checkMovable(entry, library)
        if library.project(at: entry) != nil { throw Failure(.conflict, .projectMove(name: entry.name.string)) }
        let home = library.project(containing: entry)
        var out: [Destination] = []
        // Depth first in display order; a Trash is offered but never entered.
        var pending: [(folder: Entry, label: [String], enter: Bool)] = [(library.root, [library.displayName], true)]
        while let (folder, label, enter) = pending.popLast() {
            if folder !== entry.parent || forNewFolder { out.append(Destination(folder: folder, label: label)) }
            guard enter else { continue }
            var below: [(Entry, [String], Bool)] = []
            for child in folders(in: folder, library)
            where child !== entry && !child.unreadable && library.lock(containing: child) == nil {
                let project = library.project(containing: child)
                let title = project?.permanentFolder(for: child)?.title(language) ?? child.name.string
                if let p = project, child === p.trash {
                    if p === home && !p.isInTrash(entry) && !forNewFolder {
                        below.append((child, label + [title], false))
                    }
                    continue
                }
                below.append((child, label + [title], true))
            }
            pending.append(contentsOf: below.reversed())
        }
        return out
    }

    /// The real folders shown under `folder`, in display order, a project's
    /// sections flattened.
    private func folders(in folder: Entry, _ library: Library) -> [Entry] {
        var out: [Entry] = []
        for item in children(.entry(folder, library)) {
            switch item {
            case .entry(let e, _): if e.kind == .directory { out.append(e) }
            case .section:
                for case .entry(let e, _) in children(item) where e.kind == .directory { out.append(e) }
            case .all: break
            }
        }
        return out
    }

    /// The markets `target` can be submitted to: the folders directly in
    /// its project's Magazines, Competitions, Commissions and Other, in
    /// template order, then by name. Empty outside a project or when it has
    /// no market yet; a target in the Trash has none.
    public func submitDestinations(_ target: Target, _ language: Language) throws(Failure) -> [Destination] {
        let (entry, library) = try entryTarget(target)
        guard let project = library.project(containing: entry), !project.isInTrash(entry) else { return [] }
        let projectLabel = [library.displayName] + (project.root.components(below: library.root) ?? []).map(\.string)
        return markets(of: project).compactMap { market in
            guard let holder = market.parent, let folder = project.permanentFolder(for: holder) else { return nil }
            return Destination(folder: market, label: projectLabel + [folder.title(language), market.name.string])
        }
    }
}
