import CarrelModel
import CarrelStore

/// Binder order: reading each folder's order file, the reorder command, and
/// keeping order files true through renames and moves (see
/// `CarrelStore/OrderFile.swift` for the file and its merge rule).
extension Workspace {
    // MARK: Reading

    /// Puts the orders a scan found into the model. Where a sync engine
    /// left conflict copies, or a crash a temporary file, the folder's
    /// order is read again the slow way, which merges and removes them.
    func loadOrders(_ found: [(Entry, FoundOrder)], in library: Library) {
        for (folder, order) in found {
            if order.hasCopyLeftovers { removeCopyLeftovers(folder, in: library) }
            if order.hasLeftovers {
                loadOrder(folder, in: library)
            } else if order.hasFile {
                library.setBinderOrderUnread(of: folder)
            }
        }
    }

    /// The watcher saw the order file, or a copy of it, change: re-reads
    /// it, unless it is still the file this server wrote itself.
    func orderFileChanged(_ folder: Entry, in library: Library, copiesSeen: Bool) -> Bool {
        if !copiesSeen, let mine = library.writtenOrderStamp(of: folder), OrderFile.stamp(in: folder.path) == mine {
            return false
        }
        return loadOrder(folder, in: library)
    }

    /// Re-reads one folder's order file; whether the order shown changed.
    @discardableResult
    func loadOrder(_ folder: Entry, in library: Library) -> Bool {
        guard folder.kind == .directory, let dir = try? open(folder, in: library) else { return false }
        let found = OrderFile.read(in: dir)
        let before = library.loadedBinderOrder(of: folder)
        if !found.conflictCopies.isEmpty, library.lock(containing: folder) == nil {
            if (try? OrderFile.write(found.order, in: dir)) != nil {
                OrderFile.removeLeftovers(found.conflictCopies, in: dir)
            }
        }
        if !found.temporaries.isEmpty { OrderFile.removeLeftovers(found.temporaries, in: dir) }
        let after = found.hasFile || !found.conflictCopies.isEmpty ? found.order : nil
        guard after != before else { return false }
        library.setBinderOrder(after, of: folder)
        return true
    }

    // MARK: Reorder

