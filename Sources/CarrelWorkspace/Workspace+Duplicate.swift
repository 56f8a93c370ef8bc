import CarrelModel
import CarrelStore

/// Duplicate: a copy of a file or a folder's tree beside the original,
/// named as Finder names one ("Spring copy.md", "Spring copy 2.md"), and
/// placed right after it where the folder keeps a binder order.
extension Workspace {
    public func duplicate(_ target: Target) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        let name = entry.name.string
        guard let parent = entry.parent, entry !== library.root else {
            throw Failure(.permanentFolder, .duplicateLibrary(name: library.displayName))
        }
        if library.project(at: entry) != nil { throw Failure(.conflict, .duplicateProject(name: name)) }
        let project = library.project(containing: entry)
        if let p = project, p.isInTrash(entry) || entry === p.trash {
            throw Failure(.inTrash, .duplicateInTrash(name: name))
        }
        if let p = project, p.permanentFolder(for: entry) != nil {
            throw Failure(.permanentFolder, .duplicatePermanent(name: name))
        }
        let copyName = try freeCopyName(for: entry, in: parent)
        let dir = try open(parent, in: library)
        do { try dir.checkCopy(entry.name.bytes, limits: copyLimits) } catch {
            throw copyFailure(for: error, name: name, copyName: copyName, in: parent, library)
        }
        // The order lists the copy first: a crash before the copy is in
        // place leaves a listed name the folder lacks, which is skipped.
        let order = library.binderOrder(of: parent).flatMap { $0.contains(entry.name) ? $0 : nil }
        if let order {
            try writeOrder(order.inserting(EntryName(copyName), near: entry.name, after: true), of: parent, library)
        }
        let made: Directory.CopyReport
        do {
            made = try dir.copy(entry.name.bytes, to: dir, as: Array(copyName.utf8), limits: copyLimits)
        } catch {
            // Refused: the order goes back to what it was, so nothing changed.
            if let order { try? writeOrder(order, of: parent, library) }
            throw copyFailure(for: error, name: name, copyName: copyName, in: parent, library)
        }
        let bytes = Array(copyName.utf8)
        let copy = Scanner.entry(dirfd: dir.fd, name: bytes) ?? Entry(name: EntryName(copyName), kind: entry.kind)
        if copy.kind == .directory { Scanner.scan(copy, path: BytePath.join(parent.path, bytes)) }
        parent.add(copy)
        if copy.kind == .directory { watching?.watchTree(copy, library: library, workspace: self) }
        let report: Report? =
            made.leftOut.isEmpty ? nil : .duplicatedLeavingOut(name: name, copy: copyName, count: made.leftOut.count)
        return Outcome(
            result: .item(.entry(copy, library)), changes: [Change(.created, copy.path)], report: report)
    }

    /// "Name copy.ext", else the first free "Name copy N.ext".
    private func freeCopyName(for entry: Entry, in parent: Entry) throws(Failure) -> String {
        let isFolder = entry.isFolderLike
        var n = 1
        while true {
            let candidate = NameRules.copyName(entry.name.string, n, isFolder: isFolder)
            if parent.clash(with: candidate) == nil { return try NameRules.validate(candidate) }
            n += 1
        }
    }

    /// A copy too large is named by the original; a clash by the copy's name.
    private func copyFailure(
        for error: SysError, name: String, copyName: String, in parent: Entry, _ library: Library
    ) -> Failure {
        error.refusal != nil
            ? failure(for: error, name: name) : failure(for: error, target: copyName, in: parent, library)
    }

    /// A copy a crash cut short left its hidden staging folder in `folder`
    /// (the scan saw it go by): it goes, unless the process making it still runs.
    func removeCopyLeftovers(_ folder: Entry, in library: Library) {
        guard library.lock(containing: folder) == nil, let dir = try? open(folder, in: library) else { return }
        let removed = dir.removeCopyLeftovers(dir.copyLeftovers())
        if removed > 0 { log("repair: removed \(removed) unfinished copy(ies) in \(BytePath.display(dir.path))") }
    }
}
