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
        // From cold: no cache. The clock starts at the first tree answer, when counting starts.
        var coldCount: [Double] = []
        var coldStart: [Double] = []
        for i in 0..<iterations(5) {
            let state = base + "/words-state-cold-\(i)"
            let env = ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state, "HOME": state]
            let spawned = nowNs()
            let s = try! BenchClient(binary: binary, environment: env)
            s.send(initialize)
            s.send(Tree(depth: 1))
            let answered = nowNs()
            coldStart.append(Double(answered - spawned) / 1e6)
            _ = s.wait(countedNotice)
            coldCount.append(Double(nowNs() - answered) / 1e6)
            s.stop()
        }
        figures.append(Figure(name: "cold start (spawn to first tree)", samples: coldStart))
        figures.append(Figure(name: "counting from cold (first tree to counts)", samples: coldCount))
        let total = try! BenchClient(
            binary: binary,
            environment: ["XDG_STATE_HOME": base + "/words-state-cold-0", "HOME": base + "/words-state-cold-0"])
        total.send(initialize)
        _ = total.request("carrel/tree", ["depth": 0])
        _ = total.wait(countedNotice)
        let words = total.request("carrel/tree", ["depth": 0])[0]?["words"]?.intValue ?? -1
        total.stop()

        // A restart with nothing changed: the cache written by the cold run.
        var restart: [Double] = []
        var restartPaint: [Double] = []
        for _ in 0..<iterations(5) {
            let state = base + "/words-state-cold-0"
            let spawned = nowNs()
            let s = try! BenchClient(binary: binary, environment: ["XDG_STATE_HOME": state, "HOME": state])
            s.send(initialize)
            s.send(Tree(depth: 1))
            restartPaint.append(Double(nowNs() - spawned) / 1e6)
            _ = s.wait(countedNotice)
            restart.append(Double(nowNs() - spawned) / 1e6)
            s.stop()
        }
        figures.append(
            Figure(name: "restart, nothing changed (spawn to counts)", samples: restart, extra: ["words": .int(words)]))
        figures.append(Figure(name: "restart, nothing changed (spawn to first tree)", samples: restartPaint))

        // A saved change: another program rewrites a scene; time until the
        // client holds the new counts up the tree.
        let state = base + "/words-state-cold-0"
        let server = try! BenchClient(binary: binary, environment: ["XDG_STATE_HOME": state, "HOME": state])
        server.send(initialize)
        server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        _ = server.request("carrel/tree", ["depth": 1])
        _ = server.wait(countedNotice)
        let scene = paths[paths.count / 2]
        let sceneURI = uri(scene)
        let projectURI = uri(project)
        figures.append(
            Figure(
                name: "saved change → new counts up the tree",
                // A writer's saves are seconds apart; saves closer than the
                // watcher's quiet (50 ms) are a burst, told when it ends.
                samples: measure(iterations(50), pausingMs: 100) { i in
                    let n = wordsPerFile + 1 + i
                    let body = text(i, words: n)
                    let fd = open(scene, O_WRONLY | O_TRUNC)
                    _ = body.withCString { write(fd, $0, strlen($0)) }
                    close(fd)
                    _ = server.wait { m in
                        guard m["method"] == "carrel/didChange", let rows = m["params"]?["updated"]?.arrayValue else {
                            return false
                        }
                        // Each "## Scene k" heading is two words more.
                        let expected = n + 2 * ((n + 99) / 100)
                        return rows.contains { $0["uri"]?.stringValue == sceneURI && $0["words"]?.intValue == expected }
                            && rows.contains { $0["uri"]?.stringValue == projectURI }
                    }
                }))

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
