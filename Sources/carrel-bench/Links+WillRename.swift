import CarrelClient
import CarrelJSON
import Foundation
import Glibc

/// `carrel-bench --links --will-rename [--versus PATH]`: only
/// `workspace/willRenameFiles` for the character, on the links library,
/// with a second server (`--versus`) timed in turns with the first on the
/// same library in the same minutes, so a shared machine's load falls on
/// both alike. Each server is started from cold and asked once for the
/// character's references (which completes its index) and once, untimed,
/// for the edits, before any is timed.
extension LinksBenchmark {
    static let willRenameTurn = 10

    static func willRename(binaries: [String], base: String, scale: Double) -> [Figure] {
        let root = base + "/Links"
        let project = root + "/Book"
        FileHandle.standardError.write(Data("carrel-bench: generating the links library…\n".utf8))
        make(root)
        sync()
        let rootURI = uri(root)
        let ada = uri(project + "/Characters/Ada.md")
        let servers = binaries.enumerated().map { (i, binary) in
            let state = base + "/will-rename-state-\(i)"
            let s = try! BenchClient(
                binary: binary, environment: ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state, "HOME": state])
            s.send(Initialize(folders: [rootURI], name: "Links"))
            s.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
            s.send(Tree(depth: 1))
            _ = s.wait { m in
                m["method"] == "carrel/didChange"
                    && (m["params"]?["changes"]?.arrayValue ?? []).contains {
                        $0["type"] == "changed" && $0["uri"]?.stringValue == rootURI
                    }
            }
            _ = s.request(
                "textDocument/references",
                [
                    "textDocument": ["uri": .string(ada)], "position": ["line": 0, "character": 0],
                    "context": ["includeDeclaration": false],
                ])
            return s
        }
        let params: JSONValue = [
            "files": [["oldUri": .string(ada), "newUri": .string(uri(project + "/Characters/X.md"))]]
        ]
        // The first builds the wikilink table (100,000 names), which no
        // earlier request needed here; the full run's renames build it before.
        for server in servers { _ = server.requestUnparsed("workspace/willRenameFiles", params) }
        var samples = Array(repeating: [Double](), count: servers.count)
        var replies = Array(repeating: [UInt8](), count: servers.count)
        let total = max(willRenameTurn, Int(1000 * scale))
        var done = 0
        while done < total {
            for (i, server) in servers.enumerated() {
                samples[i] += measure(willRenameTurn) { _ in
                    replies[i] = server.requestUnparsed("workspace/willRenameFiles", params)
                }
            }
            done += willRenameTurn
        }
        // The reply's body, past its id, is the answer itself: the same from each server.
        let answers = replies.map { bytes -> [UInt8] in
            guard let r = bytes.firstRange(of: Array(#""result""#.utf8)) else { return bytes }
            return Array(bytes[r.lowerBound...])
        }
        for server in servers { server.stop() }
        return binaries.enumerated().map { (i, binary) in
            let slowest = samples[i].indices.sorted { samples[i][$0] > samples[i][$1] }.prefix(3)
            return Figure(
                name: "workspace/willRenameFiles, one file (\(URL(fileURLWithPath: binary).lastPathComponent))",
                samples: samples[i],
                extra: [
                    "slowest at": .string(slowest.map(String.init).joined(separator: ",")),
                    "same answer as the first": .bool(answers[i] == answers[0]),
                    "reply bytes": .int(replies[i].count),
                ])
        }
    }
}
