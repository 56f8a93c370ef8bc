import CarrelModel
import CarrelStore

/// A project: a folder holding `.carrel/project.json`.
public final class Project {
    public let root: Entry
    public internal(set) var metadata: ProjectMetadata
    public var type: ProjectType { metadata.type }
    /// Its submission records as last read; nil until needed, and again
    /// whenever they may have changed (`Workspace.submissionIndex`).
    public internal(set) var submissions: SubmissionIndex?

    init(root: Entry, metadata: ProjectMetadata) {
        self.root = root
        self.metadata = metadata
    }

    /// The permanent folder `entry` is, if it is one.
    public func permanentFolder(for entry: Entry) -> PermanentFolder? {
        guard entry.parent === root, entry.kind == .directory else { return nil }
        if let folder = type.directories.first(where: { metadata.path(of: $0) == entry.name.string }) { return folder }
        return entry.name.string == PermanentFolder.compiled.diskName ? .compiled : nil
    }

    public func entry(for folder: PermanentFolder) -> Entry? {
        guard let path = metadata.path(of: folder) else { return nil }
        return root.child(path).flatMap { $0.kind == .directory ? $0 : nil }
    }

    public var trash: Entry? { entry(for: .trash) }
    /// Compiled manuscripts, once a compile made the folder: counted in no total.
    public var compiled: Entry? { entry(for: .compiled) }

    /// `entry`'s path below the root, "/"-separated: how targets are keyed;
    /// the root itself is `ProjectMetadata.projectTargetKey`.
    public func relativePath(of entry: Entry) -> String {
        guard entry !== root, let names = entry.components(below: root) else {
            return ProjectMetadata.projectTargetKey
        }
        return names.map(\.string).joined(separator: "/")
    }

    /// Strictly inside the Trash folder.
    public func isInTrash(_ entry: Entry) -> Bool {
        guard let t = trash, entry !== t else { return false }
        return entry.isDescendant(of: t)
    }

    /// What "All" lists: the project's files outside Trash, in the
    /// project's order. Kept until anything below the library root `top`
    /// changes: the full tree lists every project's files there a second
    /// time, and walking and sorting them on every request was a tenth of
    /// its cost.
    public func allFiles(under top: Entry, in library: Library) -> [Entry] {
        let folder = type.folder(.all) ?? .allOfWriting
        let sources: [Entry]
        switch folder.contents {
        case .wholeProject: sources = [root]
        case .filesOf(let roles): sources = roles.compactMap { type.folder($0).flatMap(entry(for:)) }
        case .directory: sources = []
        }
        let trash = self.trash
        let compiled = self.compiled
        let key = AllFilesKey(
            generation: top.generation, dates: top.datesGeneration, order: metadata.sort,
            folderSorts: metadata.folderSorts, orders: library.ordersGeneration,
            sources: sources.map(ObjectIdentifier.init), trash: trash.map(ObjectIdentifier.init))
        if let cached = allFilesCache, cached.key == key { return cached.files }
        // Folders are walked in display order, so files with the same name
        // keep their folders' order: a walk in hash order shuffled them
        // from one start to the next.
        var files: [Entry] = []
        var stack: [Entry] = sources.reversed()
        while let e = stack.popLast() {
            if e === trash || e === compiled { continue }
            if e.kind == .file { files.append(e) }
            if e.kind == .directory { stack.append(contentsOf: library.displayOrder(of: e, in: self).reversed()) }
        }
        // In binder order the walk is the order: folders in template order,
        // each folder's files as it orders them.
        var sorted = metadata.sort.by == .manual ? files : Ordering.sorted(files, metadata.sort)
        if top.conflictTotal > 0 { sorted = Entry.copiesAfterOriginals(sorted) }
        allFilesCache = (key, sorted)
        return sorted
    }

    private struct AllFilesKey: Equatable {
        let generation: Int
        let dates: UInt32
        let order: SortSetting
        let folderSorts: [String: SortSetting]
        let orders: Int
        let sources: [ObjectIdentifier]
        let trash: ObjectIdentifier?
    }

    private var allFilesCache: (key: AllFilesKey, files: [Entry])?

    /// The top-level Trash item containing `entry` (or `entry` itself).
    public func trashItem(containing entry: Entry) -> Entry? {
        guard let t = trash else { return nil }
        var e = entry
        while let p = e.parent {
            if p === t { return e }
            e = p
        }
        return nil
    }
}

