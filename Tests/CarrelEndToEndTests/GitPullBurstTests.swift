import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import XCTest

/// A `git pull` that moves hundreds of files reaches a running server as a
/// burst of inotify events; clients get it as a few coalesced
/// `carrel/didChange` notifications, not one per file.
final class GitPullBurstTests: XCTestCase {
    var root: Fixture!

    override func tearDown() { root = nil }

    @discardableResult
    func sh(_ script: String, in dir: String) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script + " 2>&1"]
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": root.path,
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
        ]
        let out = Pipe()
        p.standardOutput = out
        try? p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 0, "\(script): \(text)")
        return text
    }

    func testThreeHundredRenamesFromAPullAreAFewNotifications() throws {
        root = try Fixture("origin/\nseed/\n")
        let cli = try CLIRunner()
        let seed = root.path + "/seed"
        XCTAssertEqual(cli.run(["init", seed + "/P", "--type", "Poetry"], in: seed).status, 0)
        sh("for i in $(seq 100 399); do echo \"poem $i\" > P/Draft/p$i.md; done", in: seed)
        sh("git init -q --bare -b main ../origin && git init -q -b main && git add -A && git commit -qm seed", in: seed)
        sh("git push -q ../origin main && cd .. && git clone -q origin a && git clone -q origin b", in: seed)
        let b = root.path + "/b"
        sh(
            "mkdir -p P/Ready && for f in P/Draft/*.md; do git mv \"$f\" P/Ready/; done && git commit -qm moved && git push -q",
            in: root.path + "/a")

        let server = try ProcessClient()
        _ = try server.initialize([FileURI.uri(Array(b.utf8))])
        let ready = JSONValue.string(FileURI.uri(Array((b + "/P/Ready").utf8)))
        let pullStart = Date()
        sh("git pull -q --no-rebase", in: b)
        let pullSeconds = Date().timeIntervalSince(pullStart)
        // Until the server shows all 300 in Ready, then a quiet second for stragglers.
        var notifications = 0
        var shown = 0
        var quietSince = Date()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, shown < 300 || Date().timeIntervalSince(quietSince) < 1.5 {
            if let n = try? server.inbox.take("didChange", timeout: 0.1, { $0["method"] == "carrel/didChange" }) {
                quietSince = Date()
                // Words counted afterwards come as notifications of their own
                // (no changes, or a `changed` on the library when its count
                // is whole again): only those telling of the pull count here.
                let kinds = n["params"]?["changes"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
                if kinds.contains(where: { $0 != "changed" }) { notifications += 1 }
            }
            if shown < 300 {
                let node = try server.result("carrel/tree", ["uri": ready, "depth": 0])[0]
                shown = node?["fileTotal"]?.intValue ?? 0
            }
        }
        XCTAssertEqual(shown, 300, "the server shows every moved file")
        print(
            "300 renames by git pull (\(Int(pullSeconds * 1000)) ms): \(notifications) carrel/didChange notification(s)"
        )
        XCTAssertGreaterThan(notifications, 0)
        // The first batch at once, the rest when the disk is quiet. On a
        // busy machine git itself stops for more than the quiet now and then,
        // and each such pause may add a held batch and a new first one: one
        // more per 100 ms of pull, still far from one per inotify batch.
        XCTAssertLessThanOrEqual(notifications, 2 + Int(pullSeconds * 10), "coalesced, not one per batch")
    }
}
