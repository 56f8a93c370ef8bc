import CarrelModel
import CarrelStore
import Glibc

/// The libraries a server (or the CLI) works on, kept in memory and current.
/// Not thread-safe: its owner confines it to one queue.
///
/// **Invariant:** every path it touches is inside a library; every mutation
/// goes through an atomic no-replace primitive and updates the model after
/// the disk, so the model never shows what the disk does not have.
public final class Workspace {
    public private(set) var libraries: [Library] = []
    /// Set by the owner; watching starts when it is.
    var watching: WatchState?
    /// Set by `stopWatching`: a watch the first scan would start later never starts.
    var watchingStopped = false
    /// Set by the owner: deep folders are then read in the background.
    var deepScan: DeepScanState?
    /// Where repairs are reported (the server's stderr). Silent by default.
    public var log: (String) -> Void = { _ in }
    /// What the writer should be told once, in order: conflicts of
    /// Carrel's own files that were merged. The owner takes them.
    public var notices: [Message] = []
    /// Link questions a stopped Carrel left unanswered, for the owner to ask again.
    public var leftLinkQuestions: [LeftLinkQuestion] = []
    /// Files to count, in the order they were found (`Workspace+Words.swift`).
    var wordQueue: [Entry] = []
    /// Reads and counts on two threads; made when counting first starts.
    lazy var countingPool = CountingPool()
    /// Per library (by its root): the cache read from the state folder,
    /// used until its first pass ends, and the counts made since.
    var wordCaches: [ObjectIdentifier: WordCacheState] = [:]
    /// Files whose open buffer's words are shown (`Workspace+Unsaved.swift`). Never written anywhere.
    var unsavedWords: [ObjectIdentifier: UnsavedWords] = [:]
    /// Per library (by its root), its links once something needed them (`Workspace+Links.swift`).
    var linkIndexes: [ObjectIdentifier: LinkIndex] = [:]
    /// Open buffers' text, for their links. Never written anywhere.
    var linkBuffers: [ObjectIdentifier: [UInt8]] = [:]
    /// Files the link index read itself, not through counting (for the tests).
    var linkIndexReads = 0
    /// Library paths built to file a count's links in the index, for the tests.
    var countedLinkPaths = 0
    /// Markdown links a count's files handed the index unresolved, resolved on the work thread, for the tests.
    var linksResolvedOnWorkThread = 0
    public var sessions = Sessions()
    /// The library of the last operation journaled, which undo takes back in when none is named.
    var undoLibraryPath: [UInt8]?
    /// How much one duplicate may copy; tests lower it.
    public var copyLimits = Directory.CopyLimits()

    public init() {}

    // MARK: Libraries

    /// Whether `path` is a folder itself, not a link to one: what a
    /// workspace folder must be before it becomes a library.
    public static func isFolder(_ path: [UInt8]) -> Bool { Scanner.stat(path)?.isDirectory == true }

    @discardableResult
    public func addLibrary(_ rawPath: [UInt8]) -> Library {
        var path = rawPath
        while path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        if let existing = libraries.first(where: { $0.path == path }) { return existing }
        let real = BytePath.withCString(path) { p -> [UInt8] in
            guard let r = realpath(p, nil) else { return path }
            defer { free(r) }
            return Array(UnsafeRawBufferPointer(start: r, count: strlen(r)))
        }
        finishLinkUpdates(libraryPath: path, realPath: real)
        let library = Library(path: path, realPath: real)
        if let st = Scanner.stat(path) {
            library.root.created = st.birth_ms
            library.root.modified = st.modified_ms
        }
        let ordered = scanTop(library, path: path)
        libraries.append(library)
        findLinkQuestions(library)
        discoverProjects(in: library)
        loadOrders(ordered, in: library)
        watching?.watchTree(library.root, library: library, workspace: self)
        queuePending(library)
        return library
    }

    public func removeLibrary(_ rawPath: [UInt8]) {
        var path = rawPath
        while path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        guard let i = libraries.firstIndex(where: { $0.path == path }) else { return }
        let library = libraries.remove(at: i)
        wordCaches[ObjectIdentifier(library.root)] = nil
        unsavedWords = unsavedWords.filter { $0.value.entry.root !== library.root }
        watching?.unwatchTree(library.root)
        library.root.dismantle()
    }

    func discoverProjects(in library: Library) {
        openProjectIfMarked(library.root, in: library)
        for child in library.root.children.values where child.kind == .directory {
            openProjectIfMarked(child, in: library)
        }
    }

