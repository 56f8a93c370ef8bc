import CarrelModel
import CarrelStore
import Glibc

/// Restore: an item in Trash goes back where it came from.
extension Workspace {
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
        let (recorded, guess) = try origin(of: top, project)
        var components = recorded
        let inner = entry.components(below: top) ?? []
        let originalName = inner.isEmpty ? components.removeLast() : entry.name.string
        if !inner.isEmpty { components += inner.dropLast().map(\.string) }

        var created: [Entry] = []
        do {
            return try restore(
                entry, top: top, from: parent, into: components, as: originalName, guess: guess, project,
                library, created: &created)
        } catch {
            removeCreatedFolders(created, library)
            throw error
        }
    }

    private func restore(
        _ entry: Entry, top: Entry, from parent: Entry, into components: [String],
        as originalName: String, guess: Message?, _ project: Project, _ library: Library,
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
        let snapshots = snapshotsBeforeMove(entry, library)
        noteSnapshotMove(
            snapshots, to: (destination.components(below: project.root) ?? []) + [EntryName(originalName)],
            in: project)
        var moved = FreeNameMove.noFreeName
        // The item moves out first, then its record goes, under one lock
        // as for a delete (see `moveToTrash`).
        try withProjectLock(project) { _ throws(ProjectFile.Problem) in
            moved = moveUnderFreeName(entry, base: originalName, from: from, into: destination, to)
            guard case .moved = moved else { return }
            if wasTop { dropRecord(topName, project, syncing: [to, from]) } else { Directory.sync([to, from]) }
        }
        switch moved {
        case .failed(let error): throw failure(for: error, name: entry.name.string)
        case .noFreeName: throw Failure(.conflict, .appeared(name: originalName, parent: destination.name.string))
        case .moved(let newName): entry.move(to: destination, as: newName)
        }
        carrySnapshots(snapshots, to: entry, library)
        created = []
        changes.append(Change(.moved, entry.path, from: oldPath))
        let into =
            project.permanentFolder(for: destination)?.title
            ?? Localized(en: destination.name.string, fr: destination.name.string)
        let report: Report =
            guess.map { .restoredByGuess(name: entry.name.string, to: into, because: $0) }
            ?? .restored(name: entry.name.string, to: into)
        return Outcome(result: .item(.entry(entry, library)), changes: changes, report: report)
    }

    /// The most folders deep a record's origin may be: a writer's binder is
    /// a few levels deep, and each level a restore recreates is a folder
    /// made, synced and watched, so a record naming thousands (a hand, a
    /// hostile library) is refused before any of that work.
    static let originDepthLimit = 64

    /// The path a Trash item goes back to, relative to the project (the
    /// item's own name last), and, when the record did not say for sure,
    /// why it goes there: no record, an origin inside the Trash itself
    /// (no origin at all: restoring into it would leave the item where
    /// Empty Trash destroys it), or a record sync's conflict copy was
    /// matched to by a guess (`TrashRecords.twins`). Refuses an origin it
    /// will not recreate, before any work that grows with it.
    func origin(of top: Entry, _ project: Project) throws(Failure) -> (components: [String], guess: Message?) {
        let name = top.name.string
        guard let record = project.metadata.trash[name] else { return ([name], .noTrashRecord) }
        var components = record.originalPath.split(separator: "/").map(String.init)
        components.removeAll { $0.isEmpty || $0 == "." || $0 == ".." }
        if components.isEmpty { return ([name], .noTrashRecord) }
        if components.count - 1 > Self.originDepthLimit {
            throw Failure(
                .io, .originTooDeep(name: name, depth: components.count - 1, limit: Self.originDepthLimit))
        }
        if let trash = project.trash, project.root.clash(with: components[0]) === trash {
            return ([name], .originInTrash(origin: Self.printable(record.originalPath)))
        }
        // A record names folders the writer never typed: one Carrel could
        // not make (hidden, `.carrel`, control characters) makes the record
        // unusable, which is said as such rather than as a naming rule.
        if components.contains(where: { (try? NameRules.validate($0)) == nil }) {
            throw Failure(.io, .unusableTrashRecord(name: name, origin: Self.printable(record.originalPath)))
        }
        let origin = Self.printable(record.originalPath)
        if let twin = record.deletedAs {
            return (components, .guessedTwinRecord(name: Self.printable(twin), earlier: true, origin: origin))
        }
        // The item sync kept under this name, when a copy of it took the other deletion's record.
        if project.metadata.trash.values.contains(where: { $0.deletedAs == name }) {
            return (components, .guessedTwinRecord(name: Self.printable(name), earlier: false, origin: origin))
        }
        return (components, nil)
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
}
