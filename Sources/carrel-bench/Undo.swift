import CCarrelSys
import CarrelClient
import CarrelJSON
import Foundation
import Glibc

/// `carrel-bench --undo`: on the 110,000-entry library, undo and redo of a
/// `carrel.moveTo` of a file among 1,000 siblings in binder order, with a
/// full journal, beside the disk floor of what they must write; then cold
/// starts with the journal and 2,000 snapshots of 500 files, and without
/// them, taken in turns so that the machine's load falls on both alike.
enum UndoBenchmark {
    static func run(binary: String, library: SyntheticLibrary, base: String, scale: Double) -> [Figure] {
        func iterations(_ n: Int) -> Int { max(3, Int(Double(n) * scale)) }
        let state = base + "/undo-state"
        let env = ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state, "HOME": state]
        let kept = library.project + "/Research/Kept"
        mkdir(kept, 0o755)
        for part in 0..<50 {
            mkdir(kept + "/Part \(part)", 0o755)
            for page in 0..<10 {
                let text = WordsBenchmark.text(part * 10 + page, words: 300)
                try! text.write(toFile: kept + "/Part \(part)/Page \(page).md", atomically: false, encoding: .utf8)
            }
        }
        let note = library.scratch + "/Note.md"
        try! "A note.\n".write(toFile: note, atomically: false, encoding: .utf8)
        sync()
        let initialize = Initialize(folders: [uri(library.root)], name: "Library")
        let server = try! BenchClient(binary: binary, environment: env)
        server.send(initialize)
        server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        // A server at rest, as a writer meets it: the words counted after
        // the first paint, or every command would wait behind the counting.
        let libraryURI: JSONValue = .string(uri(library.root))
        server.send(Tree(depth: 1))
        _ = server.wait { m in
            m["method"] == "carrel/didChange"
                && (m["params"]?["changes"]?.arrayValue ?? []).contains {
                    $0["type"] == "changed" && $0["uri"] == libraryURI
                }
        }

        // The journal filled to its bound, as a writer's long session leaves it.
        for i in 0..<200 {
            let (a, b) = i % 2 == 0 ? ("Note.md", "Note 2.md") : ("Note 2.md", "Note.md")
            server.commandUnparsed(
                "carrel.rename", ["uri": .string(uri(library.scratch + "/" + a)), "newName": .string(b)])
        }
        // 2,000 snapshots of 500 files, four of each.
        for _ in 0..<4 { server.commandUnparsed("carrel.snapshot", ["uri": .string(uri(kept))]) }
        server.checkCommands()

        // Wide in binder order, then one of its files moved out: each undo
        // puts it back among its 1,000 siblings, each redo moves it out again.
        server.commandUnparsed(
            "carrel.reorder",
            [
                "uri": .string(uri(library.wide + "/Wide 500.md")),
                "before": .string(uri(library.wide + "/Wide 1.md")),
            ])
        server.commandUnparsed(
            "carrel.moveTo",
            ["uri": .string(uri(library.wide + "/Wide 500.md")), "destinationUri": .string(uri(library.scratch))])
        server.checkCommands()
        // The move's own work after its answer (its links looked at) is
        // done before the first undo is timed: a request queues behind it.
        _ = server.requestUnparsed("carrel/tree", ["uri": .string(uri(library.wide)), "depth": 1])
        server.dropNotifications()
        var undo: [Double] = []
        var redo: [Double] = []
        for _ in 0..<iterations(100) {
            undo += measure(1) { _ in server.commandUnparsed("carrel.undo", ["library": libraryURI]) }
            redo += measure(1) { _ in server.commandUnparsed("carrel.redo", ["library": libraryURI]) }
        }
        server.checkCommands()
        let rss = server.peakRSSKiB
        server.stop()
        var figures = [
            Figure(name: "carrel.undo of a move, 1,000 siblings", samples: undo),
            Figure(name: "carrel.redo of it", samples: redo),
            Figure(
                name: "disk floor: the move back",
                samples: moveDiskFloor(in: base + "/undo-floor", iterations: iterations(100))),
            Figure(
                name: "disk floor: the journal's write",
                samples: journalDiskFloor(in: base + "/journal-floor", iterations: iterations(100))),
        ]