    /// Opens a project: reads its metadata and repairs it (missing permanent
    /// folders come back, records of vanished Trash items go, unfinished
    /// purges finish). A project.json that is too new or unreadable locks the
    /// project: it shows, and every command in it is refused, so it is never overwritten.
    @discardableResult
    func openProjectIfMarked(_ entry: Entry, in library: Library) -> Project? {
        let id = ObjectIdentifier(entry)
        let path = entry.path
        guard Scanner.hasProjectMarker(path) else {
            library.projects[id] = nil
            library.lockedProjects[id] = nil
            return nil
        }
        resolveConflicts(path, name: entry.name.string)
        do {
            let meta = try ProjectFile.read(path)
            let known = library.projects[id]
            let project = known ?? Project(root: entry, metadata: meta)
            // The watcher reloads after every write to `.carrel`, mostly this
            // server's own; a version the model already has needs no repair.
            let unchanged = known?.metadata == meta
            project.metadata = meta
            library.projects[id] = project
            library.lockedProjects[id] = nil
            if !unchanged { repair(project, in: library) }
            return project
        } catch {
            library.projects[id] = nil
            library.lockedProjects[id] = failure(for: error, projectPath: path)
            return nil
        }
    }

    /// Merges the versions of project.json that sync left (see
    /// `ProjectMerge`), under the project's lock, and says so once.
    func resolveConflicts(_ projectPath: [UInt8], name: String) {
        guard ProjectFile.hasConflicts(projectPath),
            let merged = try? ProjectFile.locked(projectPath, { lock in lock.resolveConflicts() }), merged > 0
        else { return }
        log("repair: merged \(merged) versions of \(BytePath.display(ProjectFile.markerPath(projectPath)))")
        notices.append(.mergedSyncConflicts(project: name, copies: merged - 1))
    }

    func failure(for problem: ProjectFile.Problem, projectPath: [UInt8]) -> Failure {
        let file = BytePath.display(ProjectFile.markerPath(projectPath))
        switch problem {
        case .unsupportedVersion(let v):
            return Failure(
                .unsupportedVersion, .unsupportedVersion(path: file, version: v, known: ProjectMetadata.currentVersion))
        case .corrupt(let detail):
            return Failure(.io, .corruptProjectFile(path: file, detail: detail))
        case .sys(let e):
            return failure(for: e)
        }
    }

    /// Repairs after a crash or tampering. Each step only adds what is
    /// missing or removes what can no longer be true.
    func repair(_ project: Project, in library: Library) {
        finishSnapshotMoves(in: library)
        let root = project.root
        let rootPath = root.path
        guard let dir = try? Directory.open(rootPath) else { return }
        var recreated = false
        for folder in project.type.directories {
            guard let name = project.metadata.path(of: folder), !name.contains("/") else { continue }
            if root.child(name) == nil, !dir.exists(Array(name.utf8)) {
                if (try? dir.makeDirectory(Array(name.utf8))) != nil,
                    let e = Scanner.entry(dirfd: dir.fd, name: Array(name.utf8))
                {
                    log("repair: recreated the permanent folder \(BytePath.display(rootPath))/\(name)")
                    recreated = true
                    root.add(e)
                    watching?.watchTree(e, library: library, workspace: self)
                }
            }
        }
        if recreated { dir.sync() }
        finishPurges(project)
        removeCompileLeftovers(project)
        removeStateLeftovers(project)
        // A Trash that is not a real folder says nothing of which items are in it.
        guard let trashName = project.type.folder(.trash).flatMap({ project.metadata.path(of: $0) }),
            dir.kind(of: Array(trashName.utf8)) == .folder
        else {
            removeLeftovers(rootPath)
            return
        }
        let trashPath = BytePath.join(rootPath, Array(trashName.utf8))
        func inTrash(_ name: String) -> Bool { Scanner.stat(BytePath.join(trashPath, Array(name.utf8))) != nil }
        migrateFormerTrashRecords(project, inTrash: inTrash)
        removeLeftovers(rootPath)
        repairTrashRecords(project, trashPath: trashPath, inTrash: inTrash)
    }

    /// Moves the Trash records an older version kept in project.json into
    /// record files (see `ProjectFile.Lock.migrateFormerTrashRecords`).
    func migrateFormerTrashRecords(_ project: Project, inTrash: (String) -> Bool) {
        let rootPath = project.root.path
        guard ProjectFile.formerTrashRecords(rootPath) != nil else { return }
        do {
            let written = try ProjectFile.locked(rootPath) { lock throws(ProjectFile.Problem) in
                try lock.migrateFormerTrashRecords(inTrash: inTrash)
            }
            if let meta = try? ProjectFile.read(rootPath) { project.metadata = meta }
            log("repair: moved \(written) Trash record(s) out of \(BytePath.display(ProjectFile.markerPath(rootPath)))")
        } catch {
            log(
                "repair: could not move the Trash records out of \(BytePath.display(ProjectFile.markerPath(rootPath))): \(error)"
            )
        }
    }

