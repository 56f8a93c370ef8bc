import CarrelModel

/// Where a row that a change added, moved or re-dated now stands in the
/// listing that shows it, so a client inserts it there instead of fetching
/// the whole listing again: a new file in a folder of a thousand is one row.
public struct Placement {
    /// The row itself.
    public let item: Item
    /// The row whose listing holds it: its folder, or the project's section
    /// that shows a project root's item.
    public let parent: Item
    /// The row just before it in that listing; nil when it comes first.
    public let after: Item?
}

extension Workspace {
    /// More rows than this in one notification are not placed: clients fetch
    /// the listings instead, so a burst never makes a giant message.
    public static let placedLimit = 200

    /// The placements of the rows `changes` added or moved (`created`,
    /// `moved`) and of files whose times changed (`changed`: a sort by date
    /// may move them), in listings a client was sent, each listing's rows in
    /// its display order, so that
    /// every `after` is a row already there or one placed before it. Nil
    /// when they are more than `limit`, or when one cannot be placed.
    public func placedRows(_ changes: [Change], limit: Int = Workspace.placedLimit) -> [Placement]? {
        var targets: [ObjectIdentifier: (Entry, Library)] = [:]
        var order: [ObjectIdentifier] = []
        for change in changes where change.kind != .deleted {
            // A row in a listing no client was sent has nowhere to go: its counts come in `updated`.
            guard let (entry, library) = deepestEntry(change.path), entry.path == change.path,
                entry !== library.root, entry.parent?.listed == true
            else { continue }
            // A folder's own `changed` is a new order, or a project's a setting: the client fetches those.
            if change.kind == .changed, entry.kind == .directory { continue }
            let id = ObjectIdentifier(entry)
            if targets.updateValue((entry, library), forKey: id) == nil { order.append(id) }
            if targets.count > limit { return nil }
        }
        // Grouped by listing, in the order each listing was first met.
        var listings: [(parent: Item, members: Set<ObjectIdentifier>)] = []
        var listingOf: [ListingKey: Int] = [:]
        for id in order {
            guard let (entry, library) = targets[id], let parent = entry.parent else { return nil }
            let (item, key) = listingRow(holding: entry, under: parent, library)
            if let at = listingOf[key] {
                listings[at].members.insert(id)
            } else {
                listingOf[key] = listings.count
                listings.append((item, [id]))
            }
        }
        var placed: [Placement] = []
        for (parent, members) in listings {
            var found = 0
            var previous: Item?
            for child in children(parent) {
                if case .entry(let e, _) = child, members.contains(ObjectIdentifier(e)) {
                    placed.append(Placement(item: child, parent: parent, after: previous))
                    found += 1
                }
                previous = child
            }
            // A row its listing does not show cannot be placed: the client fetches the listing.
            guard found == members.count else { return nil }
        }
        return placed
    }

    private struct ListingKey: Hashable {
        let folder: ObjectIdentifier
        let section: Int
    }

    /// The row whose listing shows `entry`: its folder, or for an item of a
    /// project root, the section that lists it.
    private func listingRow(holding entry: Entry, under parent: Entry, _ library: Library) -> (Item, ListingKey) {
        guard let project = library.project(at: parent) else {
            return (.entry(parent, library), ListingKey(folder: ObjectIdentifier(parent), section: -1))
        }
        let permanent = project.permanentFolder(for: entry)
        let index =
            permanent.flatMap { folder in project.type.sections.firstIndex { $0.folders.contains(folder) } } ?? 0
        return (.section(project, index: index, library), ListingKey(folder: ObjectIdentifier(parent), section: index))
    }
}
