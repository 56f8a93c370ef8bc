import CarrelModel
import CarrelStore

/// Undo and redo of binder operations. Each operation that moves, renames,
/// makes, deletes to the Trash or restores an item is journaled with where
/// the item is now, where it was, and a fingerprint of what it left
/// (`CarrelStore/Journal.swift`, in the state folder). Undo does the
/// inverse with the same commands the writer uses, so it keeps their
/// checks, their order files and their crash safety; it first checks that
/// the disk still holds what the operation left, and changes nothing when
/// it does not. Undo of a new item moves it to the Trash: undo never destroys.
extension Workspace {
    /// The commands whose outcome can be taken back. A delete counts only
    /// when it moved the item to a project's Trash; a move into the Trash
    /// is journaled as a deletion.
    public enum Undoable: Sendable {
        case newItem, duplicate, rename, move, delete, restore

        var operation: JournalEntry.Operation {
            switch self {
            case .newItem: return .created
            case .duplicate: return .duplicated
            case .rename: return .renamed
            case .move: return .moved
            case .delete: return .trashed
            case .restore: return .restored
            }
        }
    }

    /// Notes a command's outcome as a step to undo, and clears what could
    /// be redone. Written after the disk: a crash before it loses only the
    /// ability to take this one step back.
    public func noteForUndo(_ command: Undoable, _ outcome: Outcome) {
        var operation = command.operation
        if case .movedToTrash? = outcome.report {
            operation = .trashed
        } else if operation == .trashed {
            return  // deleted for good or to the system trash: nothing Carrel can take back
        }
        guard case .item(.entry(let entry, let library)) = outcome.result,
            let path = relativePath(entry.path, in: library)
        else { return }
        var origin: String? = nil
        switch operation {
        case .created, .duplicated:
            // Outside projects there is no Trash for its undo to move it to.
            guard library.project(containing: entry)?.trash != nil,
                outcome.changes.contains(where: { $0.kind == .created && $0.path == entry.path })
            else { return }
        case .sorted, .reordered, .targetSet, .askingChanged:
            return  // journaled by `journalingSetting`, which sees the value before
        case .renamed, .moved, .trashed, .restored:
            guard let moved = outcome.changes.last(where: { $0.kind == .moved && $0.path == entry.path }),
                let old = moved.oldPath, let from = relativePath(old, in: library)
            else { return }
            origin = from
        }
        guard let print = fingerprint(of: entry, library) else { return }
        addStep(JournalEntry(operation, path: path, origin: origin, fingerprint: print), in: library)
    }

    /// Adds a step to undo and clears what could be redone, as any new operation does.
    func addStep(_ step: JournalEntry, in library: Library) {
        Journal.locked(for: library.path) { () -> Void in
            var journal = loadJournal(library)
            journal.undo.append(step)
            journal.redo.removeAll()
            Journal.save(journal, for: library.path)
        }
        undoLibraryPath = library.path
    }

    /// Takes back the last operation journaled in `library` (nil: the only
    /// library, else the last one an operation was journaled in).
    public func undo(in library: Library?) throws(Failure) -> Outcome {
        try takeBack(in: try undoLibrary(library), redoing: false, buffers: { _ in [:] }, canEditBuffers: false).0
    }

    /// Does again the last operation undone in `library`.
    public func redo(in library: Library?) throws(Failure) -> Outcome {
        try takeBack(in: try undoLibrary(library), redoing: true, buffers: { _ in [:] }, canEditBuffers: false).0
    }

    /// Undo or redo for an editor: `buffers` gives its open buffers' text
    /// by library path; the link edits of those files are returned for it to
    /// make (`workspace/applyEdit`), and refused when it cannot.
    public func takeBack(
        in library: Library?, redoing: Bool, buffers: (Library) -> [[String]: [UInt8]], canEditBuffers: Bool
    ) throws(Failure) -> (Outcome, BufferLinkEdits) {
        try takeBack(in: try undoLibrary(library), redoing: redoing, buffers: buffers, canEditBuffers: canEditBuffers)
    }

    func undoLibrary(_ given: Library?) throws(Failure) -> Library {
        if let given { return given }
        if libraries.count == 1 { return libraries[0] }
        if let path = undoLibraryPath, let used = libraries.first(where: { $0.path == path }) { return used }
        throw Failure(.invalidParams, .undoNeedsLibrary)
    }

    /// Holds the journal's lock from its read to its write, so a step
    /// another process adds meanwhile is neither lost nor taken back twice.
    private func takeBack(
        in library: Library, redoing: Bool, buffers: (Library) -> [[String]: [UInt8]], canEditBuffers: Bool
    ) throws(Failure) -> (Outcome, BufferLinkEdits) {
        try Journal.locked(for: library.path) { () throws(Failure) -> (Outcome, BufferLinkEdits) in
            var links = TakenBackLinks(buffers: buffers(library), canEditBuffers: canEditBuffers)
            let outcome = try takeBackLocked(in: library, redoing: redoing, &links)
            return (outcome, links.bufferEdits)
        }
    }