    func removeLeftovers(_ rootPath: [UInt8]) {
        guard ProjectFile.hasLeftovers(rootPath),
            let n = try? ProjectFile.locked(rootPath, { lock in lock.removeLeftovers() }), n > 0
        else { return }
        log(
            "repair: removed \(n) temporary or former lock file(s) in \(BytePath.display(rootPath))/.carrel"
        )
    }

    /// A crash during a delete, a restore or a rename in Trash keeps some
    /// of its steps (see `moveToTrash`): records whose item is not in Trash
    /// are dropped, as are records a kill left empty, and of two records naming one item (two machines, or
    /// a rename cut short) the newest deletion stays. The disk decides,
    /// under the lock every Carrel holds across those steps, so a record
    /// another process is about to honour is never dropped. An item in
    /// Trash without a record restores to the project's root.
    func repairTrashRecords(_ project: Project, trashPath: [UInt8], inTrash: (String) -> Bool) {
        let rootPath = project.root.path
        guard let carrel = try? ProjectFile.carrelFolder(rootPath),
            let records = try? TrashRecords.folder(in: carrel, create: false)
        else { return }
        let before = TrashRecords.scan(records)
        guard
            !before.superseded.isEmpty || !before.torn.isEmpty
                || before.kept.values.contains(where: { !inTrash($0.name) || ConflictCopy.isCopy($0.id) })
        else { return }
        var dropped = 0
        var adopted = 0
        _ = try? ProjectFile.locked(rootPath) { _ throws(ProjectFile.Problem) in
            var scan = TrashRecords.scan(records)
            if matchTwins(scan, records: records, in: project) { scan = TrashRecords.scan(records) }
            for stored in scan.superseded + scan.kept.values.filter({ !inTrash($0.name) })
            where TrashRecords.remove(stored.id, in: records) {
                dropped += 1
            }
            for id in scan.torn where TrashRecords.remove(id, in: records) { dropped += 1 }
            // A sync engine's copy of a record that is the only one for its
            // item is that item's provenance: it stays, under a record's name.
            for stored in scan.kept.values where inTrash(stored.name) && TrashRecords.adopt(stored.id, in: records) {
                adopted += 1
            }
            if dropped + adopted > 0 { records.sync() }
        }
        let copies = before.superseded.filter { ConflictCopy.isCopy($0.id) }.count + adopted
        if copies > 0 { notices.append(.mergedSyncConflicts(project: project.root.name.string, copies: copies)) }
        if let meta = try? ProjectFile.read(rootPath) { project.metadata = meta }
        if dropped > 0 {
            log(
                "repair: dropped \(dropped) Trash record(s) of items no longer in \(BytePath.display(trashPath)), or superseded"
            )
        }
    }

    /// Gives each conflict copy in the Trash the record of its deletion
    /// that sync left naming the original (`TrashRecords.twins`), before
    /// that record would be dropped as superseded or as naming nothing.
    /// The record is rewritten under the copy's name, new first, then the
    /// old removed: a crash between leaves the old one, which the drop
    /// that follows removes. The caller holds the lock. Returns whether a
    /// record was rewritten.
    func matchTwins(_ scan: TrashRecords.Scan, records: Directory, in project: Project) -> Bool {
        guard let trashName = project.type.folder(.trash).flatMap({ project.metadata.path(of: $0) }),
            let trash = try? Directory.open(project.root.path).realSubdirectory(Array(trashName.utf8)),
            let listed = try? trash.list()
        else { return false }
        let items = Set(listed.compactMap { String(validating: $0.0, as: UTF8.self) })
        var matched = false
        for (copy, stored) in TrashRecords.twins(scan, items: items) {
            var record = stored.record
            record.deletedAs = stored.name
            guard (try? TrashRecords.write(copy, record, in: records)) != nil else { continue }
            TrashRecords.remove(stored.id, in: records)
            matched = true
            log("repair: gave \(copy), a sync conflict copy in the Trash, the record of a deletion of \(stored.name)")
        }
        if matched { records.sync() }
        return matched
    }

    // MARK: Finding things

    /// What a path names: an entry, or a project's virtual "All".
    public enum Target {
        case entry(Entry, Library)
        case all(Project, Library)

        /// The binder row this target is.
        public var item: Item {
            switch self {
            case .entry(let e, let l): return .entry(e, l)
            case .all(let p, let l): return .all(p, l)
            }
        }
    }

    public static let allSuffix: [[UInt8]] = [Array(".carrel".utf8), Array("all".utf8)]

