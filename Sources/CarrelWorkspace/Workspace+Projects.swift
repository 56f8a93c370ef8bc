import CarrelModel
import CarrelStore

/// Making an existing folder a project, and the nesting rule every new
/// project obeys: no project inside a project, at any depth.
extension Workspace {
    /// A library opened inside a project (a client may open `P/Draft`)
    /// cannot take projects: they would be nested in that project.
    func checkLibraryOutsideProjects(_ library: Library, name: String) throws(Failure) {
        guard library.path.count > 1 else { return }
        for base in [library.path, library.realPath] {
            if let outer = Self.enclosingProject(of: Self.parent(base)) {
                throw Failure(.conflict, .projectInsideProject(name: name, project: BytePath.display(outer)))
            }
        }
    }

    /// Makes the existing folder `target` a project of `type`, in place: it
    /// only adds. A folder whose name differs from a permanent folder's only
    /// in case or Unicode spelling ("draft" for "Draft") becomes that
    /// permanent folder, under its own name, rather than getting a twin.
    /// Anything else in the way of a permanent folder is refused.
    public func makeProject(_ target: Target, type: ProjectType) throws(Failure) -> Outcome {
        let (folder, library) = try entryTarget(target)
        let name = folder === library.root ? library.displayName : folder.name.string
        if folder.kind == .symlink { throw Failure(.outsideWorkspace, .isLink(name: name)) }
        guard folder.kind == .directory else { throw Failure(.notFound, .notAFolder(name: name)) }
        try checkUnlocked(folder, library)
        if library.project(at: folder) != nil || Self.isProject(folder.path) {
            throw Failure(.conflict, .alreadyAProject(name: name))
        }
        let outer =
            library.project(containing: folder)?.root.path
            ?? folder.parent.flatMap { Self.enclosingProject(of: $0.path) }
        if let outer {
            throw Failure(.conflict, .projectInsideProject(name: name, project: BytePath.display(outer)))
        }
        guard folder === library.root || folder.parent === library.root else {
            throw Failure(.conflict, .projectPlacement)
        }
        try checkLibraryOutsideProjects(library, name: name)
        if let inner = projectBelow(folder) {
            throw Failure(.conflict, .projectHoldsProject(name: name, project: BytePath.display(inner)))
        }
        var meta = ProjectMetadata(type: type, created: Clock.nowMs())
        var missing: [String] = []
        for permanent in type.directories {
            let wanted = permanent.diskName!
            let existing = folder.child(EntryName(wanted)) ?? folder.clash(with: wanted)
            guard let existing else { missing.append(wanted); continue }
            guard existing.kind == .directory else {
                throw Failure(.conflict, .templateNameIsNotAFolder(name: existing.name.string, folder: wanted))
            }
            meta.folders[permanent.role] = existing.name.string
        }
        let dir = try open(folder, in: library)
        // project.json first: a crash before the folders leaves a project
        // whose missing permanent folders the next open recreates.
        do throws(SysError) {
            try ProjectFile.create(in: dir, meta)
            for wanted in missing { try dir.makeDirectory(Array(wanted.utf8)) }
            dir.sync()
        } catch {
            throw failure(for: error)
        }
        var changes = [Change(.changed, folder.path)]
        for wanted in missing {
            guard let e = Scanner.entry(dirfd: dir.fd, name: Array(wanted.utf8)) else { continue }
            folder.add(e)
            changes.append(Change(.created, e.path))
        }
        openProjectIfMarked(folder, in: library)
        return Outcome(result: .item(.entry(folder, library)), changes: changes)
    }

    /// A project somewhere below `folder`, found on disk (the model knows
    /// only projects at the top of a library).
    func projectBelow(_ folder: Entry) -> [UInt8]? {
        var stack = folder.children.values.filter { $0.kind == .directory }
        while let e = stack.popLast() {
            let path = e.path
            if Self.isProject(path) { return path }
            stack.append(contentsOf: e.children.values.filter { $0.kind == .directory })
        }
        return nil
    }
}
