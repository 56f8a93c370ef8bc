import CCarrelSys
import CarrelModel
import CarrelServer
import CarrelWorkspace
import Foundation
import Glibc

/// The command-line interface: a fourth client, with the server's rules and
/// errors. It works in one library, found as an editor opens a workspace
/// folder (`library(_:)`), and refuses every path outside it.
///
/// Exit codes: 0 done; 1 refused by Carrel's rules, nothing changed;
/// 2 a mistake in the command line, or a path outside the library.
enum CLI {
    /// A mistake in the command line itself, told in one line.
    struct Usage: Error {
        let message: Message
        init(_ message: Message) { self.message = message }
    }

    static func run(_ args: [String]) -> Int32 {
        let language = Language(locale: environment("LC_ALL") ?? environment("LANG"))
        do {
            return try dispatch(args, language)
        } catch let u as Usage {
            return fail(u.message.text(language), code: 2)
        } catch let f as Failure {
            return fail(f.message.text(language), code: f.reason == .outsideWorkspace ? 2 : 1)
        } catch {
            return fail("\(error)", code: 1)
        }
    }

    static func dispatch(_ given: [String], _ language: Language) throws -> Int32 {
        // `--library DIR` may also come before the subcommand: it moves after it.
        var args = given
        var leading: [String] = []
        while let first = args.first, first == "--library" || first.hasPrefix("--library=") {
            let take = first == "--library" ? 2 : 1
            guard args.count >= take else { throw Usage(.missingValue(option: "--library")) }
            leading += args.prefix(take)
            args.removeFirst(take)
        }
        if !leading.isEmpty {
            guard let sub = args.first else { throw Usage(.noSubcommand) }
            args = [sub] + leading + args.dropFirst()
        }
        guard let sub = args.first else { throw Usage(.noSubcommand) }
        if sub == "--help" || sub == "-h" { print(Help.overview); return 0 }
        if sub == "--version" { print("carrel \(Server.version)"); return 0 }
        if sub == "help" {
            guard args.count <= 2 else {
                throw Usage(.wrongArguments(subcommand: "help", usage: "carrel help [SUBCOMMAND]"))
            }
            guard let topic = args.dropFirst().first else { print(Help.overview); return 0 }
            guard let text = Help.subcommands[topic] else { throw Usage(.unknownSubcommand(name: topic)) }
            print(text)
            return 0
        }
        guard let spec = Syntax.all[sub] else { throw Usage(.unknownSubcommand(name: sub)) }
        if args.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(Help.subcommands[sub] ?? Help.overview)
            return 0
        }
        var options = try Options(Array(args.dropFirst()), spec, subcommand: sub)
        switch sub {
        case "lsp": return lsp(options)
        case "init": try initProject(&options, language)
        case "tree": try tree(&options, language)
        case "conflicts": try conflicts(&options, language)
        case "sort": try sort(&options, language)
        case "reorder": try reorder(&options, language)
        case "ask-before-deleting": try askBeforeDeleting(&options, language)
        case "target": try target(&options, language)
        case "compile": try compile(&options, language)
        case "include": try include(&options, language)
        case "byline": try byline(&options, language)
        case "market": try market(&options, language)
        case "submit": try submit(&options, language)
        case "submission-status": try submissionStatus(&options, language)
        case "withdraw-others": try withdrawOthers(&options, language)
        case "submissions": try submissions(&options, language)
        case "import-submissions": try importSubmissions(&options, language)
        case "rm": try remove(&options, language)
        case "links": try links(&options, language)
        case "rename", "mv": try moveUpdatingLinks(sub, &options, language)
        case "empty-trash": try emptyTrash(&options, language)
        case "snapshot": try snapshot(&options, language)
        case "snapshots": try snapshots(&options, language)
        case "compare": try compare(&options, language)
        case "rollback": try rollback(&options, language)
        case "undo", "redo": try undo(sub == "redo", &options, language)
        default: try mutate(sub, &options, language)
        }
        return 0
    }

    static func fail(_ text: String, code: Int32) -> Int32 {
        writeError("carrel: \(text)\n")
        return code
    }

    static func writeError(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    static func environment(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        let s = String(cString: v)
        return s.isEmpty ? nil : s
    }

    static func lsp(_ options: Options) -> Int32 {
        // The first scan allocates on several threads. glibc would give each
        // its own arena and keep their free space apart; two arenas kept the
        // peak 2 to 3 MiB lower at 130k nodes, with the same scan speed.
        _ = carrel_limit_malloc_arenas(2)
        // Blocks of 256 KiB and more (a streamed reply's pieces, the
        // listings of big folders) come from mmap and go back to the system
        // when freed. glibc would raise that threshold after the first such
        // free and serve them from the heap, through whose freed space a
        // streamed reply's pieces spread: the peak at 100,000 files ran from
        // 105 to 139 MiB across runs, and is 100 MiB with the threshold fixed.
        _ = carrel_fix_mmap_threshold(256 << 10)
        let log = Log(trafficFile: options.value("--log-file"))
        let transport = StdioTransport(log: log)
        let server = Server(sink: transport, log: log) { code in exit(code) }
        transport.run(server)
    }
}