        // Cold starts in turns: with the journal and the snapshots where
        // they are, and with both renamed aside.
        let snapshots = library.project + "/.carrel/snapshots"
        let journals = state + "/carrel/undo"
        let journal = ((try? FileManager.default.contentsOfDirectory(atPath: journals)) ?? [])
            .first { $0.hasSuffix(".json") }
        sync()
        var with: [Double] = []
        var without: [Double] = []
        var withCPU: [Double] = []
        var withoutCPU: [Double] = []
        for i in 0..<(2 * iterations(7)) {
            let present = i % 2 == 0
            let (wall, cpu) = coldStart(binary: binary, env: env, initialize: initialize)
            if present {
                with.append(wall)
                withCPU.append(cpu)
            } else {
                without.append(wall)
                withoutCPU.append(cpu)
            }
            // Set up the next start's side.
            let (from, to) = present ? ("", ".aside") : (".aside", "")
            rename(snapshots + from, snapshots + to)
            if let journal { rename(journals + "/" + journal + from, journals + "/" + journal + to) }
        }
        figures += [
            Figure(name: "cold start, journal and 2,000 snapshots", samples: with),
            Figure(name: "cold start, neither", samples: without),
            Figure(name: "its CPU, journal and 2,000 snapshots", samples: withCPU),
            Figure(name: "its CPU, neither", samples: withoutCPU),
        ]
        figures[0].extra["peakRSSMiB"] = .double((Double(rss) / 1024 * 10).rounded() / 10)
        return figures
    }

    /// Spawn, initialize and the first depth-1 tree, as the main cold
    /// start; with the CPU time the server used, killed at its answer (the
    /// reaped children's user and system time, to the microsecond).
    static func coldStart(binary: String, env: [String: String], initialize: Initialize) -> (Double, Double) {
        let before = childrenCPUMs()
        let start = nowNs()
        let s = try! BenchClient(binary: binary, environment: env)
        s.send(initialize)
        s.send(Tree(depth: 1))
        let elapsed = Double(nowNs() - start) / 1e6
        s.stop()
        return (elapsed, childrenCPUMs() - before)
    }

    static func childrenCPUMs() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }
}

/// The disk's share of undoing a move, made directly: the item renamed
/// back between two folders, both fsynced at once. The folder it goes back
/// to keeps its order file, which still lists the item's name (a move out
/// leaves it), so no order is written.
func moveDiskFloor(in dir: String, iterations: Int) -> [Double] {
    mkdir(dir, 0o755)
    for sub in ["a", "b"] { mkdir(dir + "/" + sub, 0o755) }
    let a = open(dir + "/a", O_RDONLY | O_DIRECTORY)
    let b = open(dir + "/b", O_RDONLY | O_DIRECTORY)
    defer { close(a); close(b) }
    close(openat(a, "item.md", O_CREAT | O_WRONLY, 0o644))
    return measure(iterations) { i in
        let (from, to) = i % 2 == 0 ? (a, b) : (b, a)
        _ = carrel_rename_noreplace(from, "item.md", to, "item.md")
        let both = [from, to]
        _ = both.withUnsafeBufferPointer { carrel_fsync_all($0.baseAddress, Int32($0.count)) }
    }
}

/// The disk's share of writing a full journal (200 steps, some 40 KB), as
/// `Journal.save` does: a temporary written and fsynced, renamed over the
/// journal. The folder is not fsynced after (see `Journal.save`).
func journalDiskFloor(in dir: String, iterations: Int) -> [Double] {
    mkdir(dir, 0o755)
    let d = open(dir, O_RDONLY | O_DIRECTORY)
    defer { close(d) }
    let step =
        #"{"device":"2049","folder":false,"inode":"1835041","modified":"1763815900000","op":"renamed","#
        + #""origin":"Poetry Project/Research/Bench/Note.md","path":"Poetry Project/Research/Bench/Note 2.md","size":"8"}"#
    let journal =
        Array(#"{"redo":[],"undo":["#.utf8) + Array(Array(repeating: step, count: 200).joined(separator: ",").utf8)
        + Array("],\"version\":1}\n".utf8)
    return measure(iterations) { _ in
        let fd = openat(d, ".journal.tmp", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        _ = journal.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        fsync(fd)
        close(fd)
        renameat(d, ".journal.tmp", d, "journal.json")
    }
}
