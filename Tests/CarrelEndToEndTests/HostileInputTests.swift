import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Hostile and malformed input, sent to the real binary over
/// pipes. Each table row names the input and the exact `reason` (or the safe
/// outcome), and every refusal is checked to have changed nothing on disk.
/// Where a row is already covered elsewhere, Tests/Robustness/REPORT.md says where.
final class HostileInputTests: XCTestCase {
    var home: Fixture!

    // XCTest keeps every test case object until the run ends, so a
    // fixture held here is removed only when let go of.
    override func tearDown() { home = nil }

    func spawn(launcher: [String] = []) throws -> ProcessClient {
        if home == nil { home = try Fixture() }
        chmod(home.path, 0o777)
        return try ProcessClient(
            environment: [
                "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path,
            ],
            launcher: launcher)
    }

    func reason(_ r: JSONValue) -> String? { r["error"]?["data"]?["reason"]?.stringValue }

    // MARK: Paths and URIs

    func testURIsOutsideOrMalformedAreRefusedAndChangeNothing() throws {
        let fx = try Fixture(
            """
            lib/P/.carrel/project.json = {"type":"poetry"}
            lib/P/Draft/a.md = a
            lib2/x.md = sibling
            outside/secret.md = keep
            """)
        let c = try spawn()
        _ = try c.initialize([fx.uri("lib")])
        let before = snapshot(fx.path)
        let inside = fx.uri("lib/P/Draft/a.md")
        let rows: [(String, String)] = [
            ("outside every workspace folder", "file:///etc/passwd"),
            ("another folder of the same parent", fx.uri("outside/secret.md")),
            ("a sibling whose name starts like the library's", fx.uri("lib2/x.md")),
            ("a literal .. segment", fx.uri("lib/P/Draft") + "/../../../outside/secret.md"),
            ("a literal . segment", fx.uri("lib/P") + "/./Draft/a.md"),
            ("a trailing ..", fx.uri("lib/P/Draft") + "/.."),
            ("%2e%2e", fx.uri("lib/P/Draft") + "/%2e%2e/%2e%2e/%2e%2e/outside/secret.md"),
            ("%2E%2E upper case", fx.uri("lib/P/Draft") + "/%2E%2E/Draft/a.md"),
            ("half-encoded .%2e", fx.uri("lib/P/Draft") + "/.%2e/Draft/a.md"),
            ("%2e alone", fx.uri("lib/P") + "/%2e/Draft/a.md"),
            ("a relative path", "lib/P/Draft/a.md"),
            ("a bare absolute path", fx.path + "/lib/P/Draft/a.md"),
            ("file: without //", "file:" + fx.path + "/lib/P/Draft/a.md"),
            ("http:", "http://localhost" + fx.path + "/lib/P/Draft/a.md"),
            ("https:", "https://example.com/a.md"),
            ("untitled:", "untitled:Untitled-1"),
            ("a remote host", "file://example.com" + fx.path + "/lib/P/Draft/a.md"),
            (
                "control bytes posing as :// (found by fuzzing)",
                "file\u{1A}\u{0F}\u{0F}" + fx.path + "/lib/P/Draft/a.md"
            ),
            ("a query", inside + "?x=1"),
            ("a fragment", inside + "#L1"),
            ("%00", fx.uri("lib/P/Draft") + "/a.md%00.txt"),
            ("a raw NUL", inside + "\u{0}"),
            ("%2F inside a name", fx.uri("lib/P") + "/Draft%2Fa.md"),
            ("a bad escape", fx.uri("lib/P/Draft") + "/%zz"),
            ("an empty string", ""),
        ]
        for (what, uri) in rows {
            let u = JSONValue.string(uri)
            XCTAssertEqual(
                reason(try c.command("carrel.rename", ["uri": u, "newName": "z.md"])), "outsideWorkspace",
                "rename: \(what)")
            XCTAssertEqual(
                reason(try c.command("carrel.newFile", ["parentUri": u, "name": "z"])), "outsideWorkspace",
                "newFile: \(what)")
            XCTAssertEqual(
                reason(try c.command("carrel.moveTo", ["uri": .string(inside), "destinationUri": u])),
                "outsideWorkspace", "moveTo: \(what)")
            XCTAssertEqual(
                reason(try c.command("carrel.delete", ["uri": u, "confirmed": true])), "outsideWorkspace",
                "delete: \(what)")
            XCTAssertEqual(
                reason(try c.request("carrel/tree", ["uri": u, "depth": 0])), "outsideWorkspace", "carrel/tree: \(what)"
            )
        }
        XCTAssertEqual(snapshot(fx.path), before, "no refused URI changed anything")
        XCTAssertTrue(c.process.isRunning)
    }

    // MARK: Links

