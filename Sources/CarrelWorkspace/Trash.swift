import CarrelModel
import CarrelStore
import Glibc

/// What a delete will do, so the server can ask the right question first.
public enum DeletePlan {
    case toTrash(askFirst: Bool)
    case forever
    case systemTrash(askFirst: Bool)

    public var asksWithDontAskAgain: Bool {
        if case .toTrash = self { return true }
        if case .systemTrash = self { return true }
        return false
    }
}

/// Crash safety of multi-step operations (see Sources/ARCHITECTURE.md):
/// - trash and restore: project.json with the record added (or dropped) is
///   fsynced into the spare; the item moves and the spare is swapped in;
///   the folders are fsynced at once. A crash keeps the move or the swap or
///   both: a record without its item is dropped on open, an item without
///   its record adopts the spare's (on open, or by the next writer when the
///   spare is newer than project.json: `ProjectFile.Lock.stage`).
/// - rename inside Trash: the same, with the record moved to the new name.
/// - delete for good: the item is renamed into `.carrel/purge/` (atomic), then
///   removed there. A crash mid-removal is finished on the next open.
extension Workspace {
    static let purgeDirectory = Array("purge".utf8)

    public func deletePlan(_ target: Target) throws(Failure) -> DeletePlan {
        let (entry, library) = try entryTarget(target)
        try checkMovable(entry, library)
        guard let project = library.project(containing: entry), project.root !== entry else {
            return .systemTrash(askFirst: library.settings.confirmDelete)
        }
        if project.isInTrash(entry) { return .forever }
        return .toTrash(askFirst: project.metadata.confirmDelete)
    }

    /// "Delete and Don't Ask Again": remembered per project, or per library outside projects.
    public func stopAskingBeforeDelete(_ target: Target) {
        guard case .entry(let entry, let library) = target else { return }
        if let project = library.project(containing: entry), project.root !== entry {
            updateMetadata(project) { $0.confirmDelete = false }
        } else {
            library.settings.confirmDelete = false
            StateFiles.save(library.settings, for: library.path)
        }
    }