    /// The links a step takes back: what the editor holds, and what is left
    /// for it and for the counterpart step.
    struct TakenBackLinks {
        var buffers: [[String]: [UInt8]]
        var canEditBuffers: Bool
        var bufferEdits: BufferLinkEdits = []
        var counterpart: [JournalLinkFile] = []
    }

    private func takeBackLocked(in library: Library, redoing: Bool, _ links: inout TakenBackLinks) throws(Failure)
        -> Outcome
    {
        var journal = loadJournal(library)
        guard let step = redoing ? journal.redo.last : journal.undo.last else {
            return Outcome(
                result: .item(.entry(library.root, library)), changes: [],
                report: redoing ? .nothingToRedo : .nothingToUndo)
        }
        var outcome: Outcome
        do {
            outcome =
                step.operation.isSetting
                ? try putBack(step, library) : try perform(step, redoing: redoing, library, &links)
        } catch {
            // A step the disk no longer matches can never be taken back: it
            // goes, so the steps before it can. Others (a name taken, a
            // folder gone or that cannot be written, a race with another
            // program) stay, to try again.
            if Self.neverUndoable(error.message) {
                if redoing { journal.redo.removeLast() } else { journal.undo.removeLast() }
                Journal.save(journal, for: library.path)
            }
            throw error
        }
        undoLibraryPath = library.path
        if redoing { journal.redo.removeLast() } else { journal.undo.removeLast() }
        if step.operation.isSetting, let before = step.before, let after = step.after {
            let counterpart = JournalEntry(setting: step.operation, path: step.path, before: after, after: before)
            if redoing { journal.undo.append(counterpart) } else { journal.redo.append(counterpart) }
            Journal.save(journal, for: library.path)
            if let said = settingReport(step, redoing: redoing, outcome, library) { outcome.report = said }
            return outcome
        }
        guard case .item(.entry(let entry, _)) = outcome.result, let now = relativePath(entry.path, in: library),
            let print = fingerprint(of: entry, library)
        else {
            Journal.save(journal, for: library.path)
            return outcome
        }
        // A new item brought back from the Trash came from nowhere again.
        let origin = redoing && (step.operation == .created || step.operation == .duplicated) ? nil : step.path
        var counterpart = JournalEntry(step.operation, path: now, origin: origin, fingerprint: print)
        counterpart.links = links.counterpart
        if redoing { journal.undo.append(counterpart) } else { journal.redo.append(counterpart) }
        Journal.save(journal, for: library.path)
        outcome.report = report(step, redoing: redoing, entry, library)
        return outcome
    }

    /// The refusals that say a step can never be taken back.
    static func neverUndoable(_ message: Message) -> Bool {
        switch message {
        case .undoItemGone, .undoItemChanged, .undoStepOutsideLibrary, .undoTrashRecordChanged, .undoSettingChanged,
            .undoStepUnusable, .undoOutsideProject, .undoLinksChanged:
            return true
        default: return false
        }
    }

    private enum Inverse { case moveToOrigin, toTrash, fromTrash }

    /// What taking `step` back (or doing it again) does: renames and moves
    /// go back to where they were; a deletion comes back from the Trash; a
    /// restore, a new item or a copy goes to the Trash, and comes back from it.
    private func inverse(of step: JournalEntry, redoing: Bool) -> Inverse {
        switch step.operation {
        case .renamed, .moved: return .moveToOrigin
        case .trashed: return redoing ? .toTrash : .fromTrash
        case .restored, .created, .duplicated, .sorted, .reordered, .targetSet, .askingChanged:
            return redoing ? .fromTrash : .toTrash
        }
    }

