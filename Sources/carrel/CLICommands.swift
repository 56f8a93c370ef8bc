import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelServer
import CarrelStore
import CarrelWorkspace
import Foundation
import Glibc

extension CLI {
    static func initProject(_ options: inout Options, _ language: Language) throws -> Int32 {
        guard options.positional.count == 1 else { throw Usage(text: "init takes one folder") }
        guard let typeName = options.value("--type") else { throw Usage(text: "init needs --type") }
        guard let type = ProjectType.named(typeName) else {
            throw Failure(.invalidParams, .unknownProjectType(given: typeName, known: ProjectType.ids.joined(separator: ", ")))
        }
        let dir = absolute(options.positional[0])
        if let st = Scanner.stat(dir) {
            guard st.type == 2 else { throw Failure(.notFound, .notAFolder(name: options.positional[0])) }
            guard !Scanner.hasProjectMarker(dir) else { throw Failure(.conflict, .projectNested) }
            // An existing folder becomes a project in place: only additions.
            do throws(SysError) {
                let d = try Directory.open(dir)
                try ProjectFile.create(in: d, ProjectMetadata(type: type, created: Clock.nowMs()))
                for folder in type.directories where !d.exists(Array(folder.diskName!.utf8)) {
                    try d.makeDirectory(Array(folder.diskName!.utf8))
                }
                d.sync()
            } catch {
                throw Failure(.io, .io(path: error.path, detail: error.message))
            }
            print(BytePath.display(dir))
            return 0
        }
        let lib = parent(dir)
        let ws = Workspace()
        ws.addLibrary(lib)
        let name = String(decoding: dir.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
        let outcome = try ws.newProject(in: try target(ws, lib), name: name, type: type)
        printNode(ws, outcome, language)
        return 0
    }

    static func tree(_ options: inout Options, _ language: Language) throws -> Int32 {
        let dir = absolute(options.positional.first ?? ".")
        let ws = Workspace()
        ws.addLibrary(options.value("--library").map(absolute) ?? dir)
        let item: Item
        switch try target(ws, dir) {
        case .entry(let e, let l): item = .entry(e, l)
        case .all(let p, let l): item = .all(p, l)
        }
        let depth = options.value("--depth").flatMap(Int.init) ?? Int.max
        if options.has("--json") {
            var w = JSONWriter()
            w.beginArray()
            NodeRenderer(workspace: ws, language: language).write(item, depth: depth, to: &w)
            w.endArray()
            print(String(decoding: w.bytes, as: UTF8.self))
        } else {
            var out = ""
            TreePrinter(workspace: ws, language: language).print(item, depth: depth, into: &out)
            Swift.print(out, terminator: "")
        }
        return 0
    }

    static func mutate(_ sub: String, _ options: inout Options, _ language: Language) throws -> Int32 {
        let p = options.positional
        func need(_ n: Int) throws {
            if p.count != n { throw Usage(text: "\(sub) takes \(n) argument\(n == 1 ? "" : "s")") }
        }
        switch sub {
        case "new-folder", "new-file":
            try need(2)
            let parentPath = absolute(p[0])
            let ws = workspace(for: [parentPath], options)
            let t = try target(ws, parentPath)
            printNode(ws, sub == "new-folder" ? try ws.newFolder(in: t, name: p[1]) : try ws.newFile(in: t, name: p[1]), language)
        case "rename":
            try need(2)
            let path = absolute(p[0])
            let ws = workspace(for: [path], options)
            printNode(ws, try ws.rename(try target(ws, path), to: p[1]), language)
        case "mv":
            try need(2)
            let path = absolute(p[0])
            let ws = workspace(for: [path], options)
            printNode(ws, try ws.move(try target(ws, path), to: try target(ws, absolute(p[1]))), language)
        case "rm":
            try need(1)
            let path = absolute(p[0])
            let ws = workspace(for: [path], options)
            let t = try target(ws, path)
            if case .forever = try ws.deletePlan(t) {
                try confirm(Message.confirmDeleteForever(name: p[0]).text(language), options, language)
            }
            printNode(ws, try ws.delete(t), language)
        case "restore":
            try need(1)
            let path = absolute(p[0])
            let ws = workspace(for: [path], options)
            printNode(ws, try ws.restore(try target(ws, path)), language)
        case "empty-trash":
            try need(1)
            let path = absolute(p[0])
            let ws = workspace(for: [path], options)
            let t = try target(ws, path)
            if let (project, count) = ws.trashCount(t) {
                try confirm(Message.confirmEmptyTrash(project: project, count: count).text(language), options, language)
            }
            printNode(ws, try ws.emptyTrash(t), language)
        default:
            throw Usage(text: "unknown subcommand “\(sub)”")
        }
        return 0
    }

    /// Asks on the terminal; without one, only --yes proceeds.
    static func confirm(_ question: String, _ options: Options, _ language: Language) throws(Failure) {
        if options.has("--yes") { return }
        guard isatty(0) != 0 else { throw Failure(.cancelled, .cancelled) }
        Swift.print("\(question) [y/N] ", terminator: "")
        fflush(nil)
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard ["y", "yes", "o", "oui"].contains(answer) else { throw Failure(.cancelled, .cancelled) }
    }
}

/// `carrel tree` as text, like tree(1).
struct TreePrinter {
    let workspace: Workspace
    let language: Language

    func print(_ item: Item, depth: Int, into out: inout String) {
        out += line(item) + "\n"
        walk(item, prefix: "", depth: depth, into: &out)
    }

    private func walk(_ item: Item, prefix: String, depth: Int, into out: inout String) {
        guard depth > 0 else { return }
        let children = workspace.children(item)
        for (i, child) in children.enumerated() {
            let last = i == children.count - 1
            out += prefix + (last ? "└── " : "├── ") + line(child) + "\n"
            walk(child, prefix: prefix + (last ? "    " : "│   "), depth: depth - 1, into: &out)
        }
    }

    private func line(_ item: Item) -> String {
        let info = workspace.describe(item, language)
        var s = "[\(info.icon)] \(info.title)"
        if let type = info.projectType { s += " (\(type))" }
        if info.link { s += " → link" }
        if info.unreadable { s += " (unreadable)" }
        if info.kind != .file {
            var counts: [String] = []
            if info.folderCount > 0 { counts.append("\(info.folderCount) ▸") }
            if info.fileCount > 0 || info.folderCount > 0 { counts.append("\(info.fileCount)") }
            if info.folderCount == 0 && info.fileCount > 0 { counts = ["\(info.fileCount)"] }
            if !counts.isEmpty { s += "  " + counts.joined(separator: " ") }
        }
        return s
    }
}
