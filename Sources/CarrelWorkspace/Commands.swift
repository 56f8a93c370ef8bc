import CarrelModel
import CarrelStore
import Glibc

/// A command's outcome: what to show and what changed.
public struct Outcome {
    public enum Result {
        case item(Item)
        case deleted(Int)
        case systemTrash
    }
    public var result: Result
    public var changes: [Change]
    /// What to tell the writer, where the change took writing out of sight or back.
    public var report: Report? = nil
}

extension Workspace {
    // MARK: Guards shared by every command

    func entryTarget(_ target: Target) throws(Failure) -> (Entry, Library) {
        switch target {
        case .entry(let e, let l): return (e, l)
        case .all(let p, _):
            throw Failure(.permanentFolder, .permanentFolder(name: p.type.folder(.all)?.title.en ?? "All"))
        }
    }

    func checkUnlocked(_ entry: Entry, _ library: Library) throws(Failure) {
        if let f = library.lock(containing: entry) { throw f }
    }

    /// Refuses to rename, move or delete what must stay: the library, projects' permanent folders, links' insides.
    func checkMovable(_ entry: Entry, _ library: Library) throws(Failure) {
        try checkUnlocked(entry, library)
        if entry === library.root { throw Failure(.permanentFolder, .libraryRoot(name: library.displayName)) }
        if let p = library.project(containing: entry), p.permanentFolder(for: entry) != nil {
            throw Failure(.permanentFolder, .permanentFolder(name: entry.name.string))
        }
    }

    /// The folder new things go into: a real, readable directory (not a link).
    func folderForNewItems(_ target: Target) throws(Failure) -> (Entry, Library) {
        switch target {
        case .all(let project, let library):
            let folder = project.type.folder(.all) ?? .allOfWriting
            if let dest = folder.newFilesGoTo, let e = project.type.folder(dest).flatMap(project.entry(for:)) {
                return (e, library)
            }
            return (project.root, library)
        case .entry(let e, let library):
            if e.kind == .symlink { throw Failure(.outsideWorkspace, .isLink(name: e.name.string)) }
            guard e.kind == .directory else { throw Failure(.notFound, .notAFolder(name: e.name.string)) }
            try checkUnlocked(e, library)
            return (e, library)
        }
    }

    func checkFree(_ name: String, in parent: Entry, _ library: Library, except: Entry? = nil) throws(Failure) {
        if let other = parent.clash(with: name), other !== except {
            throw Failure(.nameTaken, .nameTaken(name: other.name.string, parent: title(of: parent, in: library)))
        }
    }

    func inTrashFlag(_ entry: Entry, _ library: Library) -> Bool {
        library.project(containing: entry)?.isInTrash(entry) ?? false
    }

    // MARK: New

    public func newFolder(in target: Target, name raw: String) throws(Failure) -> Outcome {
        if case .all(let p, _) = target {
            throw Failure(.permanentFolder, .virtualFolder(name: p.type.folder(.all)?.title.en ?? "All"))
        }
        let (parent, library) = try folderForNewItems(target)
        return try create(try NameRules.validate(raw), in: parent, library) { dir, name throws(SysError) in
            try dir.makeDirectory(name)
        }
    }

    public func newFile(in target: Target, name raw: String) throws(Failure) -> Outcome {
        let (parent, library) = try folderForNewItems(target)
        let ext = library.project(containing: parent)?.metadata.defaultExtension ?? ProjectMetadata.standardExtension
        let given = try NameRules.validate(raw)
        let name = NameRules.withDefaultExtension(given, ext)
        if name.utf8.count > NameRules.maxBytes, name != given {
            throw Failure(.invalidName, .nameTooLongWithExtension(bytes: name.utf8.count, ext: ext))
        }
        return try create(try NameRules.validate(name), in: parent, library) { dir, name throws(SysError) in
            try dir.createEmptyFile(name)
        }
    }

    /// Makes a new, free `name` in `parent` with `make`, durably, and adds it to the model.
    private func create(
        _ name: String, in parent: Entry, _ library: Library,
        _ make: (Directory, [UInt8]) throws(SysError) -> Void
    ) throws(Failure) -> Outcome {
        try checkFree(name, in: parent, library)
        let dir = try open(parent, in: library)
        do { try make(dir, Array(name.utf8)) } catch { throw failure(for: error, target: name, in: parent, library) }
        dir.sync()
        return added(name, in: parent, dir: dir, library: library)
    }

