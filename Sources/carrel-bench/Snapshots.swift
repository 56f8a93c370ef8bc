import CCarrelSys
import CarrelClient
import CarrelJSON
import Foundation
import Glibc

/// `carrel-bench --snapshots`: a snapshot of a 20,000-word chapter, and
/// comparing it with the chapter after an edit of about a tenth of its
/// words, over the real server, beside the disk floor of the snapshot:
/// what durability alone costs.
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
        // The snapshot and its disk floor in turns, so the disk's mood,
        // which drifts on a shared machine, falls on both alike.
        let floor = SnapshotDiskFloor(Array(text.utf8), in: base + "/snapshot-floor")
        var taken: [Double] = []
        var floors: [Double] = []
        for _ in 0..<iterations(100) {
            taken += measure(1) { _ in server.commandUnparsed("carrel.snapshot", ["uri": file]) }
            floors += measure(1) { _ in floor.write() }
        }
        server.checkCommands()
        figures.append(Figure(name: "carrel.snapshot, 20,000 words", samples: taken))
        figures.append(Figure(name: "disk floor of a snapshot", samples: floors))
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

/// The disk's share of a snapshot, made directly: the chapter's bytes
/// written to a new temporary (`O_EXCL`) and fsynced, renamed no-replace to
/// a name of its own, and the folder fsynced, all a durable snapshot needs.
/// The folder fills as a file's snapshot folder does.
final class SnapshotDiskFloor {
    let bytes: [UInt8]
    let dir: Int32
    var written = 0

    init(_ bytes: [UInt8], in path: String) {
        self.bytes = bytes
        mkdir(path, 0o755)
        dir = open(path, O_RDONLY | O_DIRECTORY)
    }

    deinit { close(dir) }

    func write() {
        written += 1
        let fd = openat(dir, ".tmp-\(written)", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
        fsync(fd)
        close(fd)
        _ = carrel_rename_noreplace(dir, ".tmp-\(written)", dir, "snapshot \(written).md")
        _ = carrel_fsync_dir(dir)
    }
}
