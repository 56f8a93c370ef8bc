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
/// - trash: the provenance record is written first, then the item moves. A
///   crash between leaves a record for an item not in Trash, dropped on open.
/// - restore: the item moves first, then its record goes. Same repair.
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
        guard let trash = project.trash, let parent = entry.parent else {
            throw Failure(.notFound, .notFound(path: BytePath.display(project.root.path) + "/Trash"))
        }
        let original = (entry.components(below: project.root) ?? [entry.name]).map(\.string).joined(separator: "/")
        let from = try open(parent, in: library)
        let to = try open(trash, in: library)
        let oldPath = entry.path
        // Record and move under one lock: no other Carrel sees the record
        // without the move (see `repair`). A crash between them leaves a
        // record that the next open drops.
        var moveError: SysError?
        var trashedAs: EntryName?
        try withProjectLock(project) { lock throws(ProjectFile.Problem) in
            var n = 1
            while n < 10_000 {
                let candidate = n == 1 ? entry.name.string : NameRules.numbered(entry.name.string, n, isFolder: entry.isFolderLike)
                // Unsuffixed, the item keeps its exact bytes, even when they are not UTF-8.
                let newName = n == 1 ? entry.name : EntryName(candidate)
                n += 1
                if trash.clash(with: candidate) != nil || to.exists(newName.bytes) { continue }
                project.metadata = try lock.update { $0.trash[candidate] = .init(originalPath: original, deleted: Clock.nowMs()) }
                do throws(SysError) {
                    try from.move(entry.name.bytes, to: to, as: newName.bytes)
                } catch {
                    project.metadata = (try? lock.update { $0.trash[candidate] = nil }) ?? project.metadata
                    if error.code == EEXIST { continue }
                    moveError = error
                    return
                }
                trashedAs = newName
                return
            }
        }
        if let moveError { throw failure(for: moveError, name: entry.name.string) }
        guard let newName = trashedAs else { throw Failure(.conflict, .appeared(name: entry.name.string, parent: trash.name.string)) }
        Directory.sync(to, from)
        entry.move(to: trash, as: newName)
        return Outcome(result: .item(.entry(entry, library)), changes: [Change(.moved, entry.path, from: oldPath, inTrash: true)])
    }

    /// Runs `body` holding the project's lock, mapping its problems to failures.
    func withProjectLock(_ project: Project, _ body: (ProjectFile.Lock) throws(ProjectFile.Problem) -> Void) throws(Failure) {
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
        do { try from.move(entry.name.bytes, to: purge, as: hidden) } catch { throw failure(for: error, name: entry.name.string) }
        Directory.sync(purge, from)
        let topName = parent === project.trash ? entry.name.string : nil
        parent.remove(entry)
        watching?.unwatchTree(entry)
        entry.dismantle()
        if let n = topName, project.metadata.trash[n] != nil { updateMetadata(project) { $0.trash[n] = nil } }
        do { try purge.removeTree(hidden) } catch { log("could not finish deleting \(BytePath.display(path)) in \(BytePath.display(purge.path)): \(error); the next start finishes it") }
        return Outcome(result: .deleted(1), changes: [Change(.deleted, path)])
    }

    public func emptyTrash(_ target: Target) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard let project = library.project(containing: entry) else {
            throw Failure(.notInTrash, .noRestoreInPlainTree(name: entry.name.string))
        }
        var changes: [Change] = []
        var count = 0
        for item in project.trash?.sortedChildren(.byName) ?? [] {
            let o = try deleteForever(item, project, library)
            changes += o.changes
            count += 1
        }
        if !project.metadata.trash.isEmpty { updateMetadata(project) { $0.trash = [:] } }
        return Outcome(result: .deleted(count), changes: changes)
    }

    /// The number of top-level items in a project's Trash, for the question.
    public func trashCount(_ target: Target) -> (project: String, count: Int)? {
        guard case .entry(let entry, let library) = target, let p = library.project(containing: entry) else { return nil }
        return (title(of: p.root, in: library), p.trash?.children.count ?? 0)
    }

    func moveToSystemTrash(_ entry: Entry, _ library: Library) throws(Failure) -> Outcome {
        guard let parent = entry.parent else { throw Failure(.permanentFolder, .libraryRoot(name: library.displayName)) }
        let dir = try open(parent, in: library)
        let path = entry.path
        do { try SystemTrash.trash(entry.name.bytes, in: dir) } catch { throw failure(for: error, name: entry.name.string) }
        if let p = library.project(at: entry) { library.projects[ObjectIdentifier(p.root)] = nil }
        parent.remove(entry)
        watching?.unwatchTree(entry)
        entry.dismantle()
        return Outcome(result: .systemTrash, changes: [Change(.deleted, path)])
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
        let inner = entry.components(below: top) ?? []
        let originalName = inner.isEmpty ? components.removeLast() : entry.name.string
        if !inner.isEmpty { components += inner.dropLast().map(\.string) }

        var changes: [Change] = []
        var destination = project.root
        for c in components {
            if let existing = destination.clash(with: c), existing.kind == .directory {
                destination = existing
                continue
            }
            let made = try newFolder(in: .entry(destination, library), name: c)
            changes += made.changes
            guard case .item(.entry(let e, _)) = made.result else { break }
            destination = e
        }
        let from = try open(parent, in: library)
        let to = try open(destination, in: library)
        let oldPath = entry.path
        var finalName = EntryName(originalName)
        var n = 1
        while true {
            let candidate = n == 1 ? originalName : NameRules.numbered(originalName, n, isFolder: entry.isFolderLike)
            // Back under its own name, it keeps its exact bytes, even when they are not UTF-8.
            let newName = candidate == entry.name.string ? entry.name : EntryName(candidate)
            n += 1
            if destination.clash(with: candidate) != nil || to.exists(newName.bytes) { continue }
            do {
                try from.move(entry.name.bytes, to: to, as: newName.bytes)
            } catch {
                if error.code == EEXIST, n < 10_000 { continue }
                throw failure(for: error, name: entry.name.string)
            }
            finalName = newName
            break
        }
        Directory.sync(to, from)
        let wasTop = entry === top
        let topName = top.name.string
        entry.move(to: destination, as: finalName)
        if wasTop { updateMetadata(project) { $0.trash[topName] = nil } }
        changes.append(Change(.moved, entry.path, from: oldPath))
        return Outcome(result: .item(.entry(entry, library)), changes: changes)
    }

    func purgeDirectory(_ project: Project) throws(Failure) -> Directory {
        do {
            let carrel = try Directory.open(BytePath.join(project.root.path, ProjectFile.directoryName))
            if !carrel.exists(Self.purgeDirectory) { try carrel.makeDirectory(Self.purgeDirectory) }
            return try carrel.subdirectory(Self.purgeDirectory)
        } catch {
            throw failure(for: error)
        }
    }

    /// Finishes deletions a crash interrupted. Everything in `.carrel/purge`
    /// was confirmed for deletion and already left the Trash.
    func finishPurges(_ project: Project) {
        let path = BytePath.join(BytePath.join(project.root.path, ProjectFile.directoryName), Self.purgeDirectory)
        guard let purge = try? Directory.open(path), let items = try? purge.list(), !items.isEmpty else { return }
        for (name, _) in items {
            do { try purge.removeTree(name) } catch { log("repair: could not finish deleting \(BytePath.display(path))/\(BytePath.display(name)): \(error)") }
        }
        log("repair: finished \(items.count) interrupted deletion(s) in \(BytePath.display(path))")
    }
}