    /// Places `target` just before (or after) its sibling `anchor`. The
    /// folder's sort becomes binder order if it was not; the order written
    /// is the one shown, with the item moved.
    public func reorder(_ target: Target, relativeTo anchorTarget: Target, after: Bool) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        let (anchor, _) = try entryTarget(anchorTarget)
        try checkUnlocked(entry, library)
        guard let parent = entry.parent, entry !== library.root else {
            throw Failure(.permanentFolder, .libraryRoot(name: library.displayName))
        }
        let project = library.project(containing: entry)
        if let p = project, p.permanentFolder(for: entry) != nil {
            throw Failure(.permanentFolder, .reorderPermanent(name: entry.name.string))
        }
        if let p = project, p.isInTrash(entry) || entry === p.trash {
            throw Failure(.inTrash, .reorderInTrash(name: entry.name.string))
        }
        if anchor === entry { throw Failure(.notSibling, .reorderItself(name: entry.name.string)) }
        guard anchor.parent === parent, library.root === anchor.root else {
            throw Failure(
                .notSibling,
                .reorderNotSibling(
                    name: entry.name.string, anchor: anchor.name.string, folder: title(of: parent, in: library)))
        }
        if let p = project, p.permanentFolder(for: anchor) != nil {
            throw Failure(.permanentFolder, .reorderPermanent(name: anchor.name.string))
        }
        let shown = library.displayOrder(of: parent, in: project)
        let (order, arranged) = BinderOrder.moving(entry, anchor, after: after, shown: shown)
        try writeOrder(order, of: parent, library)
        try makeManual(parent, project, library)
        parent.binderOrderChanged(to: arranged)
        return Outcome(result: .item(.entry(entry, library)), changes: [Change(.changed, parent.path)])
    }

    /// The folder's sort becomes binder order: its own setting in its
    /// project, or the library's outside projects.
    func makeManual(_ folder: Entry, _ project: Project?, _ library: Library) throws(Failure) {
        guard library.sort(inside: folder, project).by != .manual else { return }
        if let p = project {
            let path = folder.components(below: p.root)?.map(\.string).joined(separator: "/") ?? ""
            // The project root's own path is "": its own items, not the whole project.
            try updateMetadataOrFail(p) { $0.folderSorts[path] = .manual }
        } else {
            library.settings.sort = .manual
            StateFiles.save(library.settings, for: library.path)
        }
        folder.binderOrderChanged()
    }

    /// Writes a folder's order file, declares the merge rule to git once a
    /// session (telling the writer when `.gitattributes` had to be left
    /// without it), and shows the new order.
    func writeOrder(_ order: BinderOrder, of folder: Entry, _ library: Library) throws(Failure) {
        let dir = try open(folder, in: library)
        let stamp: OrderFile.Stamp?
        do { stamp = try OrderFile.write(order, in: dir) } catch { throw failure(for: error) }
        if !library.mergeRuleDeclared, let root = try? open(library.root, in: library) {
            if let obstacle = OrderFile.declareMerge(in: root) {
                let path = BytePath.display(BytePath.join(library.path, Array(".gitattributes".utf8)))
                notices.append(.mergeRuleNotWritten(path: path, because: obstacle))
            }
            library.mergeRuleDeclared = true
        }
        library.setBinderOrder(order, of: folder, written: stamp)
    }

    // MARK: Keeping orders through renames and moves

    /// Before renaming `entry` to `newName`: its folder's order file lists
    /// the new name in the old one's place, the old name kept after it, so
    /// whichever name the disk holds when a crash strikes keeps the place.
    func orderBeforeRename(_ entry: Entry, to newName: EntryName, _ library: Library) throws(Failure) {
        guard let parent = entry.parent, let order = library.binderOrder(of: parent), order.contains(entry.name)
        else { return }
        try writeOrder(order.renaming(entry.name, to: newName, keepingOld: true), of: parent, library)
    }

    /// After the rename: the old name, kept only against a crash in
    /// between, leaves the order file. The rename stands if this fails: the
    /// old name is then skipped on display, as any name not in the folder.
    func orderAfterRename(_ old: EntryName, in parent: Entry, _ library: Library) {
        guard let order = library.binderOrder(of: parent), order.contains(old) else { return }
        try? writeOrder(order.removing(old), of: parent, library)
    }

    /// Before moving an item into `dest` at a place: `dest`'s order lists it
    /// there already (a listed name that is not in the folder is skipped, so
    /// a crash before the move shows nothing new).
    func orderBeforeMove(
        _ name: EntryName, into dest: Entry, near anchor: Entry?, after: Bool, _ library: Library
    ) throws(Failure) {
        guard let anchor else { return }
        let project = library.project(containing: dest)
        let shown = library.displayOrder(of: dest, in: project)
        var order = BinderOrder(shown.map(\.name))
        order = order.inserting(name, near: anchor.name, after: after)
        try writeOrder(order, of: dest, library)
        try makeManual(dest, project, library)
    }

    /// Checks a move's position: exactly one anchor, a child of `dest`.
    func moveAnchor(_ position: Position?, into dest: Entry, moving entry: Entry) throws(Failure) -> (Entry, Bool)? {
        guard let position else { return nil }
        let (anchor, after) = position
        if anchor === entry { throw Failure(.notSibling, .reorderItself(name: entry.name.string)) }
        guard anchor.parent === dest else {
            throw Failure(
                .notSibling,
                .reorderNotSibling(name: entry.name.string, anchor: anchor.name.string, folder: dest.name.string))
        }
        return (anchor, after)
    }

    public typealias Position = (anchor: Entry, after: Bool)

    /// A rename another program made inside one folder, seen whole: the new
    /// name takes the old one's place.
    func orderAfterOutsideRename(_ folder: Entry, from old: EntryName, to new: EntryName) {
        guard let library = library(of: folder), let order = library.binderOrder(of: folder), order.contains(old)
        else { return }
        let renamed = order.renaming(old, to: new, keepingOld: false)
        if library.lock(containing: folder) == nil, let dir = try? open(folder, in: library) {
            try? OrderFile.write(renamed, in: dir)
        }
        library.setBinderOrder(renamed, of: folder)
    }

    /// Names that vanished from a folder and names that appeared in it in one
    /// burst: each new name takes a vanished one's place.
    func orderAfterOutsideChanges(_ folder: Entry, vanished: [EntryName], appeared: [Entry]) {
        guard !vanished.isEmpty, !appeared.isEmpty, let library = library(of: folder),
            let order = library.binderOrder(of: folder),
            let paired = order.reconciled(vanished: vanished, appeared: appeared)
        else { return }
        if library.lock(containing: folder) == nil, let dir = try? open(folder, in: library) {
            try? OrderFile.write(paired, in: dir)
        }
        library.setBinderOrder(paired, of: folder)
    }
}
