import CarrelClient
import CarrelJSON
import Foundation
import Glibc

/// `carrel-bench --snapshots`: a snapshot of a 20,000-word chapter, and
/// comparing it with the chapter after an edit of about a tenth of its
/// words, over the real server. Each snapshot is written and fsynced, so
/// the figure is mostly the disk's.
enum SnapshotsBenchmark {
    static let words = 20_000

    static func run(binary: String, base: String, scale: Double) -> [Figure] {
        func iterations(_ n: Int) -> Int { max(3, Int(Double(n) * scale)) }
        let root = base + "/Snapshots"
        let project = root + "/Novel"
        for dir in [root, project, project + "/.carrel", project + "/Novel", project + "/Trash"] { mkdir(dir, 0o755) }
        try! #"{"type":"novel","version":1}"#.write(
            toFile: project + "/.carrel/project.json", atomically: false, encoding: .utf8)
        let chapter = project + "/Novel/Chapter 1.md"
        let text = WordsBenchmark.text(1, words: words)
        try! text.write(toFile: chapter, atomically: false, encoding: .utf8)
        sync()
        let state = base + "/snapshots-state"
        let server = try! BenchClient(
            binary: binary, environment: ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state, "HOME": state])
        server.send(Initialize(folders: [uri(root)], name: "Snapshots"))
        server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        let file: JSONValue = .string(uri(chapter))
        var figures: [Figure] = []
        figures.append(
            Figure(
                name: "carrel.snapshot, 20,000 words",
                samples: measure(iterations(100)) { _ in server.commandUnparsed("carrel.snapshot", ["uri": file]) }))
        server.checkCommands()
        // Every tenth word changed: about 2,000 removed and 2,000 added.
        var edited = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for i in stride(from: 5, to: edited.count, by: 10) { edited[i] = "revised\(i)" }
        try! edited.joined(separator: " ").write(toFile: chapter, atomically: false, encoding: .utf8)
        let listed = try! JSONParser.parse(
            server.requestUnparsed(
                "workspace/executeCommand", ["command": "carrel.snapshots", "arguments": [["uri": file]]]))
        let name = listed["result"]?["snapshots"]?[0]?["name"] ?? .null
        figures.append(
            Figure(
                name: "carrel.compareSnapshot, a tenth edited",
                samples: measure(iterations(30)) { _ in
                    server.commandUnparsed("carrel.compareSnapshot", ["uri": file, "snapshot": name])
                }))
        server.checkCommands()
        server.stop()
        return figures
    }
}
