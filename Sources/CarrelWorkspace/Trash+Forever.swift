import CarrelModel
import CarrelStore
import Glibc

/// Deleting for good: inside the Trash, emptying it, and outside projects
/// to the system trash. Only ever after the writer confirmed.
extension Workspace {
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
        removeSnapshots(of: entry, library)
        let topName = parent === project.trash ? entry.name.string : nil
        parent.remove(entry)
        watching?.unwatchTree(entry)
        entry.dismantle()
        if let n = topName, project.metadata.trash[n] != nil { dropRecord(n, project) }
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
        var vanished = false
        for item in trash.sortedChildren(.byName) {
            // An item another program removed before the watcher told the
            // model is already gone: refusing here, after deleting the
            // ones before it, would say nothing changed.
            let o: Outcome
            do { o = try deleteForever(item, project, library) } catch {
                guard error.reason == .notFound else { throw error }
                vanished = true
                continue
            }
            changes += o.changes
            count += 1
        }
        if vanished { changes += reconcile(trash) }
        for name in Array(project.metadata.trash.keys) { dropRecord(name, project) }
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
