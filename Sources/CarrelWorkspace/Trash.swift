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
/// - trash: the item's record is written to `.carrel/trash` and made
///   durable, then the item moves. A crash keeps the record alone (dropped
///   on open, its item not being in Trash) or both.
/// - restore: the item moves out first, then its record goes. A crash
///   keeps the move alone, and the record, naming nothing in Trash, is
///   dropped on open.
/// - rename inside Trash: a record under the new name is written, the item
///   renamed, then the old record removed; whichever steps a crash keeps,
///   the item still has a record (see `repair`).
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
        // Record and move under one lock, so no other Carrel's repair sees
        // the record before its item and drops it. The record is durable
        // before the move, so whichever half a crash keeps, the item's
        // origin is never lost.
        let records = try recordsFolder(project, forItem: entry.name.string)
        let snapshots = snapshotsBeforeMove(entry, library)
        noteSnapshotMove(snapshots, to: [trash.name, entry.name], in: project)
        var moved = FreeNameMove.noFreeName
        var unrecorded: SysError?
        var recorded: ProjectMetadata.TrashRecord?
        try withProjectLock(project) { _ throws(ProjectFile.Problem) in
            let record = ProjectMetadata.TrashRecord(originalPath: original, deleted: Clock.nowMs())
            moved = moveUnderFreeName(entry, base: entry.name.string, from: from, into: trash, to) { name in
                do throws(SysError) {
                    recorded = try TrashRecords.write(name, record, in: records)
                    return true
                } catch {
                    unrecorded = error
                    return false
                }
            } abandon: {
                if let id = recorded?.id { TrashRecords.remove(id, in: records) }
                recorded = nil
            }
            if case .moved = moved { Directory.sync([to, from]) }
        }
        if let unrecorded {
            throw Failure(
                .io,
                .trashRecordNotWritten(
                    name: entry.name.string, path: BytePath.display(records.path), detail: unrecorded.message))
        }
        switch moved {
        case .failed(let error): throw failure(for: error, name: entry.name.string)
        case .noFreeName: throw Failure(.conflict, .appeared(name: entry.name.string, parent: trash.name.string))
        case .moved(let newName):
            entry.move(to: trash, as: newName)
            project.metadata.trash[newName.string] = recorded
            carrySnapshots(snapshots, to: entry, library)
        }
        return Outcome(
            result: .item(.entry(entry, library)), changes: [Change(.moved, entry.path, from: oldPath, inTrash: true)],
            report: .movedToTrash(name: entry.name.string))
    }

    /// `.carrel/trash`, made when missing; refused, as the record of
    /// `item` that cannot be written, when it is not a real folder.
    func recordsFolder(_ project: Project, forItem item: String) throws(Failure) -> Directory {
        let path = BytePath.join(BytePath.join(project.root.path, ProjectFile.directoryName), TrashRecords.folderName)
        do throws(SysError) {
            let carrel = try ProjectFile.carrelFolder(project.root.path)
            guard let records = try TrashRecords.folder(in: carrel, create: true) else {
                throw SysError("open", BytePath.display(path), code: ENOENT)
            }
            return records
        } catch {
            throw Failure(
                .io, .trashRecordNotWritten(name: item, path: BytePath.display(path), detail: error.message))
        }
    }

    /// `.carrel/trash` when it is there and a real folder.
    func existingRecordsFolder(_ project: Project) -> Directory? {
        (try? ProjectFile.carrelFolder(project.root.path)).flatMap { try? TrashRecords.folder(in: $0, create: false) }
    }

    /// Forgets the record of the Trash item `name`, which has left the
    /// Trash. A record that cannot be removed names nothing in Trash, and
    /// the next open drops it.
    func dropRecord(_ name: String, _ project: Project, syncing folders: [Directory] = []) {
        let record = project.metadata.trash.removeValue(forKey: name)
        guard let id = record?.id, !id.isEmpty, let records = existingRecordsFolder(project) else {
            Directory.sync(folders)
            return
        }
        TrashRecords.remove(id, in: records)
        Directory.sync(folders + [records])
    }

    /// Renames an item at the top of a project's Trash together with its
    /// record: a record under the new name is made durable before the
    /// rename and the old one removed after, so whichever steps a crash
    /// keeps, the item has a record (two for a moment; see `repair`).
    func renameWithRecord(_ entry: Entry, to name: String, in dir: Directory, _ project: Project, _ library: Library)
        throws(Failure)
    {
        let oldName = entry.name.string
        guard let old = project.metadata.trash[oldName] else { return }
        let records = try recordsFolder(project, forItem: oldName)
        var refused: SysError?
        var unrecorded: SysError?
        try withProjectLock(project) { _ throws(ProjectFile.Problem) in
            let written: ProjectMetadata.TrashRecord
            do throws(SysError) {
                written = try TrashRecords.write(
                    name, .init(originalPath: old.originalPath, deleted: old.deleted), in: records)
            } catch {
                unrecorded = error
                return
            }
            do throws(SysError) {
                try dir.move(entry.name.bytes, to: dir, as: Array(name.utf8))
            } catch {
                refused = error
                TrashRecords.remove(written.id, in: records)
                records.sync()
                return
            }
            if !old.id.isEmpty { TrashRecords.remove(old.id, in: records) }
            Directory.sync([dir, records])
            project.metadata.trash[oldName] = nil
            project.metadata.trash[name] = written
        }
        if let unrecorded {
            throw Failure(
                .io,
                .trashRecordNotWritten(name: oldName, path: BytePath.display(records.path), detail: unrecorded.message))
        }
        if let refused, let parent = entry.parent { throw failure(for: refused, target: name, in: parent, library) }
    }

    enum FreeNameMove {
        case moved(EntryName)
        case failed(SysError)
        case noFreeName
    }

    /// Moves `entry` into `folder` as `base`, or the first of "base 2",
    /// "base 3"… that is free both in the model and on disk; never over an
    /// existing name. `prepare` runs before each try (false stops with
    /// `.noFreeName`, having moved nothing) and `abandon` after each try
    /// that did not move: a name that appears between the check and the
    /// move (EEXIST) is skipped.
    func moveUnderFreeName(
        _ entry: Entry, base: String, from: Directory, into folder: Entry, _ to: Directory,
        prepare: (String) -> Bool = { _ in true }, abandon: () -> Void = {}
    ) -> FreeNameMove {
        var n = 1
        while n < 10_000 {
            let candidate = n == 1 ? base : NameRules.numbered(base, n, isFolder: entry.isFolderLike)
            // Under its own name, the item keeps its exact bytes, even when they are not UTF-8.
            let newName = candidate == entry.name.string ? entry.name : EntryName(candidate)
            n += 1
            if folder.clash(with: candidate) != nil || to.exists(newName.bytes) { continue }
            guard prepare(candidate) else { return .noFreeName }
            do throws(SysError) {
                try from.move(entry.name.bytes, to: to, as: newName.bytes)
            } catch {
                abandon()
                if error.code == EEXIST { continue }
                return .failed(error)
            }
            return .moved(newName)
        }
        return .noFreeName
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
}