    /// Deletes as planned: to the project's Trash, for good from inside it, or
    /// to the system trash outside projects. The caller has asked first.
    public func delete(_ target: Target) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkMovable(entry, library)
        guard let project = library.project(containing: entry), project.root !== entry else {
            return try moveToSystemTrash(entry, library)
        }
        if project.isInTrash(entry) {
            return try deleteForever(entry, project, library)
        }
        return try moveToTrash(entry, project, library)
    }

    func moveToTrash(_ entry: Entry, _ project: Project, _ library: Library) throws(Failure) -> Outcome {
        if project.trash == nil { repair(project, in: library) }
        guard let trash = project.trash, let parent = entry.parent else { throw noFolder(.trash, in: project) }
        let original = (entry.components(below: project.root) ?? [entry.name]).map(\.string).joined(separator: "/")
        let (from, to) = try open(parent, trash, in: library)
        let oldPath = entry.path
        // Record and move under one lock, so no other Carrel sees one
        // without the other (see `repair`). The record is fsynced into the
        // spare before the move, so whichever half a crash keeps, the next
        // open can tell where the item came from.
        var moved = FreeNameMove.noFreeName
        var unrecorded: ProjectFile.Problem?
        try withProjectLock(project) { lock throws(ProjectFile.Problem) in
            let record = ProjectMetadata.TrashRecord(originalPath: original, deleted: Clock.nowMs())
            moved = try moveUnderFreeName(entry, base: entry.name.string, from: from, into: trash, to) {
                name throws(ProjectFile.Problem) in
                try lock.stage(trash: name, record)
            }
            if case .moved(let newName, let staged) = moved {
                do throws(ProjectFile.Problem) {
                    project.metadata = try commitAfterMove(staged, lock, project, syncing: [to, from])
                } catch {
                    if undoMove(newName.bytes, from: to, back: from, as: entry.name.bytes) { unrecorded = error }
                }
            }
        }
        if let unrecorded {
            throw Failure(
                .io,
                .trashRecordNotWritten(
                    name: entry.name.string, path: Self.projectFile(project),
                    detail: Self.detail(of: unrecorded)))
        }
        switch moved {
        case .failed(let error): throw failure(for: error, name: entry.name.string)
        case .noFreeName: throw Failure(.conflict, .appeared(name: entry.name.string, parent: trash.name.string))
        case .moved(let newName, _): entry.move(to: trash, as: newName)
        }
        return Outcome(
            result: .item(.entry(entry, library)), changes: [Change(.moved, entry.path, from: oldPath, inTrash: true)],
            report: .movedToTrash(name: entry.name.string))
    }

    /// Renames an item at the top of a project's Trash together with its
    /// record, in the order a delete uses: the record under the new name is
    /// fsynced into the spare before the rename, so whichever of the two a
    /// crash keeps, the item's origin can still be found (see `repair`).
    func renameWithRecord(_ entry: Entry, to name: String, in dir: Directory, _ project: Project, _ library: Library)
        throws(Failure)
    {
        let oldName = entry.name.string
        var refused: SysError?
        try withProjectLock(project) { lock throws(ProjectFile.Problem) in
            let staged = try lock.stage { m in
                if let r = m.trash.removeValue(forKey: oldName) { m.trash[name] = r }
            }
            do throws(SysError) {
                try dir.move(entry.name.bytes, to: dir, as: Array(name.utf8))
            } catch {
                refused = error  // The staged version stays unused in the spare.
                return
            }
            do throws(ProjectFile.Problem) {
                project.metadata = try commitAfterMove(staged, lock, project, syncing: [dir])
            } catch {
                // Refused even that, the rename stands without its record, as after a crash between the two.
                if undoMove(Array(name.utf8), from: dir, back: dir, as: entry.name.bytes) { throw error }
            }
        }
        if let refused, let parent = entry.parent { throw failure(for: refused, target: name, in: parent, library) }
    }

    enum FreeNameMove {
        case moved(EntryName, ProjectFile.Lock.Staged?)
        case failed(SysError)
        case noFreeName
    }

    /// Moves `entry` into `folder` as `base`, or the first of "base 2",
    /// "base 3"… that is free both in the model and on disk; never over an
    /// existing name. `staging` runs before each try and may stage a
    /// project.json that names the candidate. A name that appears between
    /// the check and the move (EEXIST) is skipped; its staged version stays
    /// unused in the spare.
    func moveUnderFreeName(
        _ entry: Entry, base: String, from: Directory, into folder: Entry, _ to: Directory,
        staging: (String) throws(ProjectFile.Problem) -> ProjectFile.Lock.Staged?
    ) throws(ProjectFile.Problem) -> FreeNameMove {
        var n = 1
        while n < 10_000 {
            let candidate = n == 1 ? base : NameRules.numbered(base, n, isFolder: entry.isFolderLike)
            // Under its own name, the item keeps its exact bytes, even when they are not UTF-8.
            let newName = candidate == entry.name.string ? entry.name : EntryName(candidate)
            n += 1
            if folder.clash(with: candidate) != nil || to.exists(newName.bytes) { continue }
            let staged = try staging(candidate)
            do throws(SysError) {
                try from.move(entry.name.bytes, to: to, as: newName.bytes)
            } catch {
                if error.code == EEXIST { continue }
                return .failed(error)
            }
            return .moved(newName, staged)
        }
        return .noFreeName
    }

    /// Puts a staged project.json in place once its item has moved, and
    /// makes both durable with one wait. A record that cannot be put in
    /// place is thrown: the caller undoes the move, since an item whose
    /// record lives nowhere but in memory would lose where it came from.
    func commitAfterMove(
        _ staged: ProjectFile.Lock.Staged?, _ lock: ProjectFile.Lock, _ project: Project,
        syncing folders: [Directory]
    ) throws(ProjectFile.Problem) -> ProjectMetadata {
        guard let staged else {
            Directory.sync(folders)
            return project.metadata
        }
        return try lock.commit(staged, alsoSyncing: folders)
    }

    /// Moves an item back where it was, after its record could not be
    /// written. False, logged, when even that is refused: the item then
    /// stays where it went, once, as if the record had been written, and
    /// the next open repairs what it can (as after a crash there).
    func undoMove(_ name: [UInt8], from: Directory, back to: Directory, as oldName: [UInt8]) -> Bool {
        do {
            try from.move(name, to: to, as: oldName)
            Directory.sync(from, to)
            return true
        } catch {
            let path = BytePath.display(BytePath.join(from.path, name))
            log("could not move \(path) back after its record failed: \(error); it stays there without its record")
            return false
        }
    }

    static func projectFile(_ project: Project) -> String {
        BytePath.display(ProjectFile.markerPath(project.root.path))
    }

    /// What went wrong with project.json, for a sentence that already names it.
    static func detail(of problem: ProjectFile.Problem) -> String {
        switch problem {
        case .sys(let e): return e.message
        case .corrupt(let detail): return detail
        case .unsupportedVersion(let v): return "format version \(v)"
        }
    }

    /// Why a project lacks one of its permanent folders: what is at its
    /// name instead (a link, a file, a pipe), or nothing.
    func noFolder(_ role: FolderRole, in project: Project) -> Failure {
        let name = project.type.folder(role).flatMap { project.metadata.path(of: $0) } ?? role.rawValue
        let path = BytePath.display(project.root.path) + "/" + name
        if let dir = try? Directory.open(project.root.path), let found = dir.kind(of: Array(name.utf8)),
            found != .folder
        {
            return Failure(.io, .unusableEntry(path: path, found: found, expected: .folder))
        }
        return Failure(.notFound, .notFound(path: path))
    }

    /// Runs `body` holding the project's lock, mapping its problems to failures.
    func withProjectLock(_ project: Project, _ body: (ProjectFile.Lock) throws(ProjectFile.Problem) -> Void)
        throws(Failure)
    {
        do {
            try ProjectFile.locked(project.root.path, body)
        } catch {
            throw failure(for: error, projectPath: project.root.path)
        }
    }

    func deleteForever(_ entry: Entry, _ project: Project, _ library: Library) throws(Failure) -> Outcome {
        guard let parent = entry.parent else { throw Failure(.notFound, .notFound(path: BytePath.display(entry.path))) }
        let from = try open(parent, in: library)
        let purge = try purgeDirectory(project)
        let hidden = Array("\(getpid())-\(Clock.nowMs())-\(UInt32.random(in: 0...UInt32.max))".utf8)
        let path = entry.path
        do { try from.move(entry.name.bytes, to: purge, as: hidden) } catch {
            throw failure(for: error, name: entry.name.string)
        }
        Directory.sync(purge, from)
        let topName = parent === project.trash ? entry.name.string : nil
        parent.remove(entry)
        watching?.unwatchTree(entry)
        entry.dismantle()
        if let n = topName, project.metadata.trash[n] != nil { updateMetadata(project) { $0.trash[n] = nil } }
        do { try purge.removeTree(hidden) } catch {
            log(
                "could not finish deleting \(BytePath.display(path)) in \(BytePath.display(purge.path)): \(error); the next start finishes it"
            )
        }
        return Outcome(
            result: .deleted(1), changes: [Change(.deleted, path)],
            report: .deletedForGood(name: BytePath.display(BytePath.split(path).name)))
    }

    public func emptyTrash(_ target: Target) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard let project = library.project(containing: entry) else {
            throw Failure(.notInTrash, .noRestoreInPlainTree(name: entry.name.string))
        }
        // A Trash that is not a real, readable folder is refused, not taken
        // for an empty one: emptying it would drop every record.
        guard let trash = project.trash else { throw noFolder(.trash, in: project) }
        if trash.unreadable { _ = try open(trash, in: library) }
        var changes: [Change] = []
        var count = 0
        for item in trash.sortedChildren(.byName) {
            let o = try deleteForever(item, project, library)
            changes += o.changes
            count += 1
        }
        if !project.metadata.trash.isEmpty { updateMetadata(project) { $0.trash = [:] } }
        return Outcome(
            result: .deleted(count), changes: changes,
            report: count == 0 ? .trashWasEmpty : .deletedItemsForGood(count: count))
    }

    /// The number of top-level items in a project's Trash, for the question.
    public func trashCount(_ target: Target) -> (project: String, count: Int)? {
        guard case .entry(let entry, let library) = target, let p = library.project(containing: entry) else {
            return nil
        }
        return (title(of: p.root, in: library), p.trash?.children.count ?? 0)
    }

    func moveToSystemTrash(_ entry: Entry, _ library: Library) throws(Failure) -> Outcome {
        guard let parent = entry.parent else {
            throw Failure(.permanentFolder, .libraryRoot(name: library.displayName))
        }
        let dir = try open(parent, in: library)
        let path = entry.path
        do { try SystemTrash.trash(entry.name.bytes, in: dir) } catch {
            throw failure(for: error, name: entry.name.string)
        }
        if let p = library.project(at: entry) { library.projects[ObjectIdentifier(p.root)] = nil }
        parent.remove(entry)
        watching?.unwatchTree(entry)
        entry.dismantle()
        return Outcome(
            result: .systemTrash, changes: [Change(.deleted, path)],
            report: .movedToSystemTrash(name: BytePath.display(BytePath.split(path).name)))
    }

    public func restore(_ target: Target) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard let project = library.project(containing: entry) else {
            throw Failure(.notInTrash, .noRestoreInPlainTree(name: entry.name.string))
        }
        guard project.isInTrash(entry), let top = project.trashItem(containing: entry), let parent = entry.parent else {
            throw Failure(.notInTrash, .notInTrash(name: entry.name.string))
        }
        // Where it came from: the top item's record, plus the path inside it.
        let record = project.metadata.trash[top.name.string]
        var components = (record?.originalPath ?? top.name.string).split(separator: "/").map(String.init)
        components.removeAll { $0.isEmpty || $0 == "." || $0 == ".." }
        if components.isEmpty { components = [top.name.string] }
        // A record names folders the writer never typed: one Carrel could
        // not make (hidden, `.carrel`, control characters) makes the record
        // unusable, which is said as such rather than as a naming rule.
        if let record, components.contains(where: { (try? NameRules.validate($0)) == nil }) {
            throw Failure(.io, .unusableTrashRecord(name: top.name.string, origin: Self.printable(record.originalPath)))
        }
        let inner = entry.components(below: top) ?? []
        let originalName = inner.isEmpty ? components.removeLast() : entry.name.string
        if !inner.isEmpty { components += inner.dropLast().map(\.string) }

        var created: [Entry] = []
        do {
            return try restore(
                entry, top: top, from: parent, into: components, as: originalName, project, library,
                created: &created)
        } catch {
            removeCreatedFolders(created, library)
            throw error
        }
    }

    private func restore(
        _ entry: Entry, top: Entry, from parent: Entry, into components: [String],
        as originalName: String, _ project: Project, _ library: Library,
        created: inout [Entry]
    ) throws(Failure) -> Outcome {
        var changes: [Change] = []
        var destination = project.root
        for c in components {
            if let existing = destination.clash(with: c), existing.kind == .directory {
                destination = existing
                continue
            }
            // A permanent folder replaced by a link or a file is said to be that, not a name clash.
            if destination === project.root, destination.clash(with: c) != nil,
                let role = project.type.directories.first(where: { project.metadata.path(of: $0) == c })?.role
            {
                throw noFolder(role, in: project)
            }
            let made = try newFolder(in: .entry(destination, library), name: c)
            changes += made.changes
            guard case .item(.entry(let e, _)) = made.result else { break }
            created.append(e)
            destination = e
        }
        let (from, to) = try open(parent, destination, in: library)
        let oldPath = entry.path
        let wasTop = entry === top
        let topName = top.name.string
        var moved = FreeNameMove.noFreeName
        var unrecorded: ProjectFile.Problem?
        // Move and record drop under one lock, as for a delete (see `moveToTrash`).
        try withProjectLock(project) { lock throws(ProjectFile.Problem) in
            let staged = wasTop ? try lock.stage(trash: topName, nil) : nil
            moved = try moveUnderFreeName(entry, base: originalName, from: from, into: destination, to) {
                _ throws(ProjectFile.Problem) in staged
            }
            if case .moved(let newName, let staged) = moved {
                do throws(ProjectFile.Problem) {
                    project.metadata = try commitAfterMove(staged, lock, project, syncing: [to, from])
                } catch {
                    if undoMove(newName.bytes, from: to, back: from, as: entry.name.bytes) { unrecorded = error }
                }
            }
        }
        if let unrecorded {
            throw Failure(
                .io,
                .restoreNotRecorded(
                    name: entry.name.string, path: Self.projectFile(project),
                    detail: Self.detail(of: unrecorded)))
        }
        switch moved {
        case .failed(let error): throw failure(for: error, name: entry.name.string)
        case .noFreeName: throw Failure(.conflict, .appeared(name: originalName, parent: destination.name.string))
        case .moved(let newName, _): entry.move(to: destination, as: newName)
        }
        created = []
        changes.append(Change(.moved, entry.path, from: oldPath))
        let into =
            project.permanentFolder(for: destination)?.title
            ?? Localized(en: destination.name.string, fr: destination.name.string)
        return Outcome(
            result: .item(.entry(entry, library)), changes: changes,
            report: .restored(name: entry.name.string, to: into))
    }

    /// Removes the folders a refused restore made for the item's origin,
    /// deepest first, each only while still empty: the refusal says
    /// nothing was changed.
    func removeCreatedFolders(_ created: [Entry], _ library: Library) {
        for folder in created.reversed() {
            guard let parent = folder.parent, folder.children.isEmpty,
                let dir = try? open(parent, in: library)
            else { continue }
            do {
                try dir.removeEmptyDirectory(folder.name.bytes)
                dir.sync()
            } catch {
                log("could not remove \(BytePath.display(folder.path)), made for a refused restore: \(error)")
                continue
            }
            parent.remove(folder)
            watching?.unwatchTree(folder)
            folder.dismantle()
        }
    }

    /// A record's text for a message: control characters are spelled out, never sent to a terminal.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `.carrel/purge`, made when missing. A link or anything else there is
    /// refused: everything in it gets deleted.
    func purgeDirectory(_ project: Project) throws(Failure) -> Directory {
        do {
            let carrel = try ProjectFile.carrelFolder(project.root.path)
            if !carrel.exists(Self.purgeDirectory) { try carrel.makeDirectory(Self.purgeDirectory) }
            return try carrel.realSubdirectory(Self.purgeDirectory)
        } catch {
            throw failure(for: error)
        }
    }

    /// Finishes deletions a crash interrupted. Everything in `.carrel/purge`
    /// was confirmed for deletion and already left the Trash. Only a real
    /// folder, opened without following links from the project's, is emptied.
    func finishPurges(_ project: Project) {
        let path = BytePath.join(BytePath.join(project.root.path, ProjectFile.directoryName), Self.purgeDirectory)
        let purge: Directory
        do {
            let carrel = try ProjectFile.carrelFolder(project.root.path)
            guard carrel.exists(Self.purgeDirectory) else { return }
            purge = try carrel.realSubdirectory(Self.purgeDirectory)
        } catch {
            log("repair: left \(BytePath.display(path)) alone: \(error)")
            return
        }
        guard let items = try? purge.list(), !items.isEmpty else { return }
        for (name, _) in items {
            do { try purge.removeTree(name) } catch {
                log("repair: could not finish deleting \(BytePath.display(path))/\(BytePath.display(name)): \(error)")
            }
        }
        log("repair: finished \(items.count) interrupted deletion(s) in \(BytePath.display(path))")
    }
}
