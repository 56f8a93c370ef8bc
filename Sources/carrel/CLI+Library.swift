import CarrelModel
import CarrelWorkspace
import Foundation

/// The one library the CLI works in, and every path checked against it.
extension CLI {
    /// The library, as a client's workspace folder: `--library DIR`, else
    /// `CARREL_LIBRARY`, else the one found around the paths given
    /// (`foundLibrary`).
    static func library(_ options: Options) throws -> Workspace {
        let path: [UInt8]
        if let named = options.value("--library") ?? environment("CARREL_LIBRARY") {
            path = absolute(named)
            let display = Workspace.display(path)
            switch Workspace.kind(of: path) {
            case .folder: break
            case .missing: throw Failure(.notFound, .notFound(path: display))
            case .link: guard isFolder(path) else { throw Failure(.notFound, .notAFolder(name: display)) }
            case .file, .other: throw Failure(.notFound, .notAFolder(name: display))
            }
        } else {
            path = try foundLibrary(options)
        }
        let ws = Workspace()
        ws.addLibrary(path)
        // What opening merged on its own is said once, beside the output.
        let language = Language(locale: environment("LC_ALL") ?? environment("LANG"))
        for notice in ws.notices { FileHandle.standardError.write(Data((notice.text(language) + "\n").utf8)) }
        ws.notices.removeAll()
        return ws
    }

    static func isFolder(_ path: [UInt8]) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: Workspace.display(path), isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// An absolute path from an argument, its "." and ".." resolved by name.
    static func absolute(_ arg: String) -> [UInt8] {
        let base = arg.hasPrefix("/") ? "" : FileManager.default.currentDirectoryPath
        var parts: [Substring] = []
        for p in (base + "/" + arg).split(separator: "/") {
            if p == "." { continue }
            if p == ".." { _ = parts.popLast(); continue }
            parts.append(p)
        }
        return Array(("/" + parts.joined(separator: "/")).utf8)
    }

    static func parent(_ path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")), slash > 0 else { return [UInt8(ascii: "/")] }
        return Array(path[..<slash])
    }

    static func lastComponent(_ path: [UInt8]) -> String {
        String(decoding: path.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
    }

    /// What `path` names in the library, by the server's own rule: compared
    /// component by component with the library's path and its real path.
    /// `reading`: the command only shows what it finds, so its refusal
    /// says so rather than that nothing changed.
    static func target(_ ws: Workspace, _ path: [UInt8], reading: Bool = false) throws(Failure) -> Workspace.Target {
        do {
            return try ws.locate(path, uri: Workspace.display(path))
        } catch  where error.message == .outsideWorkspace(uri: Workspace.display(path)) {
            let library = ws.libraries.first.map { Workspace.display($0.path) } ?? "/"
            let message = Message.outsideLibrary(path: Workspace.display(path), library: library, reading: reading)
            throw Failure(.outsideWorkspace, message)
        }
    }

    static func argument(_ ws: Workspace, _ arg: String, reading: Bool = false) throws(Failure) -> Workspace.Target {
        try target(ws, absolute(arg), reading: reading)
    }

    /// The entry a target names, when it is a real folder.
    static func folder(_ t: Workspace.Target, _ path: String) throws(Failure) -> Workspace.Target {
        if case .entry(let e, _) = t {
            if e.kind == .symlink { throw Failure(.outsideWorkspace, .isLink(name: path)) }
            guard e.kind == .directory else { throw Failure(.notFound, .notAFolder(name: path)) }
        }
        return t
    }
}
