import CarrelClient
import CarrelJSON
import Foundation
import Glibc

// carrel-bench: builds a synthetic library, drives the real `carrel lsp` over
// pipes as an editor would, and reports medians and p99s. Not a test: a
// measurement, recorded in Tests/Benchmarks/RESULTS.md.

struct Options {
    var files = 100_000
    var folders = 10_000
    var depth = 6
    var json = false
    var carrel: String?
    var keep = false
    var scale = 1.0
    var words = false
    var compile = false
    var snapshots = false
    var links = false
    /// `--files` or `--folders` given: `--compile` then places its novel in a library that size.
    var sized = false
    var undo = false
    /// `--will-rename`: with `--links`, only `workspace/willRenameFiles`.
    var willRename = false
    /// `--versus PATH`: a second server, timed in turns with the first.
    var versus: String?

    init(_ args: [String]) {
        var i = 0
        func value() -> String { i += 1; return i < args.count ? args[i] : "" }
        while i < args.count {
            switch args[i] {
            case "--files": files = Int(value()) ?? files; sized = true
            case "--folders": folders = Int(value()) ?? folders; sized = true
            case "--depth": depth = Int(value()) ?? depth
            case "--json": json = true
            case "--carrel": carrel = value()
            case "--keep": keep = true
            case "--words": words = true
            case "--compile": compile = true
            case "--snapshots": snapshots = true
            case "--links": links = true
            case "--undo": undo = true
            case "--will-rename": willRename = true
            case "--versus": versus = value()
            case "--iterations": scale = Double(value()) ?? 1
            case "--help", "-h":
                print(
                    "USAGE: carrel-bench [--files N] [--folders N] [--depth N] [--iterations SCALE] [--carrel PATH] [--json] [--keep] [--words] [--compile] [--snapshots] [--links [--will-rename [--versus PATH]]] [--undo]"
                )
                exit(0)
            default:
                FileHandle.standardError.write(Data("carrel-bench: unknown option \(args[i])\n".utf8))
                exit(2)
            }
            i += 1
        }
    }
}

struct Figure {
    let name: String
    let samples: [Double]
    var unit = "ms"
    var extra: [String: JSONValue] = [:]

