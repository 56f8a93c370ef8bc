import CCarrelSys
import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelServer
import CarrelStore
import CarrelWorkspace
import Foundation
import Glibc

/// The command-line interface: the same rules and errors as the protocol.
enum CLI {
    struct Usage: Error { let text: String }

    static func run(_ args: [String]) -> Int32 {
        let language = Language(locale: Environment.get("LC_ALL") ?? Environment.get("LANG"))
        guard let sub = args.first else { print(Help.overview); return 0 }
        if sub == "--help" || sub == "-h" { print(Help.overview); return 0 }
        if sub == "--version" { print("carrel \(Server.version)"); return 0 }
        if sub == "help" {
            guard let topic = args.dropFirst().first else { print(Help.overview); return 0 }
            guard let text = Help.subcommands[topic] else { return fail("unknown subcommand “\(topic)”; see carrel --help") }
            print(text)
            return 0
        }
        if args.contains("--help") || args.contains("-h") {
            guard let text = Help.subcommands[sub] else { return fail("unknown subcommand “\(sub)”; see carrel --help") }
            print(text)
            return 0
        }
        var options = Options(Array(args.dropFirst()))
        do {
            switch sub {
            case "lsp": return lsp(options)
            case "init": return try initProject(&options, language)
            case "tree": return try tree(&options, language)
            default: return try mutate(sub, &options, language)
            }
        } catch let u as Usage {
            return fail("\(u.text)\n\n\(Help.subcommands[sub] ?? Help.overview)")
        } catch let f as Failure {
            return fail(f.message.text(language))
        } catch {
            return fail("\(error)")
        }
    }

    static func fail(_ text: String) -> Int32 {
        let line = "carrel: \(text)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        return 1
    }

    static func lsp(_ options: Options) -> Int32 {
        // The first scan allocates on several threads. glibc would give each
        // its own arena and keep their free space apart; two arenas kept the
        // peak 2 to 3 MiB lower at 130k nodes, with the same scan speed.
        _ = carrel_limit_malloc_arenas(2)
        let log = Log(trafficFile: options.value("--log-file"))
        let transport = StdioTransport(log: log)
        let server = Server(sink: transport, log: log) { code in exit(code) }
        transport.run(server)
    }

    // MARK: Paths

    /// An absolute, normalized path from a command-line argument.
    static func absolute(_ arg: String) -> [UInt8] {
        var base = FileManager.default.currentDirectoryPath
        if arg.hasPrefix("/") { base = "" }
        var parts: [String] = []
        for p in (base + "/" + arg).split(separator: "/") {
            if p == "." { continue }
            if p == ".." { _ = parts.popLast(); continue }
            parts.append(String(p))
        }
        return Array(("/" + parts.joined(separator: "/")).utf8)
    }

    static func parent(_ path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")), slash > 0 else { return [UInt8(ascii: "/")] }
        return Array(path[..<slash])
    }

    /// The library for `path`: --library, else the folder holding the nearest project, else the current folder.
    static func library(for path: [UInt8], _ options: Options) -> [UInt8] {
        if let l = options.value("--library") { return absolute(l) }
        var p = path
        while p.count > 1 {
            if Scanner.hasProjectMarker(p) { return parent(p) }
            p = parent(p)
        }
        let cwd = absolute(".")
        return path.starts(with: cwd) ? cwd : parent(path)
    }

    static func workspace(for paths: [[UInt8]], _ options: Options) -> Workspace {
        let ws = Workspace()
        ws.addLibrary(library(for: paths[0], options))
        return ws
    }

    static func target(_ ws: Workspace, _ path: [UInt8]) throws(Failure) -> Workspace.Target {
        try ws.locate(path, uri: BytePath.display(path))
    }

    static func printNode(_ ws: Workspace, _ outcome: Outcome, _ language: Language) {
        switch outcome.result {
        case .item(let item):
            let info = ws.describe(item, language)
            print(info.path.map(BytePath.display) ?? info.title)
        case .deleted(let n):
            print("deleted \(n)")
        case .systemTrash:
            print("moved to the system trash")
        }
    }
}

/// Flags and positional arguments.
struct Options {
    var positional: [String] = []
    var flags: [String: String] = [:]
    static let valued: Set<String> = ["--type", "--library", "--log-file", "--depth"]

    init(_ args: [String]) {
        var i = 0
        while i < args.count {
            let a = args[i]
            if Self.valued.contains(a), i + 1 < args.count {
                flags[a] = args[i + 1]
                i += 2
                continue
            }
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "="), Self.valued.contains(String(a[..<eq])) {
                flags[String(a[..<eq])] = String(a[a.index(after: eq)...])
            } else if a.hasPrefix("--") {
                flags[a] = ""
            } else {
                positional.append(a)
            }
            i += 1
        }
    }

    func value(_ flag: String) -> String? { flags[flag] }
    func has(_ flag: String) -> Bool { flags[flag] != nil }
}