/// A library: one workspace folder. It is a project itself, or holds projects
/// as direct subfolders next to plain folders and files.
public final class Library {
    public let root: Entry
    /// The path as the client named it, and its real path (symlinks resolved).
    public let path: [UInt8]
    public let realPath: [UInt8]
    public internal(set) var projects: [ObjectIdentifier: Project] = [:]
    /// Projects whose project.json this Carrel must not touch (too new, or unreadable).
    public internal(set) var lockedProjects: [ObjectIdentifier: Failure] = [:]
    public internal(set) var settings: LibrarySettings
    /// Each folder's binder order as its order file holds it, for folders
    /// that have one (`Workspace+Order.swift`).
    var orders: [ObjectIdentifier: KnownOrder] = [:]
    private var ordersToPruneAt = 64
    /// Bumped on every change of a binder order, for lists cached across folders ("All").
    public internal(set) var ordersGeneration = 0
    /// Whether `.gitattributes` was checked for the order files' merge rule this session.
    var mergeRuleDeclared = false

    init(path: [UInt8], realPath: [UInt8]) {
        self.path = path
        self.realPath = realPath
        self.root = Entry(name: EntryName(bytes: path), kind: .directory)
        self.settings = StateFiles.settings(for: path)
    }

    public var displayName: String {
        let parts = path.split(separator: UInt8(ascii: "/"))
        return parts.last.map { String(decoding: $0, as: UTF8.self) } ?? "/"
    }

    public func project(at entry: Entry) -> Project? { projects[ObjectIdentifier(entry)] }

    /// Folders the first scan has not read yet (`Workspace+DeepScan.swift`).
    /// A pending folder has no children in the model until it is read.
    public private(set) var pending: [ObjectIdentifier: Entry] = [:]
    private var pendingRevision = 0
    private var countingCache: (generation: Int, revision: Int, rows: Set<ObjectIdentifier>)?

    public func isPending(_ entry: Entry) -> Bool { !pending.isEmpty && pending[ObjectIdentifier(entry)] != nil }

    func markPending(_ entry: Entry) {
        pending[ObjectIdentifier(entry)] = entry
        pendingRevision += 1
    }

    func clearPending(_ entry: Entry) {
        if pending.removeValue(forKey: ObjectIdentifier(entry)) != nil { pendingRevision += 1 }
    }

    /// Whether the first scan has read every folder of the library. A
    /// pending folder deleted meanwhile is forgotten here: no scan will
    /// read it, and it must not hold back what waits for the scan.
    public func allFoldersRead() -> Bool {
        guard !pending.isEmpty else { return true }
        let gone = pending.filter { $0.value.root !== root }.map(\.key)
        for id in gone { pending[id] = nil }
        if !gone.isEmpty { pendingRevision += 1 }
        return pending.isEmpty
    }

    /// Whether a pending folder lies at or below `entry`: its counts are partial.
    public func isCounting(_ entry: Entry) -> Bool {
        guard !pending.isEmpty else { return false }
        return countingRows().contains(ObjectIdentifier(entry))
    }

    /// Every pending folder and its ancestors. Kept until anything below
    /// the root comes, goes or moves, or a folder is read: a depth-2 tree
    /// asks for each row.
    private func countingRows() -> Set<ObjectIdentifier> {
        if let c = countingCache, c.generation == root.generation, c.revision == pendingRevision { return c.rows }
        var rows = Set<ObjectIdentifier>()
        var gone: [ObjectIdentifier] = []
        for (id, e) in pending {
            // Deleted meanwhile (by a command or another program): nothing to count.
            guard e.root === root else { gone.append(id); continue }
            var up: Entry? = e
            while let x = up, rows.insert(ObjectIdentifier(x)).inserted { up = x.parent }
        }
        for id in gone { pending[id] = nil }
        if !gone.isEmpty { pendingRevision += 1 }
        countingCache = (root.generation, pendingRevision, rows)
        return rows
    }

    /// Every file in the library but those in its projects' Trash.
    public var fileTotalOutsideTrash: Int {
        projects.values.reduce(root.fileTotal) { $0 - ($1.trash?.fileTotal ?? 0) }
    }

    /// Sync engines' conflict copies in the library, those in a Trash left out.
    public var conflictTotalOutsideTrash: Int {
        projects.values.reduce(Int(root.conflictTotal)) { $0 - Int($1.trash?.conflictTotal ?? 0) }
    }