    func added(_ name: String, in parent: Entry, dir: Directory, library: Library) -> Outcome {
        let e = Scanner.entry(dirfd: dir.fd, name: Array(name.utf8)) ?? Entry(name: EntryName(name), kind: .file)
        parent.add(e)
        if e.kind == .directory { watching?.watchTree(e, library: library, workspace: self) }
        return Outcome(
            result: .item(.entry(e, library)), changes: [Change(.created, e.path, inTrash: inTrashFlag(e, library))])
    }

    public func newProject(in target: Target, name raw: String, type: ProjectType) throws(Failure) -> Outcome {
        let (parent, library) = try entryTarget(target)
        let name = try NameRules.validate(raw)
        if parent !== library.root {
            // The model knows projects only at the top of a library; the disk knows deeper ones.
            if let outer = library.project(containing: parent)?.root.path ?? Self.enclosingProject(of: parent.path) {
                throw Failure(.conflict, .projectInsideProject(name: name, project: BytePath.display(outer)))
            }
            throw Failure(.conflict, .projectPlacement)
        }
        if library.project(at: parent) != nil || library.lockedProjects[ObjectIdentifier(parent)] != nil {
            throw Failure(.conflict, .projectNested)
        }
        try checkLibraryOutsideProjects(library, name: name)
        try checkFree(name, in: parent, library)
        let dir = try open(parent, in: library)
        // Built under a hidden name and renamed into place, so a crash never
        // leaves a half-made project in view.
        let temp = Array(".carrel-new-\(getpid())-\(Clock.nowMs())".utf8)
        do throws(SysError) {
            try dir.makeDirectory(temp)
            let staging = try dir.subdirectory(temp)
            try ProjectFile.create(in: staging, ProjectMetadata(type: type, created: Clock.nowMs()))
            for folder in type.directories { try staging.makeDirectory(Array(folder.diskName!.utf8)) }
            staging.sync()
            try dir.move(temp, to: dir, as: Array(name.utf8))
            dir.sync()
        } catch {
            try? dir.removeTree(temp)
            throw failure(for: error)
        }
        let e = Scanner.entry(dirfd: dir.fd, name: Array(name.utf8)) ?? Entry(name: EntryName(name), kind: .directory)
        Scanner.scan(e, path: BytePath.join(parent.path, Array(name.utf8)))
        parent.add(e)
        openProjectIfMarked(e, in: library)
        watching?.watchTree(e, library: library, workspace: self)
        return Outcome(result: .item(.entry(e, library)), changes: [Change(.created, e.path)])
    }

    // MARK: Rename and move