/// What each subcommand accepts. Anything else is a mistake, said in one line.
struct Syntax {
    let usage: String
    let arguments: ClosedRange<Int>
    var flags: Set<String> = []
    var valued: Set<String> = []
    /// Whether `--library` applies (not to `lsp`, which gets its folders from the editor).
    var inLibrary = true
    /// Whether the first argument is a project to be made, whose folder is
    /// its natural library (`init`).
    var placesProject = false

    static let all: [String: Syntax] = [
        "lsp": Syntax(
            usage: "carrel lsp [--stdio] [--log-file PATH]", arguments: 0...0,
            flags: ["--stdio"], valued: ["--log-file"], inLibrary: false),
        "init": Syntax(
            usage: "carrel init DIR --type TYPE", arguments: 1...1, valued: ["--type"], placesProject: true),
        "tree": Syntax(
            usage: "carrel tree [FOLDER] [--json] [--icons] [--depth N]", arguments: 0...1,
            flags: ["--json", "--icons"], valued: ["--depth"]),
        "conflicts": Syntax(usage: "carrel conflicts [PATH] [--json]", arguments: 0...1, flags: ["--json"]),
        "new-folder": Syntax(usage: "carrel new-folder PARENT NAME", arguments: 2...2),
        "new-file": Syntax(usage: "carrel new-file PARENT NAME", arguments: 2...2),
        "rename": Syntax(usage: "carrel rename PATH NEW-NAME [--dry-run]", arguments: 2...2, flags: ["--dry-run"]),
        "mv": Syntax(usage: "carrel mv PATH DESTINATION-FOLDER [--dry-run]", arguments: 2...2, flags: ["--dry-run"]),
        "links": Syntax(usage: "carrel links PATH always|ask|never", arguments: 2...2),
        "rm": Syntax(
            usage: "carrel rm PATH [--yes] [--system-trash]", arguments: 1...1,
            flags: ["--yes", "--system-trash"]),
        "restore": Syntax(usage: "carrel restore PATH", arguments: 1...1),
        "duplicate": Syntax(usage: "carrel duplicate PATH", arguments: 1...1),
        "snapshot": Syntax(usage: "carrel snapshot PATH [--title T]", arguments: 1...1, valued: ["--title"]),
        "snapshots": Syntax(usage: "carrel snapshots PATH [--json]", arguments: 1...1, flags: ["--json"]),
        "compare": Syntax(usage: "carrel compare PATH SNAPSHOT", arguments: 2...2),
        "rollback": Syntax(usage: "carrel rollback PATH SNAPSHOT", arguments: 2...2),
        "undo": Syntax(usage: "carrel undo", arguments: 0...0),
        "redo": Syntax(usage: "carrel redo", arguments: 0...0),
        "empty-trash": Syntax(usage: "carrel empty-trash PROJECT [--yes]", arguments: 1...1, flags: ["--yes"]),
        "sort": Syntax(
            usage: "carrel sort PATH manual|name|modified|created [--descending]", arguments: 2...2,
            flags: ["--descending"]),
        "reorder": Syntax(
            usage: "carrel reorder PATH --before SIBLING | --after SIBLING", arguments: 1...1,
            valued: ["--before", "--after"]),
        "ask-before-deleting": Syntax(usage: "carrel ask-before-deleting PATH yes|no", arguments: 2...2),
        "target": Syntax(usage: "carrel target PATH N|none [--daily]", arguments: 2...2, flags: ["--daily"]),
        "compile": Syntax(
            usage:
                "carrel compile PROJECT [--recipe R] [--to FORMAT] [-o FILE] [--json] [--submit-to MARKET [--date YYYY-MM-DD] [--yes]]",
            arguments: 1...1, flags: ["--json", "--yes"], valued: ["--recipe", "--to", "-o", "--submit-to", "--date"]),
        "include": Syntax(usage: "carrel include PATH yes|no", arguments: 2...2),
        "byline": Syntax(
            usage: "carrel byline PROJECT [--author NAME] [--contact \"LINE | LINE\"]", arguments: 1...1,
            valued: ["--author", "--contact"]),
        "market": Syntax(
            usage:
                "carrel market PATH [--name N] [--url U] [--deadline YYYY-MM-DD] [--reading-period P] [--fee F] [--simultaneous yes|no] [--notes N]",
            arguments: 1...1,
            valued: ["--name", "--url", "--deadline", "--reading-period", "--fee", "--simultaneous", "--notes"]),
        "submit": Syntax(
            usage: "carrel submit PATH... --to MARKET [--date YYYY-MM-DD] [--yes]", arguments: 1...200,
            flags: ["--yes"], valued: ["--to", "--date"]),
        "submission-status": Syntax(
            usage:
                "carrel submission-status RECORD STATUS [--piece P] [--date YYYY-MM-DD] [--note N] [--fee F] [--move-to-published]",
            arguments: 2...2, flags: ["--move-to-published"], valued: ["--piece", "--date", "--note", "--fee"]),
        "withdraw-others": Syntax(
            usage: "carrel withdraw-others RECORD [--piece P]", arguments: 1...1, valued: ["--piece"]),
        "import-submissions": Syntax(usage: "carrel import-submissions FILE.csv PROJECT", arguments: 2...2),
        "submissions": Syntax(
            usage: "carrel submissions [PATH] [--pending] [--json | --csv]", arguments: 0...1,
            flags: ["--pending", "--json", "--csv"]),
    ]
}