    /// Resolves an absolute path. `uri` is only for the error message.
    /// Components stay slices of `path`: every command resolves one or two.
    public func locate(_ path: [UInt8], uri: String) throws(Failure) -> Target {
        let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard path.first == UInt8(ascii: "/"), !parts.contains(where: Self.isDots) else {
            throw Failure(.outsideWorkspace, .outsideWorkspace(uri: uri))
        }
        for library in libraries.sorted(by: { $0.path.count > $1.path.count }) {
            for base in [library.path, library.realPath] {
                let baseParts = base.split(separator: UInt8(ascii: "/"))
                guard parts.count >= baseParts.count, zip(parts, baseParts).allSatisfy({ $0.elementsEqual($1) }) else {
                    continue
                }
                return try walk(parts[baseParts.count...], in: library, display: path)
            }
        }
        throw Failure(.outsideWorkspace, .outsideWorkspace(uri: uri))
    }

    private static func isDots(_ part: ArraySlice<UInt8>) -> Bool {
        part.allSatisfy { $0 == UInt8(ascii: ".") } && part.count <= 2
    }

    private func walk(_ components: ArraySlice<ArraySlice<UInt8>>, in library: Library, display: [UInt8])
        throws(Failure) -> Target
    {
        var e = library.root
        var i = components.startIndex
        while i < components.endIndex {
            // A folder not read yet is read now, so a path below it resolves.
            load(e, in: library)
            let c = components[i]
            if i + 2 == components.endIndex,
                components[i...].elementsEqual(Self.allSuffix, by: { $0.elementsEqual($1) }),
                let p = library.project(at: e)
            {
                return .all(p, library)
            }
            guard let next = e.child(EntryName(bytes: c)) else {
                if e.kind == .symlink { throw Failure(.outsideWorkspace, .isLink(name: e.name.string)) }
                throw Failure(.notFound, .notFound(path: BytePath.display(display)))
            }
            e = next
            i += 1
        }
        return .entry(e, library)
    }

    public func library(of entry: Entry) -> Library? {
        let r = entry.root
        return libraries.first { $0.root === r }
    }

    /// Opens the directory `entry` is (not following links), for mutation inside it.
    func open(_ entry: Entry, in library: Library) throws(Failure) -> Directory {
        guard let parts = entry.components(below: library.root) else {
            throw Failure(.notFound, .notFound(path: BytePath.display(entry.path)))
        }
        do {
            return try Directory.open(root: library.path, components: parts.map(\.bytes))
        } catch {
            throw failure(for: error)
        }
    }

    /// Opens the two folders of a move from one open of the library root.
    func open(_ a: Entry, _ b: Entry, in library: Library) throws(Failure) -> (Directory, Directory) {
        guard let pathA = a.components(below: library.root), let pathB = b.components(below: library.root) else {
            throw Failure(.notFound, .notFound(path: BytePath.display(a.path)))
        }
        do {
            let root = try Directory.open(library.path)
            let dirA = try root.subdirectory(pathA.map(\.bytes))
            return (dirA, a === b ? dirA : try root.subdirectory(pathB.map(\.bytes)))
        } catch {
            throw failure(for: error)
        }
    }

    /// Maps a refused system call to what the writer reads.
    func failure(for e: SysError, name: String? = nil) -> Failure {
        switch e.refusal {
        case .wrongKind(let found, let expected)?:
            return Failure(.io, .unusableEntry(path: e.path, found: found, expected: expected))
        case .tooLarge(let limit)?: return Failure(.io, .fileTooLarge(path: e.path, limit: limit))
        case .tooLargeToCopy(let limit)?: return Failure(.io, .copyTooLarge(name: name ?? e.path, limit: limit))
        case .tooManyToCopy(let limit)?: return Failure(.io, .copyTooMany(name: name ?? e.path, limit: limit))
        case nil: break
        }
        switch e.code {
        case EEXIST, ENOTEMPTY: return Failure(.conflict, .conflict(path: e.path))
        case ENOENT: return Failure(.notFound, .notFound(path: e.path))
        case EXDEV: return Failure(.io, .crossDevice(name: name ?? e.path))
        case ENOTDIR, ELOOP: return Failure(.conflict, .conflict(path: e.path))
        // A rename refused as "into itself" although the model checked it was
        // not: another program moved the destination into the source meanwhile.
        case EINVAL where e.operation == "rename" && Directory.renameNoReplaceSupported:
            return Failure(.conflict, .conflict(path: e.path))
        default: return Failure(.io, .io(path: e.path, detail: e.message))
        }
    }

    /// The title of a folder-like entry, for messages ("… already exists in “Draft”").
    func title(of entry: Entry, in library: Library) -> String {
        entry === library.root ? library.displayName : entry.name.string
    }
}
