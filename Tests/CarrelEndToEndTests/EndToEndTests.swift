import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// The built `carrel lsp` over pipes, in real temporary folders, as an editor runs it.
final class EndToEndTests: XCTestCase {
    var home: Fixture!

    // XCTest keeps every test case object until the run ends, so a
    // fixture held here is removed only when let go of.
    override func tearDown() { home = nil }

    func spawn(launcher: [String] = []) throws -> ProcessClient {
        home = try Fixture()
        chmod(home.path, 0o777)
        return try ProcessClient(
            environment: [
                "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path,
            ],
            launcher: launcher)
    }

    func testWholeWritingSessionOverStdio() throws {
        let fx = try Fixture()
        let c = try spawn()
        let caps = try c.initialize([fx.uri()])
        XCTAssertEqual(caps["capabilities"]?["workspaceSymbolProvider"], true)
        for type in ["blank", "poetry", "shortStory", "novel", "script"] {
            let r = try c.command(
                "carrel.newProject",
                ["parentUri": .string(fx.uri()), "name": .string("P-\(type)"), "type": .string(type)])
            XCTAssertEqual(r["result"]?["projectType"], .string(type))
        }
        let p = "P-novel"
        XCTAssertEqual(
            try c.command("carrel.newFolder", ["parentUri": .string(fx.uri("\(p)/Chapters")), "name": "Part One"])[
                "result"]?["kind"], "folder")
        XCTAssertEqual(
            try c.command(
                "carrel.newFile", ["parentUri": .string(fx.uri("\(p)/Chapters/Part One")), "name": "Chapter 1"])[
                    "result"]?["name"], "Chapter 1.md")
        try "It was a dark night.".write(
            toFile: fx.path + "/\(p)/Chapters/Part One/Chapter 1.md", atomically: false, encoding: .utf8)
        _ = try c.command(
            "carrel.rename", ["uri": .string(fx.uri("\(p)/Chapters/Part One/Chapter 1.md")), "newName": "Opening.md"])
        _ = try c.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("\(p)/Chapters/Part One")), "destinationUri": .string(fx.uri("\(p)/Set Aside"))])
        c.answer = .title("Delete")
        XCTAssertEqual(
            try c.command("carrel.delete", ["uri": .string(fx.uri("\(p)/Set Aside/Part One"))])["result"]?["inTrash"],
            true)
        XCTAssertEqual(
            try c.command("carrel.restore", ["uri": .string(fx.uri("\(p)/Trash/Part One"))])["result"]?["uri"],
            .string(fx.uri("\(p)/Set Aside/Part One")))
        XCTAssertEqual(fx.read("\(p)/Set Aside/Part One/Opening.md"), "It was a dark night.")
        XCTAssertEqual(
            try c.result("workspace/symbol", ["query": "opening"])[0]?["containerName"],
            "P-novel › Set Aside › Part One")
        _ = try c.command("carrel.setSort", ["uri": .string(fx.uri(p)), "by": "modified", "descending": true])
        c.answer = .null
        _ = try c.command("carrel.delete", ["uri": .string(fx.uri("\(p)/Set Aside/Part One")), "confirmed": true])
        XCTAssertEqual(
            try c.command("carrel.emptyTrash", ["projectUri": .string(fx.uri(p))])["error"]?["data"]?["reason"],
            "cancelled")
        XCTAssertTrue(fx.exists("\(p)/Trash/Part One/Opening.md"))
        c.answer = .title("Delete")
        XCTAssertEqual(try c.command("carrel.emptyTrash", ["projectUri": .string(fx.uri(p))])["result"], ["deleted": 1])
        XCTAssertEqual(try c.request("shutdown")["result"], .null)
        c.notify("exit")
        XCTAssertEqual(c.waitForExit(), 0)
    }

    /// As root (CI), the server runs as `nobody`, so a folder it may not
    /// write gives a real `io`.
    func testEveryErrorReasonOverStdio() throws {
        guard getuid() == 0 else { return try Scenarios.everyErrorReason(try spawn()) }
        let tools = ["/usr/bin/setpriv", "/bin/setpriv"]
        guard let setpriv = tools.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("running as root without setpriv: the io reason cannot be tested")
        }
        let nobody: uid_t = 65534
        try Scenarios.everyErrorReason(
            try spawn(launcher: [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]),
            serverUser: nobody)
    }

    func testConfirmationAnswersOverStdio() throws {
        try Scenarios.confirmationAnswers(try spawn())
    }

    func testHostileWireInputNeverStopsTheServer() throws {
        let fx = try Fixture()
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        c.sendRaw(Array("Content-Length: -4\r\n\r\n".utf8))
        c.sendRaw(Array("Content-Length: banana\r\n\r\n".utf8))
        c.sendRaw(Array("X-Nothing: 1\r\n\r\n".utf8))
        c.sendBody(Array("this is not json".utf8))
        c.sendBody(Array(#"{"jsonrpc":"2.0","id":7,"method":"carrel/tree","params":{"depth":0}"#.utf8))  // truncated
        c.sendBody(Array(#"[{"jsonrpc":"2.0","id":8,"method":"shutdown"}]"#.utf8))
        for id in ["true", "null", "1.5", "[1]", #"{"a":1}"#] {
            c.sendBody(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"carrel/tree"}"#.utf8))
        }
        c.sendBody(Array(#"{"jsonrpc":"2.0","id":"s","method":"carrel/tree","params":{"depth":0}}"#.utf8))
        let ok = try c.response(id: RequestID.string("s"))
        XCTAssertNotNil(ok["result"]?[0])
        let errors = c.inbox.pending.filter { $0["error"] != nil }
        XCTAssertEqual(
            errors.map { $0["error"]!["code"]!.intValue! },
            [-32700, -32700, -32600, -32600, -32600, -32600, -32600, -32600])
        XCTAssertTrue(errors.allSatisfy { $0["id"] == .null })
        // A body over 64 MiB is skipped, and the next message is still read.
        let huge = 64 << 20 + 1
        c.sendRaw(Array("Content-Length: \(huge)\r\n\r\n".utf8))
        c.sendRaw([UInt8](repeating: 0x20, count: huge))
        XCTAssertNotNil(try c.request("carrel/tree", ["depth": 0])["result"])
        XCTAssertTrue(c.process.isRunning)
    }

    func testTenThousandPipelinedRequestsAreAllAnswered() throws {
        let fx = try Fixture("a.md")
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        var bytes: [UInt8] = []
        for i in 0..<10_000 {
            bytes += MessageFramer.frame(
                Array(#"{"jsonrpc":"2.0","id":\#(1000 + i),"method":"carrel/tree","params":{"depth":0}}"#.utf8))
        }
        c.sendRaw(bytes)
        for i in 0..<10_000 { XCTAssertNotNil(try c.response(id: JSONValue.int(1000 + i), timeout: 60)["result"]) }
    }

    func testExitWithoutShutdownIsOneAndClosedInputEnds() throws {
        let c = try spawn()
        c.notify("exit")
        XCTAssertEqual(c.waitForExit(), 1)
        let d = try spawn()
        d.closeInput()
        XCTAssertEqual(d.waitForExit(), 1)
    }

    func testTwoServersRacingForOneNameNeverClobber() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"blank"}
            P/mine.md = mine
            P/yours.md = yours
            """)
        let a = try spawn()
        let b = try spawn()
        _ = try a.initialize([fx.uri()])
        _ = try b.initialize([fx.uri()])
        for round in 0..<20 {
            let target = "taken-\(round).md"
            a.send([
                "jsonrpc": "2.0", "id": .int(5000 + round), "method": "workspace/executeCommand",
                "params": [
                    "command": "carrel.rename",
                    "arguments": [["uri": .string(fx.uri("P/mine.md")), "newName": .string(target)]],
                ],
            ])
            b.send([
                "jsonrpc": "2.0", "id": .int(5000 + round), "method": "workspace/executeCommand",
                "params": [
                    "command": "carrel.rename",
                    "arguments": [["uri": .string(fx.uri("P/yours.md")), "newName": .string(target)]],
                ],
            ])
            let ra = try a.response(id: JSONValue.int(5000 + round))
            let rb = try b.response(id: JSONValue.int(5000 + round))
            let winners = [ra, rb].filter { $0["result"] != nil }.count
            XCTAssertEqual(winners, 1, "exactly one rename wins round \(round)")
            for r in [ra, rb] where r["error"] != nil {
                XCTAssertTrue(
                    ["nameTaken", "conflict"].contains(r["error"]?["data"]?["reason"]?.stringValue ?? ""), "\(r)")
            }
            let names = Set(fx.listing("P"))
            XCTAssertEqual(names.count, 3, "\(names)")  // Trash/ plus both files, one renamed
            let texts = Set(names.filter { !$0.hasSuffix("/") }.compactMap { fx.read("P/" + $0) })
            XCTAssertEqual(texts, ["mine", "yours"])
            // Put both back for the next round, by hand.
            for n in names where n.hasPrefix("taken") {
                let back = fx.read("P/" + n) == "mine" ? "mine.md" : "yours.md"
                XCTAssertEqual(rename(fx.path + "/P/" + n, fx.path + "/P/" + back), 0)
            }
            // Both servers learn of the hand-made renames from the watcher before the next round.
            for server in [a, b] {
                for name in ["mine.md", "yours.md"] {
                    let deadline = Date().addingTimeInterval(5)
                    while try server.request("carrel/tree", ["uri": .string(fx.uri("P/" + name)), "depth": 0])["result"]
                        == nil
                    {
                        XCTAssertLessThan(Date(), deadline, "the watcher never saw \(name) come back")
                        usleep(20_000)
                    }
                }
            }
        }
    }

    func testASecondServerNeverDropsTheFirstServersTrashRecords() throws {
        var tree = "P/.carrel/project.json = {\"type\":\"poetry\"}\n"
        for i in 0..<30 { tree += "P/Draft/poem \(i).md = \(i)\n" }
        let fx = try Fixture(tree)
        let writer = try spawn()
        let watcher = try spawn()  // sees every project.json change and repairs on reload
        _ = try writer.initialize([fx.uri()])
        _ = try watcher.initialize([fx.uri()])
        for i in 0..<30 {
            XCTAssertNotNil(
                try writer.command(
                    "carrel.delete", ["uri": .string(fx.uri("P/Draft/poem \(i).md")), "confirmed": true])["result"])
        }
        _ = try watcher.request("carrel/tree", ["depth": 0])
        usleep(300_000)  // let the watcher's reloads (and any repair) run
        for i in 0..<30 {
            let r = try writer.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/poem \(i).md"))])
            XCTAssertEqual(
                r["result"]?["uri"], .string(fx.uri("P/Draft/poem \(i).md")), "poem \(i) lost its Trash record")
        }
    }

    func testCLIAndHelp() throws {
        let fx = try Fixture()
        func run(_ args: [String]) -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: ProcessClient.binary)
            p.arguments = args
            p.currentDirectoryURL = URL(fileURLWithPath: fx.path)
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try? p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        XCTAssertEqual(run(["init", "Poems", "--type", "poetry"]).0, 0)
        XCTAssertTrue(fx.exists("Poems/Draft"))
        XCTAssertEqual(run(["new-file", "Poems/Draft", "Ode"]).0, 0)
        let tree = run(["tree"]).1
        XCTAssertTrue(tree.contains("── Draft  1 file · 0 words\n"), tree)
        XCTAssertTrue(tree.contains("── All  1 file · 0 words\n"), tree)
        XCTAssertTrue(run(["tree", "--json"]).1.hasPrefix("[{"))
        let (code, text) = run(["rename", "Poems/Draft", "X"])
        XCTAssertEqual(code, 1)
        XCTAssertTrue(text.contains("permanent folder"), text)
        XCTAssertEqual(run(["rm", "Poems/Draft/Ode.md"]).0, 0)
        XCTAssertEqual(run(["empty-trash", "Poems"]).0, 1, "no terminal and no --yes: refused")
        XCTAssertTrue(fx.exists("Poems/Trash/Ode.md"))
        XCTAssertEqual(run(["empty-trash", "Poems", "--yes"]).0, 0)
        XCTAssertFalse(fx.exists("Poems/Trash/Ode.md"))
        XCTAssertTrue(run(["--help"]).1.contains("SUBCOMMANDS"))
        for sub in ["lsp", "init", "tree", "new-folder", "new-file", "rename", "mv", "rm", "restore", "empty-trash"] {
            XCTAssertTrue(run(["help", sub]).1.contains("USAGE: carrel \(sub)"), sub)
        }
    }
}