    /// The project containing `entry` (or being it), if any.
    public func project(containing entry: Entry) -> Project? {
        if let p = projects[ObjectIdentifier(entry)] { return p }
        guard let parent = entry.parent else { return nil }
        if let p = projects[ObjectIdentifier(parent)] { return p }
        if parent === root { return nil }
        // Projects are the root or its direct children: check the child of root on the way.
        var e = entry
        while let p = e.parent, p !== root { e = p }
        return projects[ObjectIdentifier(e)] ?? projects[ObjectIdentifier(root)]
    }

    /// The children of the folder `entry` in display order, by the sort in
    /// force there: the folder's own, else its project's, else the library's.
    public func displayOrder(of entry: Entry, in project: Project?) -> [Entry] {
        entry.sortedChildren(sort(inside: entry, project), binder: binderOrder(of: entry))
    }

    /// The sort in force for the children of `entry`.
    public func sort(inside entry: Entry, _ project: Project?) -> SortSetting {
        guard let project else { return settings.sort }
        let meta = project.metadata
        if meta.folderSorts.isEmpty { return meta.sort }
        guard let parts = entry.components(below: project.root) else { return meta.sort }
        return meta.sort(at: parts.map(\.string).joined(separator: "/"))
    }

    /// The binder order read from `entry`'s order file, if it has one.
    public func binderOrder(of entry: Entry) -> BinderOrder? {
        guard let known = orders[ObjectIdentifier(entry)], known.folder === entry else { return nil }
        if let order = known.order { return order }
        let read =
            entry.components(below: root).flatMap {
                OrderFile.read(root: path, components: $0.map(\.bytes))
            } ?? BinderOrder()
        known.order = read
        return read
    }

    /// Lets go of the orders of folders no longer in the model (removed,
    /// their subtree dismantled), once there are twice as many as at the
    /// last look, so the cost stays proportional to the orders set.
    private func pruneOrders() {
        guard orders.count >= ordersToPruneAt else { return }
        orders = orders.filter { $0.value.folder.parent != nil || $0.value.folder === root }
        ordersToPruneAt = max(64, orders.count * 2)
    }

    /// The order held for `entry`, without reading an order file not read yet.
    func loadedBinderOrder(of entry: Entry) -> BinderOrder? {
        guard let known = orders[ObjectIdentifier(entry)], known.folder === entry else { return nil }
        return known.order
    }

    /// The stamp of the order file this server last wrote for `entry`.
    func writtenOrderStamp(of entry: Entry) -> OrderFile.Stamp? {
        guard let known = orders[ObjectIdentifier(entry)], known.folder === entry else { return nil }
        return known.written
    }

    /// A folder a scan saw an order file in: read when first needed.
    func setBinderOrderUnread(of entry: Entry) {
        pruneOrders()
        orders[ObjectIdentifier(entry)] = KnownOrder(entry)
        entry.binderOrderChanged()
        ordersGeneration &+= 1
    }

    func setBinderOrder(_ order: BinderOrder?, of entry: Entry, written: OrderFile.Stamp? = nil) {
        pruneOrders()
        if let order {
            orders[ObjectIdentifier(entry)] = KnownOrder(entry, order, written)
        } else {
            orders[ObjectIdentifier(entry)] = nil
        }
        entry.binderOrderChanged()
        ordersGeneration &+= 1
    }

    public func lock(containing entry: Entry) -> Failure? {
        if lockedProjects.isEmpty { return nil }
        var e: Entry? = entry
        while let x = e {
            if let f = lockedProjects[ObjectIdentifier(x)] { return f }
            e = x.parent
        }
        return nil
    }
}

/// A folder's binder order. Keyed by the folder's identity, which cannot be
/// reused while the folder is held here.
final class KnownOrder {
    /// Held strongly: a weak reference would give every ordered folder a
    /// side table, making each retain and release of it slow (a tenth of a
    /// cold start with 10,000 ordered folders). Holding it also keeps its
    /// address from being reused while it is a key; `pruneOrders` lets go
    /// of folders that left the model.
    let folder: Entry
    /// Nil until the order file, seen by a scan, is first read.
    var order: BinderOrder?
    /// The order file this server wrote, if it did: the watcher's report of
    /// that write need not read it back.
    let written: OrderFile.Stamp?
    init(_ folder: Entry, _ order: BinderOrder? = nil, _ written: OrderFile.Stamp? = nil) {
        self.folder = folder
        self.order = order
        self.written = written
    }
}