/// A subcommand's flags and positional arguments, checked against its `Syntax`.
/// `--library DIR` may come anywhere; `--` ends the options, so a name may start with "-".
struct Options {
    let subcommand: String
    let syntax: Syntax
    var positional: [String] = []
    var flags: [String: String] = [:]

    init(_ args: [String], _ syntax: Syntax, subcommand: String) throws {
        self.syntax = syntax
        self.subcommand = subcommand
        var valued = syntax.valued
        if syntax.inLibrary { valued.insert("--library") }
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let a = args[i]
            i += 1
            if optionsEnded || !a.hasPrefix("-") || a == "-" {
                positional.append(a)
                continue
            }
            if a == "--" { optionsEnded = true; continue }
            if let eq = a.firstIndex(of: "="), valued.contains(String(a[..<eq])) {
                flags[String(a[..<eq])] = String(a[a.index(after: eq)...])
            } else if valued.contains(a) {
                guard i < args.count else { throw CLI.Usage(.missingValue(option: a)) }
                flags[a] = args[i]
                i += 1
            } else if syntax.flags.contains(a) {
                flags[a] = ""
            } else {
                throw CLI.Usage(.unknownOption(option: a, subcommand: self.subcommand))
            }
        }
        guard syntax.arguments.contains(positional.count) else { throw wrongArguments }
    }

    var wrongArguments: CLI.Usage { CLI.Usage(.wrongArguments(subcommand: subcommand, usage: syntax.usage)) }

    func value(_ flag: String) -> String? { flags[flag] }
    func has(_ flag: String) -> Bool { flags[flag] != nil }
}
