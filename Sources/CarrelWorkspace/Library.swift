import CarrelModel
import CarrelStore

/// A project: a folder holding `.carrel/project.json`.
public final class Project {
    public let root: Entry
    public internal(set) var metadata: ProjectMetadata
    public var type: ProjectType { metadata.type }

    init(root: Entry, metadata: ProjectMetadata) {
        self.root = root
        self.metadata = metadata
    }

    /// The permanent folder `entry` is, if it is one.
    public func permanentFolder(for entry: Entry) -> PermanentFolder? {
        guard entry.parent === root, entry.kind == .directory else { return nil }
        return type.directories.first { metadata.path(of: $0) == entry.name.string }
    }

    public func entry(for folder: PermanentFolder) -> Entry? {
        guard let path = metadata.path(of: folder) else { return nil }
        return root.child(path).flatMap { $0.kind == .directory ? $0 : nil }
    }

    public var trash: Entry? { entry(for: .trash) }

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
    public func allFiles(under top: Entry) -> [Entry] {
        let folder = type.folder(.all) ?? .allOfWriting
        let sources: [Entry]
        switch folder.contents {
        case .wholeProject: sources = [root]
        case .filesOf(let roles): sources = roles.compactMap { type.folder($0).flatMap(entry(for:)) }
        case .directory: sources = []
        }
        let trash = self.trash
        let key = AllFilesKey(
            generation: top.generation, dates: top.datesGeneration, order: metadata.sort,
            sources: sources.map(ObjectIdentifier.init), trash: trash.map(ObjectIdentifier.init))
        if let cached = allFilesCache, cached.key == key { return cached.files }
        // Folders are walked in display order, so files with the same name
        // keep their folders' order: a walk in hash order shuffled them
        // from one start to the next.
        var files: [Entry] = []
        var stack: [Entry] = sources.reversed()
        while let e = stack.popLast() {
            if e === trash { continue }
            if e.kind == .file { files.append(e) }
            if e.kind == .directory { stack.append(contentsOf: e.sortedChildren(metadata.sort).reversed()) }
        }
        let sorted = Ordering.sorted(files, metadata.sort)
        allFilesCache = (key, sorted)
        return sorted
    }

    private struct AllFilesKey: Equatable {
        let generation: Int
        let dates: UInt32
        let order: SortSetting
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

    /// Every file in the library but those in its projects' Trash.
    public var fileTotalOutsideTrash: Int {
        projects.values.reduce(root.fileTotal) { $0 - ($1.trash?.fileTotal ?? 0) }
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
