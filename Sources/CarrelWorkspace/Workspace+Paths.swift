import CarrelModel
import CarrelStore
import Glibc

/// What is at a path on disk, without following a link.
public enum PathKind: Sendable {
    case missing, folder, file, link, other
}

/// Questions about the disk that a client asks before it opens a library:
/// the CLI finds its library with them, as an editor opens a workspace folder.
extension Workspace {
    public static func kind(of path: [UInt8]) -> PathKind {
        guard let st = Scanner.stat(path) else { return .missing }
        switch st.type {
        case DiskType.file: return .file
        case DiskType.directory: return .folder
        case DiskType.symlink: return .link
        default: return .other
        }
    }

    /// Whether `path` holds `.carrel/project.json`.
    public static func isProject(_ path: [UInt8]) -> Bool {
        Scanner.hasProjectMarker(path)
    }

    /// A path as messages show it.
    public static func display(_ path: [UInt8]) -> String {
        BytePath.display(path)
    }

    /// The nearest folder that is a project: `path` itself or one of its
    /// ancestors. Projects do not nest, so anything below one is its.
    public static func enclosingProject(of path: [UInt8]) -> [UInt8]? {
        var p = path
        while true {
            if isProject(p) { return p }
            guard p.count > 1 else { return nil }
            p = parent(p)
        }
    }

    /// The library a folder is in, as a writer would open it: walking up
    /// from `path`, the folder holding the first project met (a project
    /// is opened with its siblings), or the first folder that holds a
    /// project among its direct subfolders. Nil when neither exists.
    public static func enclosingLibrary(of path: [UInt8]) -> [UInt8]? {
        var p = path
        while true {
            if isProject(p) { return p.count > 1 ? parent(p) : p }
            if holdsProject(p) { return p }
            guard p.count > 1 else { return nil }
            p = parent(p)
        }
    }

    /// Whether `path` is a folder a library must never be found at, only
    /// named: the root, a folder directly in it (`/home`, `/tmp`, `/usr`),
    /// the home folder, the folder holding it, and the other home folders
    /// beside it. Opening one would read a whole system or a whole home.
    /// Compared by name and, where they resolve, by real path.
    public static func isSystemFolder(_ path: [UInt8], home: [UInt8]?) -> Bool {
        let homes = [home, home.flatMap(realPath)].compactMap { $0 }.filter { $0.count > 1 }
        for p in [path, realPath(path)].compactMap({ $0 }) {
            let depth = p.split(separator: UInt8(ascii: "/")).count
            if depth <= 1 { return true }
            for h in homes where p == h || p == parent(h) || parent(p) == parent(h) { return true }
        }
        return false
    }

    /// `path` with every link resolved, or nil when it does not resolve.
    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        BytePath.withCString(path) { p -> [UInt8]? in
            guard let r = realpath(p, nil) else { return nil }
            defer { free(r) }
            return Array(UnsafeRawBufferPointer(start: r, count: strlen(r)))
        }
    }

    /// The library an editor's workspace folder stands for. A folder inside
    /// a project (eglot and lsp-mode send the opened file's folder when no
    /// version control marks a project) is the library holding that
    /// project, as `enclosingLibrary` finds it for the CLI, so a delete goes
    /// to the project's Trash and not to the system trash. A project given
    /// itself stays its own library, and a folder in no project stays as
    /// given: an editor opened on a notes folder never opens its parent.
    public static func library(forWorkspaceFolder path: [UInt8]) -> [UInt8] {
        var given = path
        while given.count > 1, given.last == UInt8(ascii: "/") { given.removeLast() }
        guard !isProject(given) else { return given }
        var above = given
        while above.count > 1 {
            above = parent(above)
            if isProject(above) { return above.count > 1 ? parent(above) : above }
        }
        return given
    }

    /// Whether a direct subfolder of `path` is a project.
    static func holdsProject(_ path: [UInt8]) -> Bool {
        guard let dir = try? Directory.open(path), let children = try? dir.list() else { return false }
        return children.contains {
            $0.type == DiskType.directory && !Scanner.isHidden($0.name) && isProject(BytePath.join(path, $0.name))
        }
    }

    static func parent(_ path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")), slash > 0 else { return [UInt8(ascii: "/")] }
        return Array(path[..<slash])
    }
}
