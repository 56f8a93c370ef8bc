import CarrelModel
import CarrelStore

/// The rows a batch of changes alters without adding or removing them:
/// every row above a changed path (its counts moved), and the changed row
/// itself for `changed` (its dates or settings moved). `carrel/didChange`
/// carries them, so a client patches the rows it shows instead of fetching
/// them again.
extension Workspace {
    public func updatedRows(_ changes: [Change]) -> [Item] {
        var rows = UpdatedRows()
        for change in changes {
            if change.kind == .changed, let (entry, library) = deepestEntry(change.path), entry.path == change.path {
                rows.addChain(from: entry, library)
            }
            if let (entry, library) = deepestEntry(BytePath.split(change.path).folder) {
                rows.addChain(from: entry, library)
            }
            if let old = change.oldPath, let (entry, library) = deepestEntry(BytePath.split(old).folder) {
                rows.addChain(from: entry, library)
            }
        }
        return rows.items
    }

    /// `entries` and every row above them, each once: what a recount changed.
    public func rowsAbove(_ entries: [Entry]) -> [Item] {
        var rows = UpdatedRows()
        for e in entries { if let library = library(of: e) { rows.addChain(from: e, library) } }
        return rows.items
    }

    /// The entry at `path`, or the deepest one above it that the model has.
    func deepestEntry(_ path: [UInt8]) -> (Entry, Library)? {
        let parts = path.split(separator: UInt8(ascii: "/"))
        for library in libraries.sorted(by: { $0.path.count > $1.path.count }) {
            for base in [library.path, library.realPath] {
                let baseParts = base.split(separator: UInt8(ascii: "/"))
                guard parts.count >= baseParts.count, zip(parts, baseParts).allSatisfy({ $0.elementsEqual($1) }) else {
                    continue
                }
                var entry = library.root
                for part in parts[baseParts.count...] {
                    guard let next = entry.child(EntryName(bytes: Array(part))) else { break }
                    entry = next
                }
                return (entry, library)
            }
        }
        return nil
    }
}

/// Rows in the order first met, each once.
struct UpdatedRows {
    var items: [Item] = []
    var seen = Set<ObjectIdentifier>()
    /// A project's section by index, or its "All" as index -1.
    var seenVirtual = Set<VirtualRow>()

    struct VirtualRow: Hashable {
        let project: ObjectIdentifier
        let index: Int
    }

    /// `entry` and every row above it up to its library. A row already
    /// added had its own ancestors added with it, so the walk stops there.
    mutating func addChain(from entry: Entry, _ library: Library) {
        var current: Entry? = entry
        while let e = current, seen.insert(ObjectIdentifier(e)).inserted {
            items.append(.entry(e, library))
            if let parent = e.parent, let project = library.project(at: parent) {
                addVirtualRows(above: e, in: project, library)
            }
            current = e.parent
        }
    }

    /// The section that shows `child` of a project root, and the project's "All".
    private mutating func addVirtualRows(above child: Entry, in project: Project, _ library: Library) {
        let permanent = project.permanentFolder(for: child)
        let index =
            permanent.flatMap { folder in project.type.sections.firstIndex { $0.folders.contains(folder) } } ?? 0
        let id = ObjectIdentifier(project.root)
        if seenVirtual.insert(VirtualRow(project: id, index: index)).inserted {
            items.append(.section(project, index: index, library))
        }
        if permanent?.role != .trash, seenVirtual.insert(VirtualRow(project: id, index: -1)).inserted {
            items.append(.all(project, library))
        }
    }
}
