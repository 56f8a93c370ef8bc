import CarrelModel

/// Where a rename or move would take an item, found by the same checks the
/// command makes before its first system call, and nothing done: so a dry
/// run refuses what the command would refuse, and shows the links it
/// would change.
extension Workspace {
    public struct MovePlan {
        public let library: Library
        public let entry: Entry
        /// Library paths before and after.
        public let from: [String]
        public let to: [String]
        /// The absolute paths, for showing.
        public let oldPath: [UInt8]
        public let newPath: [UInt8]
        /// A move into a Trash: links to it are left, as a delete leaves them.
        public let intoTrash: Bool
    }

    public func planRename(_ target: Target, to raw: String) throws(Failure) -> MovePlan {
        let (entry, library) = try entryTarget(target)
        try checkMovable(entry, library)
        guard let parent = entry.parent else {
            throw Failure(.permanentFolder, .libraryRoot(name: library.displayName))
        }
        let name = try newName(for: entry, raw)
        try checkFree(name, in: parent, library, except: entry)
        return try plan(entry, into: parent, as: name, library)
    }

    public func planMove(_ target: Target, to destination: Target) throws(Failure) -> MovePlan {
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
        if entry.parent !== dest { try checkFree(entry.name.string, in: dest, library) }
        return try plan(entry, into: dest, as: entry.name.string, library)
    }

    private func plan(_ entry: Entry, into folder: Entry, as name: String, _ library: Library) throws(Failure)
        -> MovePlan
    {
        guard let from = libraryPath(of: entry, in: library), let above = libraryPath(of: folder, in: library) else {
            throw Failure(.notFound, .notFound(path: Workspace.display(entry.path)))
        }
        var newPath = folder.path
        if newPath.last != UInt8(ascii: "/") { newPath.append(UInt8(ascii: "/")) }
        newPath.append(contentsOf: name.utf8)
        let trash = library.project(containing: folder)?.trash
        return MovePlan(
            library: library, entry: entry, from: from, to: above + [name], oldPath: entry.path, newPath: newPath,
            intoTrash: trash.map { folder === $0 || folder.isDescendant(of: $0) } ?? false)
    }
}
