import CarrelClient
import CarrelJSON
import Foundation
import Glibc

/// `carrel-bench --links`: links in a library of 110,000 entries (100,000
/// scenes in 10,000 chapter folders) holding 20,000 links, 500 of them, in
/// 300 files, to one character: what the index costs on a cold start and a
/// restart, the server's peak RSS, a rename of that character answered
/// "Update Links", and `workspace/willRenameFiles` for it.
enum LinksBenchmark {
    static let parts = 100
    static let chaptersPerPart = 100
    static let scenesPerChapter = 10
    static let links = 20_000
    static let inbound = 500
    static let inboundFiles = 300

    static func scene(_ part: Int, _ chapter: Int, _ scene: Int) -> String {
        "Novel/Part \(part)/Chapter \(chapter)/Scene \(scene).md"
    }

    /// The library at `root`.
    static func make(_ root: String) {
        let project = root + "/Book"
        for dir in [
            root, project, project + "/.carrel", project + "/Novel", project + "/Characters", project + "/Trash",
        ] {
            mkdir(dir, 0o755)
        }
        try! #"{"type":"novel","version":1}"#.write(
            toFile: project + "/.carrel/project.json", atomically: false, encoding: .utf8)
        try! "# Ada\n".write(toFile: project + "/Characters/Ada.md", atomically: false, encoding: .utf8)
        // File n (in order) links the character twice for n < 200, once for
        // n < 300, and one other scene for n < 19,500: 20,000 links in all.
        var n = 0
        for p in 0..<parts {
            mkdir(project + "/Novel/Part \(p)", 0o755)
            for c in 0..<chaptersPerPart {
                mkdir(project + "/Novel/Part \(p)/Chapter \(c)", 0o755)
                for s in 0..<scenesPerChapter {
                    var text = "The winter light fell across the harbour, and she did not know it yet.\n\n"
                    let toAda = "[Ada](../../../Characters/Ada.md)\n"
                    if n < inbound - inboundFiles { text += toAda + toAda } else if n < inboundFiles { text += toAda }
                    if n < links - inbound {
                        let other = (n &* 7919) % (parts * chaptersPerPart * scenesPerChapter)
                        let o = (
                            other / (chaptersPerPart * scenesPerChapter), (other / scenesPerChapter) % chaptersPerPart
                        )
                        text += "[see](../../Part \(o.0)/Chapter \(o.1)/Scene \(other % scenesPerChapter).md)\n"
                            .replacingOccurrences(of: " ", with: "%20")
                    }
                    try! text.write(toFile: project + "/" + scene(p, c, s), atomically: false, encoding: .utf8)
                    n += 1
                }
            }
        }
    }

    static func run(binary: String, base: String, scale: Double, peakOut: inout Int) -> [Figure] {
        func iterations(_ n: Int) -> Int { max(3, Int(Double(n) * scale)) }
        let root = base + "/Links"
        let project = root + "/Book"
        FileHandle.standardError.write(Data("carrel-bench: generating the links library…\n".utf8))
        make(root)
        sync()
        let initialize = Initialize(folders: [uri(root)], name: "Links")
        let rootURI = uri(root)
        func countedNotice(_ m: JSONValue) -> Bool {
            m["method"] == "carrel/didChange"
                && (m["params"]?["changes"]?.arrayValue ?? []).contains {
                    $0["type"] == "changed" && $0["uri"]?.stringValue == rootURI
                }
        }
        let adaURI = JSONValue.string(uri(project + "/Characters/Ada.md"))
        let references: JSONValue = [
            "textDocument": ["uri": adaURI], "position": ["line": 0, "character": 0],
            "context": ["includeDeclaration": false],
        ]
        var figures: [Figure] = []
        /// Spawn to counts, then the first link query. `indexing` false
        /// starts the server with the links index switched off
        /// (`CARREL_BENCH_NO_LINKS`, read only for this): no file's links
        /// parsed, kept or cached, so the difference is what the index costs.
        func start(_ state: String, indexing: Bool = true) -> (
            counting: Double, query: Double, found: Int, rssKiB: Int, peakKiB: Int, server: BenchClient
        ) {
            usleep(100_000)
            let spawned = nowNs()
            var environment = ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state, "HOME": state]
            if !indexing { environment["CARREL_BENCH_NO_LINKS"] = "1" }
            let s = try! BenchClient(binary: binary, environment: environment)
            s.send(initialize)
            s.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
            s.send(Tree(depth: 1))
            _ = s.wait(countedNotice)
            let counted = nowNs()
            let rss = s.rssKiB
            let peak = s.peakRSSKiB
            let found = indexing ? s.request("textDocument/references", references).arrayValue?.count ?? -1 : 0
            return (Double(counted - spawned) / 1e6, Double(nowNs() - counted) / 1e6, found, rss, peak, s)
        }
        var coldCount: [Double] = []
        var coldQuery: [Double] = []
        var warmCount: [Double] = []
        var warmQuery: [Double] = []
        var unindexedCount: [Double] = []
        var rss: (indexed: [Double], unindexed: [Double]) = ([], [])
        var peaks: (indexed: [Double], unindexed: [Double]) = ([], [])
        var found = 0
        let cached = base + "/links-state-cold-0"
        for i in 0..<iterations(3) {
            let cold = start(base + "/links-state-cold-\(i)")
            coldCount.append(cold.counting)
            coldQuery.append(cold.query)
            rss.indexed.append(Double(cold.rssKiB) / 1024)
            peaks.indexed.append(Double(cold.peakKiB) / 1024)
            found = cold.found
            peakOut = max(peakOut, cold.server.peakRSSKiB)
            cold.server.stop()
            let unindexed = start(base + "/links-state-unindexed-\(i)", indexing: false)
            unindexedCount.append(unindexed.counting)
            rss.unindexed.append(Double(unindexed.rssKiB) / 1024)
            peaks.unindexed.append(Double(unindexed.peakKiB) / 1024)
            unindexed.server.stop()
            let warm = start(cached)
            warmCount.append(warm.counting)
            warmQuery.append(warm.query)
            warm.server.stop()
        }
        figures.append(Figure(name: "cold start, spawn to every count", samples: coldCount))
        figures.append(
            Figure(name: "first references after the cold count", samples: coldQuery, extra: ["found": .int(found)]))
        figures.append(Figure(name: "cold start, links index off (reference)", samples: unindexedCount))
        figures.append(Figure(name: "RSS at the count, index on", samples: rss.indexed, unit: "MiB"))
        figures.append(Figure(name: "RSS at the count, index off", samples: rss.unindexed, unit: "MiB"))
        figures.append(Figure(name: "peak RSS to the count, index on", samples: peaks.indexed, unit: "MiB"))
        figures.append(Figure(name: "peak RSS to the count, index off", samples: peaks.unindexed, unit: "MiB"))
        figures.append(Figure(name: "restart, spawn to every count (cache)", samples: warmCount))
        figures.append(Figure(name: "first references after a restart", samples: warmQuery))

        // A rename of the character, answered "Update Links" at once: to its
        // carrel/didChange, then to the report that every file is rewritten.
        let server = start(cached).server
        server.answer = "Update Links"
        var toChange: [Double] = []
        var toReport: [Double] = []
        var name = "Ada.md"
        for i in 0..<iterations(5) {
            let newName = i % 2 == 0 ? "Ada Lovelace.md" : "Ada.md"
            server.dropNotifications()
            let started = nowNs()
            server.send([
                "jsonrpc": "2.0", "id": .int(1_000_000 + i), "method": "workspace/executeCommand",
                "params": [
                    "command": "carrel.rename",
                    "arguments": [["uri": .string(uri(project + "/Characters/" + name)), "newName": .string(newName)]],
                ],
            ])
            _ = server.wait { m in
                m["method"] == "carrel/didChange"
                    && (m["params"]?["changes"]?.arrayValue ?? []).contains { $0["type"] == "moved" }
            }
            toChange.append(Double(nowNs() - started) / 1e6)
            let report = server.wait { $0["method"] == "window/showMessage" }
            toReport.append(Double(nowNs() - started) / 1e6)
            if i == 0 {
                FileHandle.standardError.write(
                    Data("carrel-bench: \(report["params"]?["message"]?.stringValue ?? "?")\n".utf8))
            }
            name = newName
        }
        figures.append(Figure(name: "rename, 500 links in 300 files: didChange", samples: toChange))
        figures.append(Figure(name: "rename, 500 links in 300 files: all rewritten", samples: toReport))

        let willRename: JSONValue = [
            "files": [
                [
                    "oldUri": .string(uri(project + "/Characters/" + name)),
                    "newUri": .string(uri(project + "/Characters/X.md")),
                ]
            ]
        ]
        figures.append(
            Figure(
                name: "workspace/willRenameFiles, one file",
                samples: measure(iterations(1000)) { _ in
                    _ = server.requestUnparsed("workspace/willRenameFiles", willRename)
                }))
        peakOut = max(peakOut, server.peakRSSKiB)
        server.stop()
        return figures
    }
}
