import CarrelJSON
import CarrelModel
import CarrelTestSupport
import XCTest

/// What stock clients need from the server, driven in process: question ids
/// that never look like theirs (Vim 9), a question that expires (ALE), string
/// arguments (YouCompleteMe), the harmless action first (eglot).
final class StockClientTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!
    var home: Fixture!

    func start(
        _ tree: String, locale: String = "en", options: JSONValue = .null, capabilities: JSONValue = .object([:])
    ) throws {
        home = try Fixture()
        setenv("XDG_DATA_HOME", home.path + "/data", 1)
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        fx = try Fixture(tree)
        client = InProcessClient()
        _ = try client.result(
            "initialize",
            [
                "capabilities": capabilities, "locale": .string(locale), "initializationOptions": options,
                "workspaceFolders": [["uri": .string(fx.uri()), "name": "Writing"]],
            ])
        client.notify("initialized")
    }

    override func tearDown() {
        unsetenv("XDG_DATA_HOME")
        unsetenv("XDG_STATE_HOME")
        client = nil
        fx = nil
        home = nil
    }

    let twoFiles = """
        P/.carrel/project.json = {"type":"blank"}
        P/a.md = a
        P/b.md = b
        """

    func sendDelete(id: Int, _ rel: String) {
        client.send([
            "jsonrpc": "2.0", "id": .int(id), "method": "workspace/executeCommand",
            "params": ["command": "carrel.delete", "arguments": [["uri": .string(fx.uri(rel))]]],
        ])
    }

    func question() throws -> JSONValue {
        try client.inbox.take("a confirmation") { $0["method"] == "window/showMessageRequest" }
    }

    func testQuestionIdsNeverCollideWithTheClientsOwn() throws {
        try start(twoFiles)
        // Small ids, like every client's, and one the server's counter reaches.
        sendDelete(id: 1, "P/a.md")
        sendDelete(id: 1_000_001, "P/b.md")
        let first = try question()
        let second = try question()
        let ids = [first, second].compactMap { $0["id"]?.intValue }
        XCTAssertEqual(ids.count, 2, "integer ids: Vim 9.0 cannot answer a string id")
        XCTAssertTrue(ids.allSatisfy { $0 >= 1_000_000 }, "\(ids): far above the ids clients count from")
        XCTAssertNotEqual(ids[0], ids[1])
        XCTAssertTrue(Set(ids).isDisjoint(with: [1, 1_000_001]), "\(ids): no question shares a pending request's id")
        // Answered in reverse order, each by its own id.
        for q in [second, first] { client.send(["jsonrpc": "2.0", "id": q["id"]!, "result": ["title": "Delete"]]) }
        for id in [1, 1_000_001] {
            XCTAssertEqual(try client.inbox.take("delete \(id)") { $0["id"] == .int(id) }["result"]?["inTrash"], true)
        }
        XCTAssertEqual(fx.listing("P/Trash"), ["a.md", "b.md"])
    }

    func testAQuestionNobodyAnswersExpiresAsCancelled() throws {
        try start(twoFiles, options: ["confirmationTimeout": 0.3])
        sendDelete(id: 7, "P/a.md")
        let q = try question()
        let started = Date()
        let r = try client.inbox.take("the expired delete", timeout: 10) { $0["id"] == 7 }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25, "not before the timeout")
        XCTAssertEqual(r["error"]?["code"], -32803)
        XCTAssertEqual(r["error"]?["data"]?["reason"], "cancelled")
        XCTAssertEqual(
            r["error"]?["message"],
            "Cancelled: the question got no answer within 0.3 seconds, so nothing was deleted.")
        XCTAssertFalse(fx.exists("P/Trash/a.md"))
        let withdrawn = try client.inbox.take("$/cancelRequest for the question") { $0["method"] == "$/cancelRequest" }
        XCTAssertEqual(withdrawn["params"]?["id"], q["id"])
        XCTAssertNil(withdrawn["id"], "a notification")
        client.send(["jsonrpc": "2.0", "id": q["id"]!, "result": ["title": "Delete"]])
        XCTAssertNotNil(try client.request("carrel/tree", ["depth": 0])["result"])
        XCTAssertEqual(fx.read("P/a.md"), "a", "a late Delete deletes nothing")
        XCTAssertFalse(fx.exists("P/Trash/a.md"))
        XCTAssertNil(client.inbox.pending.first { $0["id"] == 7 }, "answered once")
    }

    func testTheExpiryIsSaidInFrenchToo() throws {
        try start(twoFiles, locale: "fr", options: ["confirmationTimeout": 1])
        sendDelete(id: 3, "P/a.md")
        _ = try question()
        let r = try client.inbox.take("the expired delete") { $0["id"] == 3 }
        XCTAssertEqual(
            r["error"]?["message"],
            "Annulé : la question est restée sans réponse pendant 1 seconde, donc rien n’a été supprimé.")
    }

    func testAnAnswerInTimeIsNotExpiredLater() throws {
        try start(twoFiles, options: ["confirmationTimeout": 0.5])
        let deleted = try client.command("carrel.delete", ["uri": .string(fx.uri("P/a.md"))])
        XCTAssertEqual(deleted["result"]?["inTrash"], true)
        usleep(800_000)
        XCTAssertNil(client.inbox.pending.first { $0["method"] == "$/cancelRequest" || $0["error"] != nil })
    }

    func testArgumentsSentAsAStringHoldingAnObject() throws {
        try start(twoFiles)
        let args = JSONValue.object(["parentUri": .string(fx.uri("P")), "name": "Notes"]).text()
        let r = try client.request(
            "workspace/executeCommand",
            ["command": "carrel.newFolder", "arguments": [.string(args)]])
        XCTAssertEqual(r["result"]?["name"], "Notes")
        XCTAssertTrue(fx.exists("P/Notes"))
        for bad: JSONValue in ["Notes", "[]", 5] {
            let e = try client.request(
                "workspace/executeCommand",
                ["command": "carrel.newFolder", "arguments": [bad]])["error"]
            XCTAssertEqual(e?["code"], -32602, bad.text())
            XCTAssertEqual(e?["data"]?["field"], "arguments[0]", bad.text())
        }
    }

    func testTheHarmlessActionComesFirstInEveryQuestion() throws {
        try start(twoFiles)
        client.answer = .title("Delete")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/a.md"))])
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Trash/a.md"))])
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/b.md"))])
        _ = try client.command("carrel.emptyTrash", ["projectUri": .string(fx.uri("P"))])
        let firsts = client.asked.map { $0["params"]?["actions"]?[0]?["title"] }
        XCTAssertEqual(firsts, ["Cancel", "Cancel", "Cancel", "Cancel"])
        XCTAssertEqual(fx.listing("P"), ["Trash/"])
        XCTAssertEqual(fx.listing("P/Trash"), [], "every title is still accepted")
    }

    func testAProjectSymbolSitsInItsLibraryLikeTheFoldersBesideIt() throws {
        try start(
            "My Poems/.carrel/project.json = {\"type\":\"poetry\"}\nMy Notes/x.md",
            capabilities: ["experimental": ["carrel": ["folderSymbols": true]]])
        let symbols = try client.result("workspace/symbol", ["query": "my"]).arrayValue!
        let project = try XCTUnwrap(symbols.first { $0["kind"] == 4 })
        let folder = try XCTUnwrap(symbols.first { $0["name"] == "My Notes" })
        XCTAssertNotEqual(project["containerName"], "")
        XCTAssertEqual(project["containerName"], folder["containerName"])
        let draft = try XCTUnwrap(try client.result("workspace/symbol", ["query": "draft"]).arrayValue?.first)
        XCTAssertEqual(draft["containerName"], "My Poems", "inside a project the breadcrumb starts at the project")
    }

    /// lsp-mode warns of every notification it does not know, and eglot can
    /// be told to: `carrel/…` goes only to clients that declared it.
    func testCarrelNotificationsGoOnlyToClientsThatDeclareThem() throws {
        for declared in [false, true] {
            let capabilities: JSONValue = declared ? ["experimental": ["carrel": ["didChange": true]]] : [:]
            try start(twoFiles, capabilities: capabilities)
            _ = try client.result("carrel/tree", ["depth": 1])
            _ = try client.command("carrel.newFolder", ["parentUri": .string(fx.uri("P")), "name": "Notes"])
            Fixture.sh("echo x > '\(fx.path)/P/outside.md'")
            if declared {
                _ = try client.waitForChange { $0.contains { $0["type"] == "created" } }
            } else {
                // The watcher's change is applied to the model before the tree answers it.
                let deadline = Date().addingTimeInterval(5)
                while Date() < deadline,
                    !(try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 2]).text()
                        .contains("outside.md"))
                {
                    usleep(20_000)
                }
                usleep(200_000)
                let sent = client.inbox.pending.compactMap { $0["method"]?.stringValue }
                XCTAssertFalse(sent.contains { $0.hasPrefix("carrel/") }, "\(sent)")
            }
        }
    }
}