    /// Checks everything, then does the step's inverse with the writer's own commands.
    private func perform(_ step: JournalEntry, redoing: Bool, _ library: Library, _ links: inout TakenBackLinks)
        throws(Failure) -> Outcome
    {
        let parts = try components(step.path)
        let originParts = try step.origin.map { (p: String) throws(Failure) in try components(p) }
        guard let item = entry(at: parts, in: library), item !== library.root, let parent = item.parent else {
            throw Failure(.notFound, .undoItemGone(path: step.path))
        }
        guard let now = fingerprint(of: item, library), let then = step.fingerprint, then.matches(now) else {
            throw Failure(.conflict, .undoItemChanged(path: step.path))
        }
        switch inverse(of: step, redoing: redoing) {
        case .moveToOrigin:
            guard let originParts, let name = originParts.last else {
                throw Failure(.outsideWorkspace, .undoStepOutsideLibrary(path: step.path))
            }
            let folderParts = Array(originParts.dropLast())
            guard let folder = entry(at: folderParts, in: library), folder.kind == .directory else {
                throw Failure(.notFound, .undoOriginGone(path: folderParts.joined(separator: "/")))
            }
            let toPutBack = try linksToPutBack(
                step, from: parts, to: originParts, library, buffers: links.buffers,
                canEditBuffers: links.canEditBuffers)
            let recorded = try recordLinksToPutBack(toPutBack, from: parts, to: originParts, library)
            let outcome: Outcome
            do {
                outcome =
                    folder === parent
                    ? try rename(.entry(item, library), to: name)
                    : try move(.entry(item, library), to: .entry(folder, library))
            } catch {
                recorded?.remove()
                throw error
            }
            let left = putBackClosedLinks(toPutBack, library)
            recorded?.remove()
            if !left.isEmpty {
                notices.append(.undoLinksLeft(names: left.compactMap(\.last).map { "“\($0)”" }.joined(separator: ", ")))
            }
            links.counterpart = Self.counterpartLinks(toPutBack, leaving: left)
            links.bufferEdits = Self.bufferEdits(toPutBack)
            return outcome
        case .toTrash:
            guard let project = library.project(containing: item), project.trash != nil, project.root !== item else {
                throw Failure(.notInProject, .undoOutsideProject(path: step.path))
            }
            // A delete inside the Trash is for good; undo never destroys.
            if project.isInTrash(item) { throw Failure(.conflict, .undoItemChanged(path: step.path)) }
            return try delete(.entry(item, library))
        case .fromTrash:
            guard let originParts, let project = library.project(containing: item), project.trash === parent else {
                throw Failure(.notInTrash, .notInTrash(name: item.name.string))
            }
            guard let record = project.metadata.trash[item.name.string] else {
                throw Failure(.conflict, .undoTrashRecordChanged(name: item.name.string))
            }
            // Restore goes where the record says; undo promises where the item was.
            let projectParts = project.root.components(below: library.root)?.map(\.string) ?? []
            guard originParts.starts(with: projectParts),
                originParts.dropFirst(projectParts.count).joined(separator: "/") == record.originalPath
            else { throw Failure(.conflict, .undoTrashRecordChanged(name: item.name.string)) }
            let folderParts = Array(originParts.dropLast())
            guard let folder = entry(at: folderParts, in: library), folder.kind == .directory else {
                throw Failure(.notFound, .undoOriginGone(path: folderParts.joined(separator: "/")))
            }
            if let name = originParts.last { try checkFree(name, in: folder, library) }
            return try restore(.entry(item, library))
        }
    }

    /// A journaled path's names, refused when it could lead out of the
    /// library: absolute, empty, `.` or `..`, a NUL. Links are refused by
    /// the lookup, which descends only into real folders.
    func components(_ path: String) throws(Failure) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if path.isEmpty || parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("\0") }) {
            throw Failure(.outsideWorkspace, .undoStepOutsideLibrary(path: Self.printable(path)))
        }
        return parts
    }

    private func report(_ step: JournalEntry, redoing: Bool, _ entry: Entry, _ library: Library) -> Report {
        let name = entry.name.string
        let folder = entry.parent.map { title(of: $0, in: library) } ?? library.displayName
        let before = step.path.split(separator: "/").last.map(String.init) ?? step.path
        switch (step.operation, redoing) {
        case (.renamed, false): return .renamedBack(name: before, to: name)
        case (.renamed, true): return .renamedAgain(name: before, to: name)
        case (.moved, false): return .movedBack(name: name, to: folder)
        case (.moved, true): return .movedAgain(name: name, to: folder)
        case (.trashed, false): return .putBackFromTrash(name: name)
        case (.trashed, true): return .trashedAgain(name: name)
        case (.restored, false): return .putBackInTrash(name: name)
        case (.restored, true): return .restoredAgain(name: name, to: folder)
        case (.created, false), (.duplicated, false): return .newItemToTrash(name: before)
        case (.created, true), (.duplicated, true): return .putBackFromTrash(name: name)
        case (.sorted, _), (.reordered, _), (.targetSet, _), (.askingChanged, _): return .nothingToUndo
        }
    }

    /// The library's journal; one that cannot be used is set aside, and the writer told once.
    func loadJournal(_ library: Library) -> Journal {
        let (journal, aside) = Journal.load(for: library.path)
        if let aside {
            switch aside.why {
            case .newer(let version):
                notices.append(.undoHistorySetAside(path: aside.path, newerVersion: version, detail: ""))
            case .unreadable(let detail):
                notices.append(.undoHistorySetAside(path: aside.path, newerVersion: nil, detail: detail))
            }
        }
        return journal
    }

    /// `path` below the library, "/"-separated; nil for the library itself
    /// or a name that is not UTF-8 (the journal is JSON).
    func relativePath(_ path: [UInt8], in library: Library) -> String? {
        let root = library.path
        guard path.count > root.count + 1, path.starts(with: root), path[root.count] == UInt8(ascii: "/") else {
            return nil
        }
        let rest = Array(path[(root.count + 1)...])
        let text = String(decoding: rest, as: UTF8.self)
        return Array(text.utf8) == rest ? text : nil
    }

    /// What is at the item's place on disk now, read without following a link.
    func fingerprint(of entry: Entry, _ library: Library) -> Fingerprint? {
        guard let parent = entry.parent, let dir = try? open(parent, in: library),
            let st = dir.stat(entry.name.bytes)
        else { return nil }
        return Fingerprint(st)
    }
}