    func testSymlinksAreShownNeverFollowedAndLoopsTerminate() throws {
        let outside = try Fixture("secret.md = keep\nsub/deeper.md = keep too")
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"blank"}
            P/real/x.md = x
            P/out -> \(outside.path)
            P/file-link -> \(outside.path)/secret.md
            P/loop -> loop
            P/up -> ..
            P/ping -> pong
            P/pong -> ping
            P/dangling -> /nonexistent/nowhere
            """)
        let outsideBefore = snapshot(outside.path)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])  // the scan of loops terminates
        let project = try c.result("carrel/tree", ["uri": .string(fx.uri("P"))])[0]!
        var links: [String: JSONValue] = [:]
        var stack = [project]
        while let n = stack.popLast() {
            if n["link"] == true { links[n["name"]!.stringValue!] = n }
            stack += n["children"]?.arrayValue ?? []
        }
        XCTAssertEqual(
            Set(links.keys), ["out", "file-link", "loop", "up", "ping", "pong", "dangling"], "every link is shown")
        for (name, node) in links {
            XCTAssertEqual(node["hasChildren"], false, "\(name) is never entered")
            XCTAssertEqual(node["children"]?.arrayValue?.count ?? 0, 0, "\(name) is never entered")
        }
        let rows: [(String, String, JSONValue)] = [
            (
                "a new file in a linked folder", "carrel.newFile",
                ["parentUri": .string(fx.uri("P/out")), "name": "planted"]
            ),
            (
                "a new folder in a linked folder", "carrel.newFolder",
                ["parentUri": .string(fx.uri("P/out")), "name": "planted"]
            ),
            (
                "a new file through a link loop", "carrel.newFile",
                ["parentUri": .string(fx.uri("P/up")), "name": "planted"]
            ),
            (
                "renaming a file behind a link", "carrel.rename",
                ["uri": .string(fx.uri("P/out/secret.md")), "newName": "gone.md"]
            ),
            (
                "moving a file out from behind a link", "carrel.moveTo",
                ["uri": .string(fx.uri("P/out/secret.md")), "destinationUri": .string(fx.uri("P/real"))]
            ),
            (
                "moving a file in behind a link", "carrel.moveTo",
                ["uri": .string(fx.uri("P/real/x.md")), "destinationUri": .string(fx.uri("P/out"))]
            ),
            (
                "moving into a folder two links deep", "carrel.moveTo",
                ["uri": .string(fx.uri("P/real/x.md")), "destinationUri": .string(fx.uri("P/out/sub"))]
            ),
            (
                "deleting a file behind a link", "carrel.delete",
                ["uri": .string(fx.uri("P/out/secret.md")), "confirmed": true]
            ),
            (
                "deleting a folder behind a link", "carrel.delete",
                ["uri": .string(fx.uri("P/out/sub")), "confirmed": true]
            ),
        ]
        for (what, command, args) in rows {
            XCTAssertEqual(reason(try c.command(command, args)), "outsideWorkspace", what)
        }
        XCTAssertEqual(snapshot(outside.path), outsideBefore, "nothing outside was created, moved or deleted")
        XCTAssertEqual(fx.read("P/real/x.md"), "x")
        // The links themselves are items: they can be renamed, trashed and
        // deleted for good, and their targets never notice.
        XCTAssertNotNil(
            try c.command("carrel.rename", ["uri": .string(fx.uri("P/out")), "newName": "renamed"])["result"])
        for name in ["renamed", "file-link", "up", "loop", "dangling"] {
            XCTAssertEqual(
                try c.command("carrel.delete", ["uri": .string(fx.uri("P/" + name)), "confirmed": true])["result"]?[
                    "inTrash"], true, name)
        }
        XCTAssertEqual(
            try c.command("carrel.emptyTrash", ["projectUri": .string(fx.uri("P")), "confirmed": true])["result"],
            ["deleted": 5])
        XCTAssertEqual(
            snapshot(outside.path), outsideBefore, "emptying a Trash of links deletes the links, not what they point at"
        )
        XCTAssertEqual(fx.read("P/real/x.md"), "x", "the link to .. did not take the project with it")
        XCTAssertTrue(fx.exists("P/.carrel/project.json"))
    }

    // MARK: Names

    func testNamesTable() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Caf\u{E9}.md = nfc
            P/Draft/Spring.md = s
            """)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let draft = JSONValue.string(fx.uri("P/Draft"))
        let refused: [(String, String, String)] = [
            ("a slash", "a/b", "invalidName"),
            ("NUL", "a\u{0}b", "invalidName"),
            ("a newline", "a\nb", "invalidName"),
            ("a carriage return", "a\rb", "invalidName"),
            ("a tab inside", "a\tb", "invalidName"),
            ("an escape sequence", "\u{1B}[31mred", "invalidName"),
            ("DEL", "a\u{7F}", "invalidName"),
            ("a C1 control", "a\u{85}b", "invalidName"),
            ("empty", "", "invalidName"),
            ("spaces only", "    ", "invalidName"),
            ("whitespace of every kind", " \t\n\u{A0}\u{3000} ", "invalidName"),
            (".", ".", "invalidName"),
            ("..", "..", "invalidName"),
            (".carrel", ".carrel", "invalidName"),
            (".carrel padded", "  .carrel  ", "invalidName"),
            ("hidden", ".secret", "invalidName"),
            ("256 bytes", String(repeating: "a", count: 256), "invalidName"),
            ("256 bytes of é", String(repeating: "é", count: 128), "invalidName"),
            ("NFD spelling of an NFC name", "Cafe\u{301}.md", "nameTaken"),
            ("upper case of an existing name", "SPRING.MD", "nameTaken"),
            ("upper case and NFD together", "CAFE\u{301}.MD", "nameTaken"),
        ]
        let before = snapshot(fx.path)
        for (what, name, expected) in refused {
            XCTAssertEqual(
                reason(try c.command("carrel.newFolder", ["parentUri": draft, "name": .string(name)])), expected,
                "newFolder: \(what)")
            XCTAssertEqual(
                reason(
                    try c.command(
                        "carrel.rename", ["uri": .string(fx.uri("P/Draft/Spring.md")), "newName": .string(name)])),
                name.uppercased() == "SPRING.MD" ? nil : expected, "rename: \(what)")
            if name.uppercased() == "SPRING.MD" {  // that one is a case-only rename of itself: put it back
                _ = try c.command(
                    "carrel.rename", ["uri": .string(fx.uri("P/Draft/SPRING.MD")), "newName": "Spring.md"])
            }
        }
        XCTAssertEqual(snapshot(fx.path), before, "refused names changed nothing")
        // 255 bytes is the limit, counted after the default extension.
        let accepted: [(String, String, String, String)] = [
            ("255 bytes", "carrel.newFolder", String(repeating: "b", count: 255), String(repeating: "b", count: 255)),
            (
                "254 bytes of é", "carrel.newFolder", String(repeating: "é", count: 127),
                String(repeating: "é", count: 127)
            ),
            (
                "252 + .md = 255", "carrel.newFile", String(repeating: "c", count: 252),
                String(repeating: "c", count: 252) + ".md"
            ),
            ("right-to-left override, kept as typed", "carrel.newFile", "evil\u{202E}dm.exe", "evil\u{202E}dm.exe"),
            ("trimmed", "carrel.newFolder", "  Act 1 \t", "Act 1"),
            ("NFD where nothing clashes", "carrel.newFile", "Ame\u{301}lie.md", "Ame\u{301}lie.md"),
        ]
        for (what, command, name, onDisk) in accepted {
            let r = try c.command(command, ["parentUri": draft, "name": .string(name)])
            XCTAssertEqual(r["result"]?["name"], .string(onDisk), what)
            XCTAssertTrue(fx.exists("P/Draft/" + onDisk), "\(what): exactly these bytes on disk")
        }
        XCTAssertEqual(
            reason(
                try c.command(
                    "carrel.newFile", ["parentUri": draft, "name": .string(String(repeating: "d", count: 253))])),
            "invalidName",
            "253 + .md = 256 bytes")
        // Case-only renames work, and keep the content.
        XCTAssertEqual(
            try c.command("carrel.rename", ["uri": .string(fx.uri("P/Draft/Spring.md")), "newName": "spring.md"])[
                "result"]?["name"], "spring.md")
        XCTAssertEqual(fx.listing("P/Draft").filter { $0.lowercased() == "spring.md" }, ["spring.md"])
        XCTAssertEqual(fx.read("P/Draft/spring.md"), "s")
        XCTAssertNotNil(
            try c.command(
                "carrel.rename", ["uri": .string(fx.uri("P/Draft/Caf\u{E9}.md")), "newName": "CAF\u{C9}.md"])["result"])
        XCTAssertEqual(fx.read("P/Draft/CAF\u{C9}.md"), "nfc")
    }

    // MARK: Files on disk we didn't make

    func testNamesThatAreNotUTF8AreShownWithReplacementAndStillMovable() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Ready/
            """)
        let file = fx.bytes("P/Draft") + [0x2F] + Array("bad".utf8) + [0xFF, 0xFE] + Array(".md".utf8)
        let folder = fx.bytes("P/Draft") + [0x2F] + Array("dir".utf8) + [0xC3]
        XCTAssertEqual(mkdir(fx.path + "/P/Draft", 0o755), 0)
        let fd = (file.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = write(fd, "latin-1 name", 12)
        close(fd)
        XCTAssertEqual(
            (folder.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { mkdir($0.baseAddress!, 0o755) }, 0)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let draft = try c.result("carrel/tree", ["uri": .string(fx.uri("P/Draft")), "depth": 1])[0]!
        let names = draft["children"]!.arrayValue!.map { $0["name"]!.stringValue! }
        XCTAssertEqual(Set(names), ["bad\u{FFFD}\u{FFFD}.md", "dir\u{FFFD}"], "shown with replacement characters")
        let uris = draft["children"]!.arrayValue!.map { $0["uri"]!.stringValue! }
        XCTAssertTrue(uris.contains(FileURI.uri(file)), "the URI keeps the raw bytes: \(uris)")
        let moved = try c.command(
            "carrel.moveTo", ["uri": .string(FileURI.uri(file)), "destinationUri": .string(fx.uri("P/Ready"))])
        XCTAssertEqual(
            moved["result"]?["uri"], .string(FileURI.uri(fx.bytes("P/Ready") + [0x2F] + Array(file.suffix(8)))))
        XCTAssertTrue(
            lexists(fx.bytes("P/Ready") + [0x2F] + Array(file.suffix(8))), "the file moved under its exact bytes")
        XCTAssertFalse(lexists(file))
        XCTAssertEqual(
            try c.command("carrel.rename", ["uri": .string(FileURI.uri(folder)), "newName": "fixed"])["result"]?[
                "name"], "fixed")
        XCTAssertTrue(fx.exists("P/Draft/fixed"))
        XCTAssertEqual(
            try c.command("carrel.delete", ["uri": moved["result"]!["uri"]!, "confirmed": true])["result"]?["inTrash"],
            true)
        XCTAssertNotNil(
            try c.command(
                "carrel.restore", ["uri": .string(FileURI.uri(fx.bytes("P/Trash") + [0x2F] + Array(file.suffix(8))))])[
                    "result"])
        XCTAssertTrue(lexists(fx.bytes("P/Ready") + [0x2F] + Array(file.suffix(8))), "restored where it was")
    }

    func testTwoThousandLevelsDeepScanTreeAndDelete() throws {
        let fx = try Fixture("P/.carrel/project.json = {\"type\":\"blank\"}")
        var rel = "P/deep"
        XCTAssertEqual(mkdir(fx.path + "/" + rel, 0o755), 0)
        for _ in 0..<2000 { rel += "/d"; XCTAssertEqual(mkdir(fx.path + "/" + rel, 0o755), 0) }
        XCTAssertTrue(
            FileManager.default.createFile(atPath: fx.path + "/" + rel + "/leaf.md", contents: Data("bottom".utf8)))
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        // The whole tree is 2,000 levels of JSON: more than this test client's
        // parser takes (256), so it arrives as an unparsable message. What
        // matters is that the server renders it and answers the next request.
        let whole = c.nextID()
        c.send(["jsonrpc": "2.0", "id": .int(whole), "method": "carrel/tree", "params": ["uri": .string(fx.uri("P"))]])
        XCTAssertNotNil(
            try c.request("carrel/tree", ["depth": 0], timeout: 60)["result"], "still answering after the deep tree")
        XCTAssertTrue(c.inbox.pending.contains(.null), "the deep tree was sent")
        // Two thousand folders are read, moved and removed one system call at
        // a time: on a loaded machine that takes more than the usual 10 s,
        // so these bounds say only "answered at all".
        let bottom = try c.request("carrel/tree", ["uri": .string(fx.uri(rel))], timeout: 60)["result"]?[0]
        XCTAssertEqual(bottom?["children"]?[0]?["name"], "leaf.md")
        func delete(_ relative: String) throws -> JSONValue? {
            let arguments: JSONValue = [["uri": .string(fx.uri(relative)), "confirmed": true]]
            let params: JSONValue = ["command": "carrel.delete", "arguments": arguments]
            return try c.request("workspace/executeCommand", params, timeout: 60)["result"]
        }
        XCTAssertEqual(try delete("P/deep")?["inTrash"], true)
        XCTAssertEqual(try delete("P/Trash/deep"), ["deleted": 1])
        XCTAssertEqual(
            fx.listing("P", includeHidden: true),
            [".carrel/", ".carrel/project.json", ".carrel/purge/", ".carrel/trash/", "Trash/"],
            "the record went with its item")
        XCTAssertTrue(c.process.isRunning)
    }

    /// The server runs as `nobody` when the tests run as root, since root reads everything.
    func unprivileged() throws -> [String] {
        if getuid() != 0 { return [] }
        for tool in ["/usr/bin/setpriv", "/bin/setpriv"] where access(tool, X_OK) == 0 {
            return [tool, "--reuid=65534", "--regid=65534", "--clear-groups"]
        }
        throw XCTSkip("running as root without setpriv: permission cases cannot be tested")
    }

    func chownTree(_ path: String, _ uid: uid_t) {
        _ = Fixture.sh("chown -R \(uid):\(uid) '\(path)' && chmod -R u+rwX,go+rX '\(path)'")
    }

    func testUnreadableFolderIsShownAsUnreadable() throws {
        let launcher = try unprivileged()
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/locked/secret.md = s
            P/Draft/open.md = o
            """)
        chmod(fx.path, 0o755)
        if !launcher.isEmpty { chownTree(fx.path, 65534) }
        chmod(fx.path + "/P/Draft/locked", 0)
        defer { _ = Fixture.sh("chmod -R u+rwX '\(fx.path)'") }
        let c = try spawn(launcher: launcher)
        _ = try c.initialize([fx.uri()])
        let draft = try c.result("carrel/tree", ["uri": .string(fx.uri("P/Draft")), "depth": 1])[0]!
        let locked = draft["children"]!.arrayValue!.first { $0["name"] == "locked" }
        XCTAssertEqual(locked?["unreadable"], true)
        XCTAssertEqual(
            reason(try c.command("carrel.newFile", ["parentUri": .string(fx.uri("P/Draft/locked")), "name": "x"])), "io"
        )
        // Renaming it needs only its parent; moving it to another folder
        // needs write access to it (its ".." changes), so that is a clear io error.
        XCTAssertEqual(
            try c.command("carrel.rename", ["uri": .string(fx.uri("P/Draft/locked")), "newName": "still locked"])[
                "result"]?["unreadable"], true)
        let move = try c.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("P/Draft/still locked")), "destinationUri": .string(fx.uri("P/Ready"))])
        XCTAssertEqual(reason(move), "io", move.text())
        XCTAssertTrue(move["error"]?["message"]?.stringValue?.contains("Permission denied") ?? false, move.text())
        XCTAssertTrue(fx.exists("P/Draft/still locked"))
        XCTAssertNotNil(
            try c.command("carrel.rename", ["uri": .string(fx.uri("P/Draft/open.md")), "newName": "still works.md"])[
                "result"])
        XCTAssertTrue(c.process.isRunning)
    }

    let readOnlySnapshot = "2026-01-01T00-00-00.000Z 00000000-00000001 1w.md"

    func testReadOnlyLibraryGivesEveryCommandAClearError() throws {
        let launcher = try unprivileged()
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","trash":{"t.md":{"from":"Draft/t.md","deleted":1}}}
            P/Draft/a.md = a
            P/Draft/F/
            P/Draft/u.md = u
            P/Draft/w.md = w
            P/Ready/r.md = r
            P/Trash/t.md = t
            P/.carrel/snapshots/Draft/a.md/2026-01-01T00-00-00.000Z 00000000-00000001 1w.md = s
            P/Magazines/G/
            P/Magazines/H/
            P/.carrel/submissions/1-a.json = {"id":"1-a","sent":"2026-11-20","market":{"changed":1,"value":{"path":"Magazines/G","name":"G"}},"pieces":{"1":{"path":"Draft/a.md","status":{"changed":1,"value":{"status":"accepted","day":"2026-11-20"}}}}}
            P/.carrel/submissions/2-b.json = {"id":"2-b","sent":"2026-11-20","market":{"changed":1,"value":{"path":"Magazines/H","name":"H"}},"pieces":{"1":{"path":"Draft/a.md","status":{"changed":1,"value":{"status":"pending","day":"2026-11-20"}}}}}
            Plain/b.md = b
            """)
        // A step to undo and one to redo, journaled on this device before
        // the library became read-only: each is then refused by the disk.
        if home == nil { home = try Fixture() }
        let cli = ["XDG_STATE_HOME": home.path + "/state"]
        let runner = try CLIRunner()
        for args in [["rename", "P/Draft/u.md", "v.md"], ["rename", "P/Draft/w.md", "x.md"], ["undo"]] {
            XCTAssertEqual(runner.run(args, in: fx.path, environment: cli).status, 0, "\(args)")
        }
        _ = Fixture.sh("chmod -R a+rwX '\(home.path)/state'")
        chmod(fx.path, 0o755)
        if launcher.isEmpty {
            _ = Fixture.sh("chmod -R a-w '\(fx.path)'")
        } else {
            _ = Fixture.sh("chmod -R go+rX,go-w '\(fx.path)'")  // owned by root: nobody may read, not write
        }
        defer { _ = Fixture.sh("chmod -R u+w '\(fx.path)'") }
        let before = snapshot(fx.path)
        let c = try spawn(launcher: launcher)
        _ = try c.initialize([fx.uri()])
        let u = { (rel: String) -> JSONValue in .string(fx.uri(rel)) }
        let rows: [(String, JSONValue)] = [
            ("carrel.newProject", ["parentUri": u(""), "name": "New", "type": "poetry"]),
            ("carrel.newFolder", ["parentUri": u("P/Draft"), "name": "G"]),
            ("carrel.newFile", ["parentUri": u("P/Draft"), "name": "n"]),
            ("carrel.rename", ["uri": u("P/Draft/a.md"), "newName": "b.md"]),
            ("carrel.moveTo", ["uri": u("P/Draft/a.md"), "destinationUri": u("P/Draft/F")]),
            ("carrel.delete", ["uri": u("P/Draft/a.md"), "confirmed": true]),
            ("carrel.delete", ["uri": u("P/Trash/t.md"), "confirmed": true]),
            ("carrel.restore", ["uri": u("P/Trash/t.md")]),
            ("carrel.emptyTrash", ["projectUri": u("P"), "confirmed": true]),
            ("carrel.setSort", ["uri": u("P"), "by": "modified"]),
            ("carrel.setConfirmDelete", ["uri": u("P"), "confirm": false]),
            ("carrel.setLinkUpdates", ["uri": u("P"), "mode": "never"]),
            ("carrel.reorder", ["uri": u("P/Draft/a.md"), "before": u("P/Draft/F")]),
            ("carrel.setTarget", ["uri": u("P/Draft/a.md"), "words": 500]),
            ("carrel.duplicate", ["uri": u("P/Draft/a.md")]),
            ("carrel.setCompileIncluded", ["uri": u("P/Draft/a.md"), "included": false]),
            ("carrel.undo", ["library": u("P")]),
            ("carrel.redo", [:]),
            ("carrel.compile", ["projectUri": u("P"), "format": "markdown"]),
            ("carrel.setByline", ["projectUri": u("P"), "author": "Ada"]),
            ("carrel.setMarket", ["uri": u("P/Magazines/G"), "fields": ["fee": "£3"]]),
            ("carrel.submit", ["items": [u("P/Draft/a.md")], "marketUri": u("P/Magazines/G")]),
            ("carrel.setSubmissionStatus", ["record": "2-b", "status": "rejected"]),
            ("carrel.withdrawOthers", ["record": "1-a"]),
            ("carrel.newFile", ["parentUri": u("Plain"), "name": "n"]),
            ("carrel.rename", ["uri": u("Plain/b.md"), "newName": "c.md"]),
            ("carrel.snapshot", ["uri": u("P/Draft/a.md")]),
            ("carrel.rollBack", ["uri": u("P/Draft/a.md"), "snapshot": .string(readOnlySnapshot)]),
            ("carrel.snapshots", ["uri": u("P/Draft/a.md")]),
            ("carrel.compareSnapshot", ["uri": u("P/Draft/a.md"), "snapshot": .string(readOnlySnapshot)]),
        ]
        // Reading snapshots writes nothing, so a read-only library answers them.
        let reads: Set<String> = ["carrel.snapshots", "carrel.compareSnapshot"]
        XCTAssertEqual(
            Set(rows.map(\.0)), Set(InitializeRequest.commands), "every command is tried on a read-only library")
        for (command, args) in rows {
            let r = try c.command(command, args)
            if reads.contains(command) {
                XCTAssertNotNil(r["result"], "\(command) \(r.text())")
                continue
            }
            XCTAssertEqual(reason(r), "io", "\(command) \(args.text())")
            XCTAssertTrue(
                r["error"]?["message"]?.stringValue?.contains("Permission denied") ?? false, "\(command): \(r.text())")
        }
        // Outside projects a delete goes to the system trash, which is
        // writable; the library is not, so the move is refused all the same.
        XCTAssertEqual(reason(try c.command("carrel.delete", ["uri": u("Plain/b.md"), "confirmed": true])), "io")
        XCTAssertEqual(snapshot(fx.path), before, "a read-only library is left exactly as it was")
    }

    func testFullDiskLeavesNothingHalfWritten() throws {
        let mountPoint = try Fixture()
        guard getuid() == 0,
            Fixture.sh("mount -t tmpfs -o size=256k,nr_inodes=64 carrel-enospc '\(mountPoint.path)' 2>/dev/null") == 0
        else {
            throw XCTSkip("cannot mount a small tmpfs here (needs root): ENOSPC is not tested")
        }
        defer { _ = Fixture.sh("umount '\(mountPoint.path)'") }
        let lib = mountPoint.path
        let setup = """
            mkdir -p '\(lib)/P/.carrel' '\(lib)/P/Draft' '\(lib)/P/Trash' &&
            printf '{"type":"blank","future":1}' > '\(lib)/P/.carrel/project.json' &&
            printf 'keep me' > '\(lib)/P/Draft/a.md' &&
            { dd if=/dev/zero of='\(lib)/.filler' bs=4k 2>/dev/null; true; } &&
            i=0; while [ $i -lt 100000 ] && touch '\(lib)/.inode-'$i 2>/dev/null; do i=$((i+1)); done
            """
        XCTAssertEqual(Fixture.sh(setup), 0)
        let c = try spawn()
        _ = try c.initialize([FileURI.uri(Array(lib.utf8))])
        let projectJSON = try String(contentsOfFile: lib + "/P/.carrel/project.json", encoding: .utf8)
        let u = { (rel: String) -> JSONValue in .string(FileURI.uri(Array((lib + "/" + rel).utf8))) }
        let rows: [(String, JSONValue)] = [
            ("carrel.newFile", ["parentUri": u("P/Draft"), "name": "n"]),
            ("carrel.newFolder", ["parentUri": u("P/Draft"), "name": "G"]),
            ("carrel.newProject", ["parentUri": u(""), "name": "Q", "type": "novel"]),
            ("carrel.delete", ["uri": u("P/Draft/a.md"), "confirmed": true]),
            ("carrel.setSort", ["uri": u("P"), "by": "created"]),
        ]
        for (command, args) in rows {
            let r = try c.command(command, args)
            XCTAssertEqual(reason(r), "io", "\(command): \(r.text())")
            XCTAssertTrue(
                r["error"]?["message"]?.stringValue?.contains("No space left") ?? false, "\(command): \(r.text())")
        }
        XCTAssertEqual(
            try String(contentsOfFile: lib + "/P/.carrel/project.json", encoding: .utf8), projectJSON,
            "project.json intact")
        XCTAssertEqual(try String(contentsOfFile: lib + "/P/Draft/a.md", encoding: .utf8), "keep me")
        let visible = try FileManager.default.contentsOfDirectory(atPath: lib).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(visible, ["P"], "no half-made project in view")
        let carrelDir = try FileManager.default.contentsOfDirectory(atPath: lib + "/P/.carrel")
        XCTAssertEqual(carrelDir.filter { $0.contains("tmp") }, [], "no temporary project.json left behind")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: lib + "/P/Trash"), [], "nothing half-moved into Trash")
        // Free some space: the same commands now work.
        unlink(lib + "/.filler")
        _ = Fixture.sh("rm -f '\(lib)'/.inode-*")
        XCTAssertNotNil(try c.command("carrel.delete", ["uri": u("P/Draft/a.md"), "confirmed": true])["result"])
        XCTAssertEqual(try String(contentsOfFile: lib + "/P/Trash/a.md", encoding: .utf8), "keep me")
    }

    // MARK: The wire

    func testContentLengthLargerThanTheBytesSentThenEOF() throws {
        let c = try spawn()
        c.sendRaw(Array("Content-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}".utf8))
        c.closeInput()
        XCTAssertEqual(c.waitForExit(timeout: 30), 1, "input ended mid-body: a clean exit 1, no crash")
    }

    func testContentLengthLargerThanTheBytesSentCostsOneMessage() throws {
        let fx = try Fixture()
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        c.sendRaw(Array("Content-Length: 10\r\n\r\n{}".utf8))  // 8 bytes short: eats the next frame's start
        for id in 100..<110 {
            c.send(["jsonrpc": "2.0", "id": .int(id), "method": "carrel/tree", "params": ["depth": 0]])
        }
        for id in 101..<110 {
            XCTAssertNotNil(try c.response(id: JSONValue.int(id))["result"], "request \(id) after the short frame")
        }
        XCTAssertTrue(c.process.isRunning)
    }

    func testIDsOfEveryJSONType() throws {
        let fx = try Fixture()
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let echoed: [JSONValue] = [
            0, -1, .int(Int(Int32.max) + 1), .int(Int.max), .int(Int.min), "", "ü ☃ \u{1F600}", "1",
            .string(String(repeating: "x", count: 10_000)),
        ]
        for id in echoed {
            c.send(["jsonrpc": "2.0", "id": id, "method": "carrel/tree", "params": ["depth": 0]])
            let r = try c.inbox.take("response to id \(id.text().prefix(40))") { $0["id"] == id && $0["method"] == nil }
            XCTAssertNotNil(r["result"], "id \(id.text().prefix(40)) is answered with the same id")
        }
        let refused = ["true", "false", "null", "1.5", "1e400", "-0.5", "[1]", "[]", #"{"a":1}"#, "{}"]
        for id in refused {
            c.sendBody(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"carrel/tree","params":{"depth":0}}"#.utf8))
            let r = try c.inbox.take("error for id \(id)") { $0["error"] != nil }
            XCTAssertEqual(r["error"]?["code"], -32600, "id \(id)")
            XCTAssertEqual(r["id"], .null, "id \(id)")
        }
        XCTAssertTrue(c.process.isRunning)
    }

    func testParamsOfTheWrongTypeAndMissingFieldsNameTheField() throws {
        let fx = try Fixture("P/.carrel/project.json = {\"type\":\"poetry\"}")
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let before = snapshot(fx.path)
        let u = JSONValue.string(fx.uri("P"))
        let full: [String: [String: JSONValue]] = [
            "carrel.newProject": ["parentUri": .string(fx.uri()), "name": "N", "type": "poetry"],
            "carrel.newFolder": ["parentUri": u, "name": "N"],
            "carrel.newFile": ["parentUri": u, "name": "N"],
            "carrel.rename": ["uri": u, "newName": "N"],
            "carrel.moveTo": ["uri": u, "destinationUri": u, "before": u],
            "carrel.delete": ["uri": u, "confirmed": true],
            "carrel.restore": ["uri": u],
            "carrel.emptyTrash": ["projectUri": u, "confirmed": true],
            "carrel.setSort": ["uri": u, "by": "name", "descending": true],
            "carrel.setConfirmDelete": ["uri": u, "confirm": false],
            "carrel.setLinkUpdates": ["uri": u, "mode": "never"],
            "carrel.reorder": ["uri": u, "after": u],
            "carrel.setTarget": ["uri": u, "words": 500],
            "carrel.duplicate": ["uri": u],
            "carrel.setCompileIncluded": ["uri": u, "included": false],
            "carrel.undo": ["library": u],
            "carrel.redo": ["library": u],
            "carrel.compile": ["projectUri": u, "recipe": "manuscript", "format": "markdown", "output": "/tmp/x.md"],
            "carrel.setByline": ["projectUri": u, "author": "Ada", "contact": ["a@x.org"]],
            "carrel.snapshot": ["uri": u, "title": "T"],
            "carrel.snapshots": ["uri": u],
            "carrel.compareSnapshot": ["uri": u, "snapshot": "S", "other": "O"],
            "carrel.rollBack": ["uri": u, "snapshot": "S"],
            "carrel.setMarket": ["uri": u, "fields": ["fee": "£3"]],
            "carrel.submit": ["items": [u], "marketUri": u, "date": "2026-11-20", "packetUri": u, "confirmed": true],
            "carrel.setSubmissionStatus": [
                "record": "r", "piece": "1", "status": "accepted", "date": "d", "note": "n", "fee": "£3",
            ],
            "carrel.withdrawOthers": ["record": "r", "piece": "1"],
        ]
        let optional: Set<String> = [
            "confirmed", "descending", "before", "after", "recipe", "format", "output", "author", "contact",
            "title", "other", "library", "date", "packetUri", "piece", "note", "fee",
        ]
        XCTAssertEqual(Set(full.keys), Set(InitializeRequest.commands), "every command has a row")
        for (command, args) in full {
            for field in args.keys {
                if !optional.contains(field) {
                    var missing = args
                    missing[field] = nil
                    let r = try c.command(command, .object(missing))
                    XCTAssertEqual(r["error"]?["code"], -32602, "\(command) without \(field)")
                    XCTAssertEqual(r["error"]?["data"]?["field"], .string(field), "\(command) without \(field)")
                }
                // 42 is a word target, not a wrong one.
                for wrong: JSONValue in [42, [1], ["x": 1], args[field]!.stringValue != nil ? true : "yes"]
                where !(wrong.intValue != nil && args[field]!.intValue != nil) {
                    var bad = args
                    bad[field] = wrong
                    let r = try c.command(command, .object(bad))
                    XCTAssertEqual(r["error"]?["code"], -32602, "\(command) with \(field) = \(wrong.text())")
                    XCTAssertEqual(
                        r["error"]?["data"]?["field"], .string(field), "\(command) with \(field) = \(wrong.text())")
                }
            }
        }
        let shapes: [(String, JSONValue, String?)] = [
            ("workspace/executeCommand", ["command": "carrel.rename", "arguments": "x"], "arguments"),
            ("workspace/executeCommand", ["command": "carrel.rename", "arguments": [1]], "arguments[0]"),
            ("workspace/executeCommand", ["command": 7], "command"),
            ("workspace/executeCommand", ["command": "rm -rf /"], "command"),
            ("carrel/tree", ["depth": -1], "depth"),
            ("carrel/tree", ["depth": 1.5], "depth"),
            ("carrel/tree", ["uri": 5], "uri"),
            ("carrel/tree", ["uri": "file:///x", "depth": 1, "from": -1], "from"),
            ("carrel/tree", ["uri": "file:///x", "depth": 1, "count": 2.5], "count"),
            ("carrel/tree", ["uri": "file:///x", "depth": 1, "count": 1e300], "count"),
            ("carrel/tree", ["uri": "file:///x", "from": 0], "from"),
            ("carrel/tree", ["depth": 1, "count": 200], "count"),
            ("workspace/symbol", ["query": ["a"]], "query"),
            ("carrel/compileOptions", ["projectUri": 5], "projectUri"),
            ("carrel/compileOptions", [:], "projectUri"),
            ("carrel/market", ["uri": 5], "uri"),
            ("carrel/market", [:], "uri"),
        ]
        for (method, params, field) in shapes {
            let r = try c.request(method, params)
            XCTAssertEqual(r["error"]?["code"], -32602, "\(method) \(params.text())")
            XCTAssertEqual(r["error"]?["data"]?["field"], field.map { .string($0) }, "\(method) \(params.text())")
        }
        for params in [#""text""#, "12", "true"] {
            c.sendBody(
                Array(#"{"jsonrpc":"2.0","id":"p\#(params.count)","method":"carrel/tree","params":\#(params)}"#.utf8))
            XCTAssertEqual(
                try c.response(id: JSONValue.string("p\(params.count)"))["error"]?["code"], -32602, "params \(params)")
        }
        XCTAssertEqual(snapshot(fx.path), before)
    }

    func testCancelForUnknownIDsIsIgnored() throws {
        let fx = try Fixture()
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        for id: JSONValue in [424_242, "never-sent", .null, ["x": 1], 1.5, -1] {
            c.notify("$/cancelRequest", ["id": id])
        }
        c.notify("$/cancelRequest", .null)
        c.notify("$/cancelRequest", [:])
        XCTAssertNotNil(try c.request("carrel/tree", ["depth": 0])["result"])
        XCTAssertTrue(c.inbox.pending.filter { $0["error"] != nil }.isEmpty, "no answer to a notification")
    }

    func testLifecycleOverTheWire() throws {
        let fx = try Fixture("P/.carrel/project.json = {\"type\":\"poetry\"}\nP/Draft/a.md = a")
        let before = snapshot(fx.path)
        let c = try spawn()
        XCTAssertEqual(try c.request("carrel/tree")["error"]?["code"], -32002)
        XCTAssertEqual(
            try c.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true])["error"]?[
                "code"], -32002)
        XCTAssertEqual(try c.request("shutdown")["error"]?["code"], -32002)
        XCTAssertEqual(snapshot(fx.path), before, "nothing ran before initialize")
        _ = try c.initialize([fx.uri()])
        let opened = snapshot(fx.path)  // opening repairs: the template folders are made
        XCTAssertEqual(
            try c.request("initialize", ["capabilities": [:]])["error"]?["code"], -32600, "a second initialize")
        XCTAssertEqual(try c.request("shutdown")["result"], .null)
        XCTAssertEqual(try c.request("carrel/tree")["error"]?["code"], -32600)
        XCTAssertEqual(
            try c.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true])["error"]?[
                "code"], -32600)
        XCTAssertEqual(snapshot(fx.path), opened, "nothing ran after shutdown")
        c.notify("exit")
        XCTAssertEqual(c.waitForExit(), 0, "exit after shutdown is 0")
    }

    // MARK: project.json

    func testProjectFilesCorruptEmptyFutureOrWithUnknownKeys() throws {
        let fx = try Fixture(
            """
            Corrupt/.carrel/project.json = {"type":"poetry",
            Empty/.carrel/project.json
            Array/.carrel/project.json = []
            Sonnet/.carrel/project.json = {"type":"sonnet"}
            Future/.carrel/project.json = {"type":"poetry","version":2,"newIdea":true}
            Known/.carrel/project.json = {"type":"poetry","version":1,"plugin":{"x":[1,2]},"sort":{"by":"name","descending":false,"pinned":["a.md"]},"preferences":{"theme":"dark"},"trash":{}}
            """)
        for p in ["Corrupt", "Empty", "Array", "Sonnet", "Future", "Known"] {
            _ = Fixture.sh("mkdir -p '\(fx.path)/\(p)/Draft' && echo \(p) > '\(fx.path)/\(p)/Draft/a.md'")
        }
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let locked = ["Corrupt": "io", "Empty": "io", "Array": "io", "Sonnet": "io", "Future": "unsupportedVersion"]
        let before = snapshot(fx.path)
        for (project, expected) in locked {
            let shown = try c.result("carrel/tree", ["uri": .string(fx.uri(project)), "depth": 0])[0]
            XCTAssertNotNil(shown, "\(project) is still shown")
            for (command, args) in [
                ("carrel.newFile", ["parentUri": .string(fx.uri(project + "/Draft")), "name": "n"]),
                ("carrel.delete", ["uri": .string(fx.uri(project + "/Draft/a.md")), "confirmed": true]),
                ("carrel.rename", ["uri": .string(fx.uri(project + "/Draft/a.md")), "newName": "b.md"]),
                ("carrel.setSort", ["uri": .string(fx.uri(project)), "by": "modified"]),
            ] as [(String, JSONValue)] {
                XCTAssertEqual(reason(try c.command(command, args)), expected, "\(command) in \(project)")
            }
        }
        XCTAssertEqual(
            snapshot(fx.path).filter { !$0.key.hasPrefix("Known") }, before.filter { !$0.key.hasPrefix("Known") },
            "no unreadable or newer project.json was rewritten")
        _ = try c.command("carrel.setSort", ["uri": .string(fx.uri("Known")), "by": "modified", "descending": true])
        _ = try c.command("carrel.delete", ["uri": .string(fx.uri("Known/Draft/a.md")), "confirmed": true])
        let json = try JSONParser.parse(fx.read("Known/.carrel/project.json")!)
        XCTAssertEqual(json["plugin"], ["x": [1, 2]], "unknown keys are kept")
        XCTAssertEqual(json["preferences"]?["theme"], "dark")
        XCTAssertEqual(json["sort"]?["pinned"], ["a.md"])
        XCTAssertEqual(json["sort"]?["by"]?["value"], "modified")
        XCTAssertEqual(json["sort"]?["descending"]?["value"], true)
        XCTAssertNil(json["trash"], "Trash records are not settings")
        XCTAssertEqual(fx.trashRecords("Known")["a.md"], "Draft/a.md")
    }

    // MARK: Helpers

    func lexists(_ path: [UInt8]) -> Bool {
        var st = stat()
        return (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { lstat($0.baseAddress!, &st) } == 0
    }

    /// Every path below `root` with its bytes (folders map to nil), hidden ones
    /// included, except the flock file, which a refused write may create.
    func snapshot(_ root: String) -> [String: [UInt8]?] {
        var out: [String: [UInt8]?] = [:]
        var stack = [""]
        while let rel = stack.popLast() {
            guard let d = opendir(rel.isEmpty ? root : root + "/" + rel) else { continue }
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." || name == "lock" { continue }
                let child = rel.isEmpty ? name : rel + "/" + name
                var st = stat()
                lstat(root + "/" + child, &st)
                if (st.st_mode & S_IFMT) == S_IFDIR {
                    out[child + "/"] = .some(nil)
                    stack.append(child)
                } else {
                    out[child] = FileManager.default.contents(atPath: root + "/" + child).map { Array($0) }
                }
            }
            closedir(d)
        }
        return out
    }
}
