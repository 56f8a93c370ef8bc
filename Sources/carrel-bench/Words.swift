import CarrelClient
import CarrelJSON
import Foundation
import Glibc

/// `carrel-bench --words`: counting words, against `wc -w` over the same
/// files, in the same run: a 2,000-file, 2-million-word library counted
/// from cold; a restart with nothing changed; a saved change reaching the
/// client with new counts; the outline of a 20,000-word chapter.
enum WordsBenchmark {
    static let files = 2_000
    static let wordsPerFile = 1_000
    static let vocabulary = [
        "the", "winter", "light", "fell", "across", "harbour", "she", "didn't", "know", "well-known",
        "lighthouse", "keeper", "rain", "and", "of", "a", "quiet", "morning", "café", "élan",
    ]

    /// One file's Markdown: a heading every 100 words, sentences of ten.
    static func text(_ seed: Int, words: Int) -> String {
        var out = ""
        out.reserveCapacity(words * 7)
        for i in 0..<words {
            if i % 100 == 0 { out += "\n\n## Scene \(i / 100 + 1)\n\n" }
            out += vocabulary[(i &* 7 &+ seed &* 13) % vocabulary.count]
            out += i % 10 == 9 ? ". " : " "
        }
        return out
    }

    static func run(binary: String, base: String, scale: Double, peakOut: inout Int) -> [Figure] {
        func iterations(_ n: Int) -> Int { max(3, Int(Double(n) * scale)) }
        let root = base + "/Words"
        let project = root + "/Novel"
        var paths: [String] = []
        mkdir(root, 0o755)
        mkdir(project, 0o755)
        for dir in ["/.carrel", "/Novel", "/Characters", "/Trash"] { mkdir(project + dir, 0o755) }
        try! #"{"type":"novel","version":1}"#.write(
            toFile: project + "/.carrel/project.json", atomically: false, encoding: .utf8)
        for chapter in 0..<20 {
            let folder = project + "/Novel/Chapter \(chapter + 1)"
            mkdir(folder, 0o755)
            for scene in 0..<(files / 20) {
                let path = folder + "/Scene \(scene + 1).md"
                try! text(chapter * 1000 + scene, words: wordsPerFile).write(
                    toFile: path, atomically: false, encoding: .utf8)
                paths.append(path)
            }
        }
        sync()
        var figures: [Figure] = []
        figures.append(
            Figure(
                name: "find over the words library",
                samples: measure(iterations(7)) { _ in
                    runToExit("/usr/bin/find", [root, "-printf", "%y %s %T@ %p\n"])
                }))
        figures.append(
            Figure(
                name: "wc -w over the same files",
                samples: measure(iterations(7)) { _ in runToExit("/usr/bin/wc", ["-w"] + paths) }))

