import CarrelModel
import CarrelWorkspace

/// Which folder is the library when the writer names none: the one around
/// the path they typed, so a path finds its library from any folder and a
/// library renders the same wherever the command runs.
extension CLI {
    /// The library around the command's first path, else around the current
    /// folder, else the current folder itself. "Around" a path is the folder
    /// holding the nearest project at or above it, or the nearest folder at
    /// or above it that holds projects. For `init` the path is the new
    /// project's folder, which is its natural library even before it holds
    /// any project. A system or home folder is refused, never opened.
    static func foundLibrary(_ options: Options) throws(Failure) -> [UInt8] {
        if let first = options.positional.first {
            let typed = absolute(first)
            if options.syntax.placesProject { return try projectsLibrary(typed) }
            if let found = Workspace.enclosingLibrary(of: typed) { return try notSystem(found, around: typed) }
        }
        let cwd = absolute(".")
        return try notSystem(Workspace.enclosingLibrary(of: cwd) ?? cwd, around: cwd)
    }

    /// `folder`, unless it is a system or home folder, which a writer who
    /// means it names with `--library`.
    static func notSystem(_ folder: [UInt8], around: [UInt8]) throws(Failure) -> [UInt8] {
        guard !isSystemFolder(folder) else {
            let message = Message.systemFolderLibrary(
                folder: Workspace.display(folder), around: Workspace.display(around))
            throw Failure(.outsideWorkspace, message)
        }
        return folder
    }

    static func isSystemFolder(_ folder: [UInt8]) -> Bool {
        let home = environment("HOME").flatMap { $0.hasPrefix("/") ? absolute($0) : nil }
        return Workspace.isSystemFolder(folder, home: home)
    }

    /// The library a new project at `dir` goes in: the library its folder
    /// is in, so a project never lands in a library's subfolder or inside
    /// another project unrefused; else that folder itself, the writer's
    /// first project making it a library. A system folder found further up
    /// (a home folder holding an old project) is passed over for the folder.
    static func projectsLibrary(_ dir: [UInt8]) throws(Failure) -> [UInt8] {
        let folder = parent(dir)
        if let project = Workspace.enclosingProject(of: folder) { return try notSystem(parent(project), around: dir) }
        if let found = Workspace.enclosingLibrary(of: folder), !isSystemFolder(found) { return found }
        return try notSystem(folder, around: dir)
    }
}