    var sorted: [Double] { samples.sorted() }
    var median: Double { let s = sorted; return s.isEmpty ? 0 : s[s.count / 2] }
    var p99: Double {
        let s = sorted; return s.isEmpty ? 0 : s[min(s.count - 1, Int((Double(s.count) * 0.99).rounded(.up)) - 1)]
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let binary =
    options.carrel
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("carrel").path
guard FileManager.default.isExecutableFile(atPath: binary) else {
    FileHandle.standardError.write(
        Data("carrel-bench: no carrel binary at \(binary); build it or pass --carrel PATH\n".utf8))
    exit(2)
}
func iterations(_ n: Int) -> Int { max(3, Int(Double(n) * options.scale)) }

let base = NSTemporaryDirectory() + "carrel-bench-\(getpid())"

/// Prints each figure on one line: its median and p99 in its unit, the
/// samples taken, the slowest three when asked, and its extras.
func printFigures(_ figures: [Figure], slowest: Bool = false) {
    let width = (figures.map(\.name.count).max() ?? 0) + 1
    for f in figures {
        let digits = f.unit == "ms" ? 3 : 1
        let value = { (x: Double) in String(format: "%9.\(digits)f \(f.unit)", x) }
        let slow =
            slowest ? ", slowest " + f.sorted.suffix(3).map { String(format: "%.1f", $0) }.joined(separator: ", ") : ""
        let extra = f.extra.keys.sorted().map { "  \($0) \(f.extra[$0]!.text())" }.joined()
        print(
            f.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + " median \(value(f.median))   p99 \(value(f.p99))"
                + "   n \(f.samples.count)\(slow)" + extra)
    }
}

func median(_ name: String, in figures: [Figure]) -> Double { figures.first { $0.name == name }?.median ?? .nan }

// `--snapshots`: a snapshot of a long chapter, and a comparison, alone (see Snapshots.swift).
if options.snapshots {
    mkdir(base, 0o755)
    let figures = SnapshotsBenchmark.run(binary: binary, base: base, scale: options.scale)
    if !options.keep { try? FileManager.default.removeItem(atPath: base) }
    printFigures(figures)
    print(
        String(
            format: "snapshot above its disk floor (server work): median %.3f ms, p99 %.3f ms",
            figures[0].median - figures[1].median, figures[0].p99 - figures[1].p99))
    exit(0)
}

// `--words`: the counting figures alone, on their own library (see Words.swift).
if options.words {
    mkdir(base, 0o755)
    var peak = 0
    let figures = WordsBenchmark.run(binary: binary, base: base, scale: options.scale, peakOut: &peak)
    if !options.keep { try? FileManager.default.removeItem(atPath: base) }
    printFigures(figures, slowest: true)
    let wc = figures[1].median
    print(
        String(
            format: "counting from cold / wc -w: %.2f×   restart: first tree %.2f× the cold start's,"
                + " every count %.2f× the cold start's   peak RSS: %.1f MiB",
            figures[3].median / wc, figures[5].median / figures[2].median,
            figures[4].median / (figures[2].median + figures[3].median), Double(peak) / 1024))
    exit(0)
}
// `--compile`: a novel's manuscript, against cat and pandoc alone (see Compile.swift);
// with `--files`/`--folders`, the novel is one project of a synthetic library that size.
if options.compile {
    mkdir(base, 0o755)
    var peaks = CompileBenchmark.Peaks()
    let around =
        options.sized
        ? SyntheticLibrary(
            root: base + "/Library", files: options.files, folders: options.folders, depth: options.depth)
        : nil
    let figures = CompileBenchmark.run(
        binary: binary, base: base, scale: options.scale, around: around, peaks: &peaks)
    if !options.keep { try? FileManager.default.removeItem(atPath: base) }
    printFigures(figures)
    if figures.count >= 4 {
        print(
            String(
                format: "Markdown / cat: %.2f× (target ≤ 1.5×)   DOCX / pandoc alone: %.2f× (target ≤ 1.10×)",
                figures[1].median / figures[0].median, figures[3].median / figures[2].median))
    }
    print(
        String(
            format: "server peak RSS: %.1f MiB opening and counting, %.1f MiB while compiling (target ≤ 114.4 MiB)",
            Double(peaks.opening) / 1024, Double(peaks.compiling) / 1024))
    exit(0)
}
// `--links`: the links figures alone, on their own library (see Links.swift).
if options.links {
    mkdir(base, 0o755)
    var peak = 0
    if options.willRename {
        let figures = LinksBenchmark.willRename(
            binaries: [binary] + (options.versus.map { [$0] } ?? []), base: base, scale: options.scale)
        if !options.keep { try? FileManager.default.removeItem(atPath: base) }
        printFigures(figures, slowest: true)
        exit(0)
    }
    let figures = LinksBenchmark.run(binary: binary, base: base, scale: options.scale, peakOut: &peak)
    if !options.keep { try? FileManager.default.removeItem(atPath: base) }
    printFigures(figures)
    let on = median("cold start, spawn to every count", in: figures)
    let off = median("cold start, links index off (reference)", in: figures)
    let rss = median("RSS at the count, index on", in: figures) - median("RSS at the count, index off", in: figures)
    print(
        String(
            format: "links index: %.1f %% of cold start (target ≤ 5 %%), %.1f MiB RSS at the count (target ≤ 14.3 MiB)"
                + "   peak RSS: %.1f MiB (target ≤ 114.4 MiB)",
            (on - off) / off * 100, rss, Double(peak) / 1024))
    exit(0)
}
let library = SyntheticLibrary(
    root: base + "/Library", files: options.files, folders: options.folders, depth: options.depth)
let state = base + "/state"
let env = ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state, "HOME": state]
FileHandle.standardError.write(
    Data("carrel-bench: generating \(options.files) files in \(options.folders) folders…\n".utf8))
try library.make()
sync()
defer { if !options.keep { try? FileManager.default.removeItem(atPath: base) } }

// `--undo`: undo and redo of a move, and cold start with a full journal and
// 2,000 snapshots against without, on this library (see Undo.swift).
if options.undo {
    let figures = UndoBenchmark.run(binary: binary, library: library, base: base, scale: options.scale)
    if !options.keep { try? FileManager.default.removeItem(atPath: base) }
    printFigures(figures)
    let floor = figures[2].median + figures[3].median
    print(
        String(
            format: "undo above its disk floor (the move, the journal): %.3f ms"
                + "   cold start with / without: %.3f× wall, %.3f× CPU",
            figures[0].median - floor, figures[4].median / figures[5].median, figures[6].median / figures[7].median))
    exit(0)
}

var figures: [Figure] = []

// The reference: find(1) walking and stat-ing the same tree. Spawned and
// reaped directly: Foundation's `Process.waitUntilExit` polls every 50 ms,
// which rounded every walk up to the next 50 ms.
let findRuns = measure(iterations(7)) { _ in
    runToExit("/usr/bin/find", [library.root, "-printf", "%y %s %T@ %p\n"])
}
figures.append(Figure(name: "find walk (reference)", samples: findRuns))

let initialize = Initialize(folders: [uri(library.root)], name: "Library")

// Cold start: spawn, initialize (the scan), first depth-1 tree.
// The clock stops at the answer: stopping the server is not part of it.
let cold: [Double] = (0..<iterations(7)).map { _ in
    let start = nowNs()
    let s = try! BenchClient(binary: binary, environment: env)
    s.send(initialize)
    s.send(Tree(depth: 1))
    let elapsed = Double(nowNs() - start) / 1e6
    s.stop()
    return elapsed
}
figures.append(Figure(name: "cold start", samples: cold))

// The first view a client draws: the roots, then each project two levels
// deep (its sections and their rows), as "Writing a client" says.
let firstView: [Double] = (0..<iterations(7)).map { _ in
    let start = nowNs()
    let s = try! BenchClient(binary: binary, environment: env)
    s.send(initialize)
    let roots = s.send(Tree(depth: 1)) ?? []
    for project in roots.first?["children"]?.arrayValue ?? [] where project["kind"] == "project" {
        _ = s.requestUnparsed("carrel/tree", ["uri": project["uri"] ?? .null, "depth": 2])
    }
    let elapsed = Double(nowNs() - start) / 1e6
    s.stop()
    return elapsed
}
figures.append(Figure(name: "first view", samples: firstView))

let server = try BenchClient(binary: binary, environment: env)
server.send(initialize)
server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
// An editor's first paint, then the words counted in the background after
// it: the figures below are of a server at rest, as a writer meets it.
let libraryURI = uri(library.root)
let countedStart = nowNs()
server.send(Tree(depth: 1))
_ = server.wait { m in
    m["method"] == "carrel/didChange"
        && (m["params"]?["changes"]?.arrayValue ?? []).contains {
            $0["type"] == "changed" && $0["uri"]?.stringValue == libraryURI
        }
}
figures.append(Figure(name: "words counted after the first paint", samples: [Double(nowNs() - countedStart) / 1e6]))

var nodes = 0
var bytes = 0
let full = measure(iterations(7)) { _ in
    bytes = server.requestUnparsed("carrel/tree", .object([:])).count
}
do {
    var stack = server.send(Tree())
    while let n = stack.popLast() { nodes += 1; stack += n["children"]?.arrayValue ?? [] }
}
figures.append(Figure(name: "full tree", samples: full, extra: ["nodes": .int(nodes), "bytes": .int(bytes)]))

figures.append(
    Figure(
        name: "depth-1 tree, 1,000 children",
        samples: measure(iterations(200)) { _ in
            _ = server.requestUnparsed("carrel/tree", ["uri": .string(uri(library.wide)), "depth": 1])
        }))

// The search index is built on the first search: timed apart, so the
// figures below are the searches a writer makes after it.
figures.append(
    Figure(
        name: "workspace/symbol, the first (builds the index)",
        samples: measure(1) { _ in
            _ = server.requestUnparsed("workspace/symbol", ["query": .string("e")])
        }))
for query in ["e", "sce", "chapter1"] {
    figures.append(
        Figure(
            name: "workspace/symbol \"\(query)\"",
            samples: measure(iterations(100)) { _ in
                _ = server.requestUnparsed("workspace/symbol", ["query": .string(query)])
            }))
}

figures.append(
    Figure(
        name: "carrel.newFolder",
        samples: measure(iterations(200)) { i in
            server.commandUnparsed(
                "carrel.newFolder", ["parentUri": .string(uri(library.scratch)), "name": .string("New \(i)")])
        }))
server.checkCommands()
figures.append(
    Figure(
        name: "carrel.rename",
        samples: measure(iterations(200)) { i in
            server.commandUnparsed(
                "carrel.rename",
                ["uri": .string(uri(library.scratch + "/New \(i)")), "newName": .string("Renamed \(i)")])
        }))
server.checkCommands()
let (from, to) = library.heavyParents
figures.append(
    Figure(
        name: "carrel.moveTo, 1,000 descendants",
        samples: measure(iterations(100)) { i in
            let (src, dst) = i % 2 == 0 ? (from, to) : (to, from)
            server.commandUnparsed(
                "carrel.moveTo", ["uri": .string(uri(src + "/Heavy")), "destinationUri": .string(uri(dst))])
        }))
server.checkCommands()
figures.append(
    Figure(
        name: "carrel.delete",
        samples: measure(iterations(200)) { i in
            server.commandUnparsed(
                "carrel.delete", ["uri": .string(uri(library.scratch + "/Renamed \(i)")), "confirmed": true])
        }))
server.checkCommands()
figures.append(
    Figure(
        name: "carrel.restore",
        samples: measure(iterations(200)) { i in
            server.commandUnparsed("carrel.restore", ["uri": .string(uri(library.project + "/Trash/Renamed \(i)"))])
        }))
server.checkCommands()
// Right after them, while the disk is in the same mood.
let floor = Figure(
    name: "disk floor of a Trash operation", samples: diskFloor(in: base + "/floor", iterations: iterations(200)))
figures.append(floor)

// The writer places a file among 1,000 siblings: the order file is written
// whole and fsynced (the first one also makes the folder's sort manual).
figures.append(
    Figure(
        name: "carrel.reorder, 1,000 children",
        samples: measure(iterations(200)) { i in
            let item = uri(library.wide + "/Wide \((i * 7) % 1000 + 1).md")
            let anchor = uri(library.wide + "/Wide \((i * 13 + 500) % 1000 + 1).md")
            server.commandUnparsed(
                "carrel.reorder", ["uri": .string(item), i % 2 == 0 ? "before" : "after": .string(anchor)])
        }))
server.checkCommands()
let reorderFloor = Figure(
    name: "disk floor of a reorder", samples: reorderDiskFloor(in: base + "/reorder-floor", iterations: iterations(200))
)
figures.append(reorderFloor)

// Another process renames a file; time until the server says so.
server.dropNotifications()
let target = uri(library.wide + "/Moved.md")
figures.append(
    Figure(
        name: "external change → carrel/didChange",
        samples: measure(iterations(50)) { i in
            let (a, b) = i % 2 == 0 ? ("Wide 0.md", "Moved.md") : ("Moved.md", "Wide 0.md")
            rename(library.wide + "/" + a, library.wide + "/" + b)
            let wanted = i % 2 == 0 ? target : uri(library.wide + "/Wide 0.md")
            _ = server.wait { m in
                m["method"] == "carrel/didChange"
                    && (m["params"]?["changes"]?.arrayValue ?? []).contains { $0["uri"]?.stringValue == wanted }
            }
        }))
let rss = server.peakRSSKiB
server.stop()

// Cold start again, with an order file in every folder: what reading them costs.
let ordered = library.orderEveryFolder()
sync()
let coldOrdered: [Double] = (0..<iterations(7)).map { _ in
    let start = nowNs()
    let s = try! BenchClient(binary: binary, environment: env)
    s.send(initialize)
    s.send(Tree(depth: 1))
    let elapsed = Double(nowNs() - start) / 1e6
    s.stop()
    return elapsed
}
figures.append(
    Figure(name: "cold start, every folder ordered", samples: coldOrdered, extra: ["orderFiles": .int(ordered)]))

// Report.
let findMedian = figures[0].median
let ratio = figures[1].median / findMedian
let fullTreeRatio = (figures.first { $0.name == "full tree" }?.median ?? 0) / findMedian
if options.json {
    var out: [String: JSONValue] = [
        "files": .int(options.files), "folders": .int(options.folders), "depth": .int(options.depth),
        "peakRSSMiB": .double((Double(rss) / 1024 * 10).rounded() / 10),
        "coldStartOverFind": .double((ratio * 100).rounded() / 100),
        "diskFloorMs": .double((floor.median * 1000).rounded() / 1000),
        "fullTreeOverFind": .double((fullTreeRatio * 100).rounded() / 100),
    ]
    out["figures"] = .array(
        figures.map { f in
            var o: [String: JSONValue] = [
                "name": .string(f.name), "medianMs": .double((f.median * 1000).rounded() / 1000),
                "p99Ms": .double((f.p99 * 1000).rounded() / 1000), "samples": .int(f.samples.count),
            ]
            for (k, v) in f.extra { o[k] = v }
            return .object(o)
        })
    print(JSONValue.object(out).text(pretty: true))
} else {
    print("carrel-bench: \(options.files) files, \(options.folders) folders, depth \(options.depth), \(nodes) nodes")
    printFigures(figures)
    print(
        String(
            format: "cold start / find walk: %.2f×   full tree / find walk: %.2f×   peak RSS: %.1f MiB",
            ratio, fullTreeRatio, Double(rss) / 1024))
    let serverShare = figures.filter { $0.name == "carrel.delete" || $0.name == "carrel.restore" }
        .map { String(format: "%@ %.3f ms", $0.name, $0.median - floor.median) }.joined(separator: ", ")
    print("above the disk floor (server work): " + serverShare)
    if let reorder = figures.first(where: { $0.name == "carrel.reorder, 1,000 children" }) {
        print(String(format: "reorder above its disk floor: %.3f ms", reorder.median - reorderFloor.median))
    }
}