        let initialize = Initialize(folders: [uri(root)], name: "Words")
        let rootURI = uri(root)
        func countedNotice(_ m: JSONValue) -> Bool {
            m["method"] == "carrel/didChange"
                && (m["params"]?["changes"]?.arrayValue ?? []).contains {
                    $0["type"] == "changed" && $0["uri"]?.stringValue == rootURI
                }
        }
        // From cold (no cache) and a restart with nothing changed (the cache
        // the first cold run wrote), interleaved and in turns first, so both
        // meet the same host: at 15 to 25 ms a millisecond of load is 5%.
        var coldCount: [Double] = []
        var coldStart: [Double] = []
        var restart: [Double] = []
        var restartPaint: [Double] = []
        let cached = base + "/words-state-cold-0"
        /// Spawn to the first tree, and the first tree to every count.
        func start(_ state: String) -> (paint: Double, counting: Double) {
            // A cold run writes its cache and today's start, fsynced: the
            // disk settles before the next start, whichever it is.
            usleep(100_000)
            let spawned = nowNs()
            let s = try! BenchClient(
                binary: binary, environment: ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state, "HOME": state])
            s.send(initialize)
            s.send(Tree(depth: 1))
            let answered = nowNs()
            _ = s.wait(countedNotice)
            defer { s.stop() }
            return (Double(answered - spawned) / 1e6, Double(nowNs() - answered) / 1e6)
        }
        for i in 0..<iterations(31) {
            func cold() {
                let (paint, counting) = start(base + "/words-state-cold-\(i)")
                coldStart.append(paint)
                coldCount.append(counting)
            }
            func warm() {
                let (paint, counting) = start(cached)
                restartPaint.append(paint)
                restart.append(paint + counting)
            }
            if i == 0 { cold() } else if i % 2 == 0 { cold(); warm() } else { warm(); cold() }
        }
        figures.append(Figure(name: "cold start (spawn to first tree)", samples: coldStart))
        figures.append(Figure(name: "counting from cold (first tree to counts)", samples: coldCount))
        let total = try! BenchClient(binary: binary, environment: ["XDG_STATE_HOME": cached, "HOME": cached])
        total.send(initialize)
        _ = total.request("carrel/tree", ["depth": 0])
        _ = total.wait(countedNotice)
        let words = total.request("carrel/tree", ["depth": 0])[0]?["words"]?.intValue ?? -1
        total.stop()
        figures.append(
            Figure(name: "restart, nothing changed (spawn to counts)", samples: restart, extra: ["words": .int(words)]))
        figures.append(Figure(name: "restart, nothing changed (spawn to first tree)", samples: restartPaint))

        // A saved change: another program rewrites a scene; time until the
        // client holds the new counts up the tree.
        let server = try! BenchClient(binary: binary, environment: ["XDG_STATE_HOME": cached, "HOME": cached])
        server.send(initialize)
        server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        _ = server.request("carrel/tree", ["depth": 1])
        _ = server.wait(countedNotice)
        let scene = paths[paths.count / 2]
        let sceneURI = uri(scene)
        let projectURI = uri(project)
        // A writer's saves are seconds apart; saves closer than the watcher's
        // quiet (50 ms) are a burst, told when it ends. The clock starts when
        // the save is complete, the earliest the server can see it: the save
        // itself (a truncate and a write, which the filesystem now and then
        // flushes on close, for tens of milliseconds) is the writing program's
        // time, and is shown apart.
        var saving: [Double] = []
        var reaching: [Double] = []
        for i in 0..<iterations(50) {
            if i > 0 { usleep(100_000) }
            let n = wordsPerFile + 1 + i
            let body = text(i, words: n)
            let started = nowNs()
            let fd = open(scene, O_WRONLY | O_TRUNC)
            _ = body.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            let saved = nowNs()
            _ = server.wait { m in
                guard m["method"] == "carrel/didChange", let rows = m["params"]?["updated"]?.arrayValue else {
                    return false
                }
                // Each "## Scene k" heading is two words more.
                let expected = n + 2 * ((n + 99) / 100)
                return rows.contains { $0["uri"]?.stringValue == sceneURI && $0["words"]?.intValue == expected }
                    && rows.contains { $0["uri"]?.stringValue == projectURI }
            }
            reaching.append(Double(nowNs() - saved) / 1e6)
            saving.append(Double(saved - started) / 1e6)
        }
        figures.append(Figure(name: "saved change → new counts up the tree", samples: reaching))
        figures.append(Figure(name: "the save itself (reference)", samples: saving))

        // The outline of a 20,000-word chapter, open in the editor.
        let chapter = project + "/Novel/Chapter 1/Scene 1.md"
        let chapterURI = JSONValue.string(uri(chapter))
        server.send([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": [
                "textDocument": [
                    "uri": chapterURI, "languageId": "markdown", "version": 1,
                    "text": .string(text(7, words: 20_000)),
                ]
            ],
        ])
        figures.append(
            Figure(
                name: "documentSymbol, 20,000-word chapter",
                samples: measure(iterations(200)) { _ in
                    _ = server.requestUnparsed("textDocument/documentSymbol", ["textDocument": ["uri": chapterURI]])
                }))
        peakOut = server.peakRSSKiB
        server.stop()
        return figures
    }
}