    public func rename(_ target: Target, to raw: String) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkMovable(entry, library)
        guard let parent = entry.parent else {
            throw Failure(.permanentFolder, .libraryRoot(name: library.displayName))
        }
        let name = try newName(for: entry, raw)
        if name.utf8.elementsEqual(entry.name.string.utf8) && entry.name.isValidUTF8 {
            return Outcome(result: .item(.entry(entry, library)), changes: [])
        }
        try checkFree(name, in: parent, library, except: entry)
        let project = library.project(containing: entry)
        let oldPath = entry.path
        let oldName = entry.name.string
        let targets = targetsBelow(entry, library)
        let pieces = piecesBelow(entry, library)
        let dir = try open(parent, in: library)
        let snapshots = snapshotsBeforeMove(entry, library)
        noteSnapshotMove(
            snapshots, to: (parent.components(below: project?.root ?? parent) ?? []) + [EntryName(name)], in: project)
        if let p = project, let t = p.trash, parent === t, p.metadata.trash[oldName] != nil {
            try renameWithRecord(entry, to: name, in: dir, p, library)
        } else {
            try orderBeforeRename(entry, to: EntryName(name), library)
            do { try dir.move(entry.name.bytes, to: dir, as: Array(name.utf8)) } catch {
                throw failure(for: error, target: name, in: parent, library)
            }
            dir.sync()
            orderAfterRename(entry.name, in: parent, library)
        }
        entry.rename(to: EntryName(name))
        carrySnapshots(snapshots, to: entry, library)
        movedFolderSorts(from: oldPath, entry, library)
        carryTargets(entry, from: targets, library)
        carryPieces(entry, from: pieces, library)
        return Outcome(
            result: .item(.entry(entry, library)),
            changes: [Change(.moved, entry.path, from: oldPath, inTrash: inTrashFlag(entry, library))])
    }

    /// The name a rename of `entry` to `raw` gives it: checked, and a file
    /// keeps its extension when none is typed.
    func newName(for entry: Entry, _ raw: String) throws(Failure) -> String {
        var name = try NameRules.validate(raw)
        if !entry.isFolderLike, let ext = NameRules.fileExtension(entry.name.string) {
            name = NameRules.withDefaultExtension(name, ext)
            if name.utf8.count > NameRules.maxBytes {
                throw Failure(.invalidName, .nameTooLongWithExtension(bytes: name.utf8.count, ext: ext))
            }
        }
        return name
    }

    /// A Trash takes only what is deleted from its own project, with a
    /// record of where it came from; a folder inside a Trash takes nothing,
    /// since a move there would leave no record to restore by.
    func checkTrashDestination(_ dest: Entry, for entry: Entry, _ library: Library) throws(Failure) {
        guard let project = library.project(containing: dest), let trash = project.trash,
            dest.isDescendant(of: trash), entry.parent !== dest
        else { return }
        let name = entry.name.string
        if dest !== trash { throw Failure(.inTrash, .intoTrashedFolder(name: name)) }
        if library.project(containing: entry) !== project {
            let title = project.root === library.root ? library.displayName : project.root.name.string
            throw Failure(.inTrash, .intoOtherProjectsTrash(name: name, project: title))
        }
    }

    /// Moves into `destination`; with `position`, placed before or after a
    /// child of it (the destination's sort becomes binder order).
    public func move(_ target: Target, to destination: Target, at position: Position? = nil) throws(Failure) -> Outcome
    {
        let (entry, library) = try entryTarget(target)
        try checkMovable(entry, library)
        if library.project(at: entry) != nil { throw Failure(.conflict, .projectMove(name: entry.name.string)) }
        if case .all(let p, _) = destination {
            throw Failure(.permanentFolder, .virtualFolder(name: p.type.folder(.all)?.title.en ?? "All"))
        }
        let (dest, destLibrary) = try folderForNewItems(destination)
        guard destLibrary === library else { throw Failure(.outsideWorkspace, .otherLibrary) }
        if dest.isDescendant(of: entry) { throw Failure(.intoItself, .intoItself(name: entry.name.string)) }
        try checkTrashDestination(dest, for: entry, library)
        guard let parent = entry.parent else {
            throw Failure(.permanentFolder, .libraryRoot(name: library.displayName))
        }
        let anchor = try moveAnchor(position, into: dest, moving: entry)
        if dest === parent {
            guard let (a, after) = anchor else { return Outcome(result: .item(.entry(entry, library)), changes: []) }
            return try reorder(.entry(entry, library), relativeTo: .entry(a, library), after: after)
        }
        if let p = library.project(containing: dest), dest === p.trash, library.project(containing: entry) === p {
            return try moveToTrash(entry, p, library)
        }
        try checkFree(entry.name.string, in: dest, library)
        try orderBeforeMove(entry.name, into: dest, near: anchor?.0, after: anchor?.1 ?? false, library)
        let source = library.project(containing: entry)
        let trashItemName = source.flatMap { p in p.trash.flatMap { parent === $0 ? entry.name.string : nil } }
        let (from, to) = try open(parent, dest, in: library)
        let oldPath = entry.path
        let targets = targetsBelow(entry, library)
        let snapshots = snapshotsBeforeMove(entry, library)
        let destinationProject = library.project(containing: dest)
        noteSnapshotMove(
            snapshots, to: (dest.components(below: destinationProject?.root ?? dest) ?? []) + [entry.name],
            in: destinationProject)
        let pieces = piecesBelow(entry, library)
        do { try from.move(entry.name.bytes, to: to, as: entry.name.bytes) } catch {
            throw failure(for: error, target: entry.name.string, in: dest, library)
        }
        Directory.sync(to, from)
        entry.move(to: dest, as: entry.name)
        carrySnapshots(snapshots, to: entry, library)
        carryTargets(entry, from: targets, library)
        carryPieces(entry, from: pieces, library)
        if let p = source, let n = trashItemName, p.metadata.trash[n] != nil { dropRecord(n, p) }
        movedFolderSorts(from: oldPath, entry, library)
        return Outcome(
            result: .item(.entry(entry, library)),
            changes: [Change(.moved, entry.path, from: oldPath, inTrash: inTrashFlag(entry, library))])
    }

    // MARK: Sort

    /// On a project (or "All", or the library), the sort of every folder
    /// in it, dropping folders' own; on a folder inside a project, that
    /// folder's own sort.
    public func setSort(_ target: Target, _ order: SortSetting) throws(Failure) -> Outcome {
        if case .entry(let e, let library) = target, let p = library.project(containing: e), e !== p.root,
            let parts = e.components(below: p.root), e.isDirectory
        {
            try checkUnlocked(e, library)
            let path = parts.map(\.string).joined(separator: "/")
            try updateMetadataOrFail(p) { $0.folderSorts[path] = order }
            e.binderOrderChanged()
            return Outcome(result: .item(.entry(e, library)), changes: [Change(.changed, e.path)])
        }
        return try changeSettings(
            of: target,
            project: {
                $0.sort = order
                $0.folderSorts = [:]
            }, library: { $0.sort = order })
    }

    /// A folder renamed or moved through Carrel takes its own sorts, and
    /// those of the folders below it, along. Bookkeeping after the move: a
    /// crash before it leaves those folders sorted as their project is.
    func movedFolderSorts(from oldPath: [UInt8], _ entry: Entry, _ library: Library) {
        guard entry.isDirectory, let p = library.project(containing: entry), !p.metadata.folderSorts.isEmpty,
            let newParts = entry.components(below: p.root)
        else { return }
        let rootPath = p.root.path
        guard oldPath.starts(with: rootPath), oldPath.count > rootPath.count else { return }
        let old = String(decoding: oldPath[(rootPath.count + 1)...], as: UTF8.self)
        let new = newParts.map(\.string).joined(separator: "/")
        let moving = p.metadata.folderSorts.keys.filter { $0 == old || $0.hasPrefix(old + "/") }
        guard !moving.isEmpty else { return }
        updateMetadata(p) { meta in
            for key in moving {
                let value = meta.folderSorts.removeValue(forKey: key)
                meta.folderSorts[new + key.dropFirst(old.count)] = value
            }
        }
    }

    /// Whether deleting asks first: turns "Delete and Don't Ask Again" back
    /// on (or off) for a project, or for a library's plain folders.
    /// Setting what is already set writes nothing and changes no row, but
    /// still says so: the writer asked and deserves an answer.
    public func setConfirmDelete(_ target: Target, _ confirm: Bool) throws(Failure) -> Outcome {
        let (entry, library): (Entry, Library)
        switch target {
        case .all(let p, let l): (entry, library) = (p.root, l)
        case .entry(let e, let l): (entry, library) = (e, l)
        }
        let project = library.project(containing: entry)
        let owner = project?.root ?? library.root
        let name = title(of: owner, in: library)
        let asks = project?.metadata.confirmDelete ?? library.settings.confirmDelete
        guard asks != confirm else {
            return Outcome(
                result: .item(.entry(owner, library)), changes: [],
                report: confirm ? .alreadyAskingBeforeDeleting(in: name) : .notAskingBeforeDeleting(in: name))
        }
        var outcome = try changeSettings(
            of: target, project: { $0.confirmDelete = confirm }, library: { $0.confirmDelete = confirm })
        outcome.report = confirm ? .askingBeforeDeleting(in: name) : .notAskingBeforeDeleting(in: name)
        return outcome
    }

    /// A setting kept in `project.json` for a project, or in the user's state
    /// folder for a library outside projects. Answers the project or library.
    func changeSettings(
        of target: Target, project change: (inout ProjectMetadata) -> Void,
        library changeLibrary: (inout LibrarySettings) -> Void
    ) throws(Failure) -> Outcome {
        let (entry, library): (Entry, Library)
        switch target {
        case .all(let p, let l): (entry, library) = (p.root, l)
        case .entry(let e, let l): (entry, library) = (e, l)
        }
        try checkUnlocked(entry, library)
        if let p = library.project(containing: entry) {
            try updateMetadataOrFail(p, change)
            return Outcome(result: .item(.entry(p.root, library)), changes: [Change(.changed, p.root.path)])
        }
        changeLibrary(&library.settings)
        StateFiles.save(library.settings, for: library.path)
        return Outcome(result: .item(.entry(library.root, library)), changes: [Change(.changed, library.root.path)])
    }

    /// A refused create or rename: EEXIST means another program took the name
    /// after our check, and the message names that name, not the source.
    func failure(for e: SysError, target: String, in parent: Entry, _ library: Library) -> Failure {
        if e.code == EEXIST || e.code == ENOTEMPTY {
            return Failure(.conflict, .appeared(name: target, parent: title(of: parent, in: library)))
        }
        return failure(for: e, name: target)
    }

    // MARK: Metadata

    func updateMetadataOrFail(_ project: Project, _ change: (inout ProjectMetadata) -> Void) throws(Failure) {
        do {
            project.metadata = try ProjectFile.update(project.root.path, change)
        } catch {
            throw failure(for: error, projectPath: project.root.path)
        }
    }

    /// For bookkeeping after the files already moved: the files are the
    /// truth, and the next open repairs a record that could not be written.
    func updateMetadata(_ project: Project, _ change: (inout ProjectMetadata) -> Void) {
        try? updateMetadataOrFail(project, change)
    }
}
