import CarrelJSON
import CarrelModel
import CarrelTestSupport
import XCTest

/// The server driven in process, through the same JSON an editor sends.
final class ServerTests: ServedLibraryTestCase {
    func start(_ tree: String, locale: String = "en") throws { try serve(tree, locale: locale) }

    func tree(_ rel: String, depth: Int = 1) throws -> JSONValue {
        try client.result("carrel/tree", ["uri": .string(fx.uri(rel)), "depth": .int(depth)])[0]!
    }

    func titles(_ node: JSONValue) -> [String] {
        node["children"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
    }

    func errorReason(_ r: JSONValue) -> String? { r["error"]?["data"]?["reason"]?.stringValue }

    let poetry = """
        My Poems/.carrel/project.json = {"type":"poetry"}
        My Poems/Draft/Spring.md = spring
        """

    func testLifecycleBeforeInitializeAndAfterShutdown() throws {
        let c = InProcessClient()
        XCTAssertEqual(try c.request("carrel/tree")["error"]?["code"], -32002)
        fx = try Fixture()
        _ = try c.initialize([fx.uri()])
        XCTAssertEqual(try c.request("initialize", ["capabilities": [:]])["error"]?["code"], -32600)
        XCTAssertEqual(try c.request("nope/nope")["error"]?["code"], -32601)
        c.notify("some/unknownNotification")
        XCTAssertEqual(try c.request("shutdown")["result"], .null)
        XCTAssertEqual(try c.request("carrel/tree")["error"]?["code"], -32600)
        c.notify("exit")
        _ = try c.request("shutdown")  // flushes the queue
        XCTAssertEqual(c.exitCode, 0)
    }

    func testExitWithoutShutdownIsCodeOne() throws {
        let c = InProcessClient()
        c.notify("exit")
        _ = try c.request("carrel/tree")
        XCTAssertEqual(c.exitCode, 1)
    }

    func testRootsAndProjectShape() throws {
        try start(poetry)
        let roots = try client.result("carrel/tree", ["depth": 0]).arrayValue!
        XCTAssertEqual(roots.count, 1)
        XCTAssertEqual(roots[0]["kind"], "library")
        XCTAssertEqual(roots[0]["icon"], "books.vertical")
        XCTAssertNil(roots[0]["children"])
        let project = try tree("My Poems", depth: 2)
        XCTAssertEqual(project["kind"], "project")
        XCTAssertEqual(project["projectType"], "poetry")
        XCTAssertEqual(project["icon"], "folder.badge.person.crop")
        let sections = project["children"]!.arrayValue!
        XCTAssertEqual(sections.map { $0["name"] }, ["YOUR POETRY", "PUBLICATIONS", "TRASH"])
        XCTAssertTrue(sections.allSatisfy { $0["uri"] == nil && $0["kind"] == "section" })
        let first = sections[0]["children"]!.arrayValue!
        XCTAssertEqual(first[0]["role"], "all")
        XCTAssertEqual(first[0]["virtual"], true)
        XCTAssertEqual(first[0]["uri"], .string(fx.uri("My Poems/.carrel/all")))
        XCTAssertEqual(first[1]["role"], "draft")
        XCTAssertEqual(first[1]["fileCount"], 1)
        XCTAssertEqual(first[1]["permanent"], true)
        XCTAssertNotNil(first[1]["modified"]?.intValue)
        XCTAssertNil(first[1]["children"], "depth 2 stops at the section's children")
        let whole = try client.result("carrel/tree", ["uri": .string(fx.uri("My Poems"))])[0]!
        XCTAssertEqual(titles(whole["children"]![0]!["children"]![1]!), ["Spring.md"], "no depth: the whole subtree")
    }

    func testFrenchTitlesAndMessages() throws {
        try start(poetry, locale: "fr-FR")
        let project = try tree("My Poems", depth: 2)
        XCTAssertEqual(project["children"]![0]!["title"], "VOS POÈMES")
        XCTAssertEqual(project["children"]![0]!["name"], "YOUR POETRY")
        XCTAssertEqual(titles(project["children"]![0]!).prefix(2), ["Tout", "Brouillons"])
        let r = try client.command("carrel.rename", ["uri": .string(fx.uri("My Poems/Draft")), "newName": "X"])
        XCTAssertEqual(r["error"]?["message"]?.stringValue?.hasPrefix("« Draft » est un dossier permanent"), true)
    }

    func testEveryProjectTypeThroughTheProtocol() throws {
        try start("")
        for (type, first) in [
            ("blank", "BLANK"), ("poetry", "YOUR POETRY"), ("shortStory", "YOUR STORIES"), ("novel", "YOUR NOVEL"),
            ("script", "YOUR SCRIPT"),
        ] {
            let node = try client.command(
                "carrel.newProject", ["parentUri": .string(fx.uri()), "name": .string(type), "type": .string(type)])[
                    "result"]!
            XCTAssertEqual(node["projectType"], .string(type))
            XCTAssertEqual(try tree(type)["children"]?[0]?["name"], .string(first))
        }
        let bad = try client.command(
            "carrel.newProject", ["parentUri": .string(fx.uri()), "name": "x", "type": "sonnet"])
        XCTAssertEqual(bad["error"]?["code"], -32602)
        XCTAssertTrue(bad["error"]!["message"]!.stringValue!.contains("type"))
    }

    func testCommandsFlow() throws {
        try start(poetry)
        let file = try client.command(
            "carrel.newFile", ["parentUri": .string(fx.uri("My Poems/.carrel/all")), "name": "Summer"])["result"]!
        XCTAssertEqual(file["uri"], .string(fx.uri("My Poems/Draft/Summer.md")))
        XCTAssertEqual(fx.read("My Poems/Draft/Summer.md"), "")
        let folder = try client.command(
            "carrel.newFolder", ["parentUri": .string(fx.uri("My Poems/Draft")), "name": "Act 1"])["result"]!
        XCTAssertEqual(folder["kind"], "folder")
        XCTAssertEqual(folder["icon"], "folder")
        _ = try client.command(
            "carrel.moveTo",
            [
                "uri": .string(fx.uri("My Poems/Draft/Summer.md")),
                "destinationUri": .string(fx.uri("My Poems/Draft/Act 1")),
            ])
        XCTAssertTrue(fx.exists("My Poems/Draft/Act 1/Summer.md"))
        let renamed = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("My Poems/Draft/Act 1")), "newName": "Act One"])["result"]!
        XCTAssertEqual(renamed["name"], "Act One")
        XCTAssertEqual(fx.read("My Poems/Draft/Act One/Summer.md"), "")
        let moved = try client.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("My Poems/Draft/Act One")), "destinationUri": .string(fx.uri("My Poems/Ready"))])[
                "result"]!
        XCTAssertEqual(moved["uri"], .string(fx.uri("My Poems/Ready/Act One")))
        client.answer = .title("Delete")
        let trashed = try client.command("carrel.delete", ["uri": .string(fx.uri("My Poems/Ready/Act One"))])["result"]!
        XCTAssertEqual(trashed["inTrash"], true)
        XCTAssertEqual(client.asked.count, 1)
        XCTAssertTrue(fx.exists("My Poems/Trash/Act One/Summer.md"))
        let restored = try client.command("carrel.restore", ["uri": .string(fx.uri("My Poems/Trash/Act One"))])[
            "result"]!
        XCTAssertEqual(restored["uri"], .string(fx.uri("My Poems/Ready/Act One")))
        let sorted = try client.command(
            "carrel.setSort", ["uri": .string(fx.uri("My Poems")), "by": "name", "descending": true])["result"]!
        XCTAssertEqual(sorted["kind"], "project")
        let asking = try client.command(
            "carrel.setConfirmDelete", ["uri": .string(fx.uri("My Poems")), "confirm": false])["result"]!
        XCTAssertEqual(asking["confirmDelete"], false)
        let links = try client.command(
            "carrel.setLinkUpdates", ["uri": .string(fx.uri("My Poems")), "mode": "never"])["result"]!
        XCTAssertEqual(links["linkUpdates"], "never")
        let target = try client.command(
            "carrel.setTarget", ["uri": .string(fx.uri("My Poems/Draft")), "words": 1500])["result"]!
        XCTAssertEqual(target["target"], 1500)
        let leftOut = try client.command(
            "carrel.setCompileIncluded", ["uri": .string(fx.uri("My Poems/Draft")), "included": false])["result"]!
        XCTAssertEqual(leftOut["leftOut"], true)
        _ = try client.command(
            "carrel.setCompileIncluded", ["uri": .string(fx.uri("My Poems/Draft")), "included": true])
        let byline = try client.command(
            "carrel.setByline", ["projectUri": .string(fx.uri("My Poems")), "author": "Ada", "contact": ["a@x.org"]])
        XCTAssertEqual(byline["result"]?["kind"], "project")
        let options = try client.result("carrel/compileOptions", ["projectUri": .string(fx.uri("My Poems"))])
        XCTAssertEqual(options["byline"], ["author": "Ada", "contact": ["a@x.org"]])
        _ = try client.command("carrel.newFile", ["parentUri": .string(fx.uri("My Poems/Ready")), "name": "Ode"])
        let compiled = try client.command(
            "carrel.compile", ["projectUri": .string(fx.uri("My Poems")), "recipe": "packet", "format": "markdown"])
        XCTAssertNotNil(compiled["result"]?["lines"], "\(compiled)")
        _ = try client.command("carrel.newFile", ["parentUri": .string(fx.uri("My Poems/Draft")), "name": "Autumn"])
        XCTAssertEqual(titles(try tree("My Poems/Draft")), ["Spring.md", "Autumn.md"])
        let placed = try client.command(
            "carrel.reorder",
            ["uri": .string(fx.uri("My Poems/Draft/Spring.md")), "after": .string(fx.uri("My Poems/Draft/Autumn.md"))])
        XCTAssertEqual(placed["result"]?["name"], "Spring.md")
        let change = try client.waitForChange {
            $0.contains { $0["type"] == "changed" && $0["uri"] == .string(self.fx.uri("My Poems/Draft")) }
        }
        XCTAssertFalse(change.isEmpty)
        XCTAssertEqual(titles(try tree("My Poems/Draft")), ["Autumn.md", "Spring.md"], "binder order now")
        XCTAssertEqual(fx.read("My Poems/Draft/.carrel-order"), "Autumn.md\nSpring.md\n")
        let copy = try client.command("carrel.duplicate", ["uri": .string(fx.uri("My Poems/Draft/Spring.md"))])[
            "result"]!
        XCTAssertEqual(copy["uri"], .string(fx.uri("My Poems/Draft/Spring copy.md")))
        XCTAssertEqual(titles(try tree("My Poems/Draft")), ["Autumn.md", "Spring.md", "Spring copy.md"])
        XCTAssertEqual(fx.read("My Poems/Draft/.carrel-order"), "Autumn.md\nSpring.md\nSpring copy.md\n")
        let spring = JSONValue.string(fx.uri("My Poems/Draft/Spring.md"))
        let taken = try client.command("carrel.snapshot", ["uri": spring, "title": "Before"])["result"]!
        let snapshot = taken["snapshots"]?[0]?["name"] ?? .null
        XCTAssertEqual(taken["snapshots"]?[0]?["title"], "Before")
        let listed = try client.command("carrel.snapshots", ["uri": spring])["result"]!
        XCTAssertEqual(listed["snapshots"]?[0]?["name"], snapshot)
        let compared = try client.command("carrel.compareSnapshot", ["uri": spring, "snapshot": snapshot])["result"]!
        XCTAssertEqual(compared["summary"], "+0 −0 words")
        let rolledBack = try client.command("carrel.rollBack", ["uri": spring, "snapshot": snapshot])["result"]!
        XCTAssertEqual(rolledBack["name"], "Spring.md")
        let undone = try client.command("carrel.undo", [:])["result"]!
        XCTAssertEqual(undone["inTrash"], true, "the copy went to the Trash: \(undone)")
        XCTAssertTrue(fx.exists("My Poems/Trash/Spring copy.md"))
        _ = try client.command("carrel.redo", ["library": .string(fx.uri("My Poems"))])
        XCTAssertTrue(fx.exists("My Poems/Draft/Spring copy.md"))
        _ = try client.command(
            "carrel.newFolder", ["parentUri": .string(fx.uri("My Poems/Magazines")), "name": "Granta"])
        let market = try client.command(
            "carrel.setMarket", ["uri": .string(fx.uri("My Poems/Magazines/Granta")), "fields": ["fee": "£3"]])[
                "result"]!
        XCTAssertEqual(market["name"], "Granta")
        let submitted = try client.command(
            "carrel.submit",
            [
                "items": [.string(fx.uri("My Poems/Draft/Spring.md"))],
                "marketUri": .string(fx.uri("My Poems/Magazines/Granta")),
            ])["result"]!
        let record = try XCTUnwrap(submitted["id"])
        let accepted = try client.command("carrel.setSubmissionStatus", ["record": record, "status": "accepted"])
        XCTAssertEqual(accepted["result"]?["kind"], "project")
        let withdrawn = try client.command("carrel.withdrawOthers", ["record": record])
        XCTAssertNil(withdrawn["error"])
        let empty = try client.command(
            "carrel.emptyTrash", ["projectUri": .string(fx.uri("My Poems")), "confirmed": true])["result"]!
        XCTAssertEqual(empty, ["deleted": 0])
    }

    func testDeleteConfirmationAnswers() throws {
        try Scenarios.confirmationAnswers(InProcessClient())
    }

    func testEveryErrorReason() throws {
        // Root writes any folder; as root, EndToEndTests checks io with the server run as nobody.
        try Scenarios.everyErrorReason(InProcessClient(), checksIO: getuid() != 0)
    }

    func testFrenchConfirmationTitles() throws {
        try start("P/.carrel/project.json = {\"type\":\"blank\"}\nP/a.md\nP/b.md", locale: "fr")
        client.answer = .title("Supprimer")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/a.md"))])
        XCTAssertEqual(
            client.asked.last?["params"]?["actions"],
            [["title": "Annuler"], ["title": "Supprimer"], ["title": "Supprimer et ne plus demander"]])
        XCTAssertTrue(fx.exists("P/Trash/a.md"))
        client.answer = .title("Delete")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/b.md"))])
        XCTAssertTrue(fx.exists("P/Trash/b.md"), "English titles are accepted in any language")
    }

    func testCancelRequestWhileAwaitingConfirmation() throws {
        try start("P/.carrel/project.json = {\"type\":\"blank\"}\nP/a.md")
        client.send([
            "jsonrpc": "2.0", "id": 99, "method": "workspace/executeCommand",
            "params": ["command": "carrel.delete", "arguments": [["uri": .string(fx.uri("P/a.md"))]]],
        ])
        let ask = try client.inbox.take("confirmation") { $0["method"] == "window/showMessageRequest" }
        client.notify("$/cancelRequest", ["id": 99])
        let r = try client.inbox.take("cancelled response") { $0["id"] == 99 }
        XCTAssertEqual(r["error"]?["code"], -32800)
        client.send(["jsonrpc": "2.0", "id": ask["id"]!, "result": ["title": "Delete"]])
        _ = try client.request("carrel/tree", ["depth": 0])
        XCTAssertTrue(fx.exists("P/a.md"), "a late Delete after cancel deletes nothing")
        client.notify("$/cancelRequest", ["id": 12345])  // unknown ids are ignored
        XCTAssertNotNil(try client.request("carrel/tree", ["depth": 0])["result"])
    }

    func testInvalidParamsNameTheField() throws {
        try start("")
        let cases: [(JSONValue, String)] = [
            (
                ["command": "carrel.rename", "arguments": [["uri": 1, "newName": "x"]]],
                "“uri” must be a string, not number"
            ),
            (["command": "carrel.rename", "arguments": [["uri": "file:///x"]]], "“newName” is required"),
            (["command": "carrel.nope", "arguments": []], "“command”"),
            (["arguments": []], "“command” is required"),
            (
                ["command": "carrel.setSort", "arguments": [["uri": .string(fx.uri()), "by": "size"]]],
                "“by” must be manual, name, modified or created"
            ),
        ]
        for (params, fragment) in cases {
            let e = try client.request("workspace/executeCommand", params)["error"]!
            XCTAssertEqual(e["code"], -32602)
            XCTAssertTrue(e["message"]!.stringValue!.contains(fragment), e["message"]!.stringValue!)
        }
        XCTAssertEqual(try client.request("carrel/tree", ["depth": "deep"])["error"]?["data"]?["field"], "depth")
        XCTAssertEqual(try client.request("carrel/tree", [1, 2])["error"]?["code"], -32602)
        XCTAssertEqual(fx.listing(includeHidden: true), [])
    }

    func testWorkspaceSymbols() throws {
        try start(poetry + "\nMy Poems/Draft/Spring Songs/\nMy Poems/Research/Inspiration.md")
        let symbols = try client.result("workspace/symbol", ["query": "spring"]).arrayValue!
        XCTAssertEqual(
            symbols.map { $0["name"] }, ["Spring.md", "Spring Songs"].map { .string($0) },
            "best first: shorter exact prefix")
        let loose = try client.result("workspace/symbol", ["query": "spr"]).arrayValue!
        XCTAssertEqual(loose.last?["name"], "Inspiration.md", "a match inside a word ranks after prefixes")
        XCTAssertEqual(symbols[0]["kind"], 1)
        XCTAssertEqual(symbols[1]["kind"], 3)
        XCTAssertEqual(symbols[0]["containerName"], "My Poems › Draft")
        XCTAssertEqual(
            symbols[0]["location"]?["range"],
            ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]])
        XCTAssertEqual(symbols[0]["location"]?["uri"], .string(fx.uri("My Poems/Draft/Spring.md")))
        let project = try client.result("workspace/symbol", ["query": "mypoems"]).arrayValue!
        XCTAssertEqual(project.first?["kind"], 4)
        XCTAssertEqual(try client.result("workspace/symbol", ["query": "zzzz"]), [])
    }

    /// A one-letter query matches nearly every name, and only the best 200
    /// come back: the search skips the rest without looking at their
    /// entries. What it returns must be exactly the 200 best scores.
    func testOneLetterSearchReturnsTheTwoHundredBest() throws {
        let prefixes = ["", "a ", "ab", "x-", "long "]
        let names = (0..<300).map { i in prefixes[i % 5] + "e" + String(repeating: "z", count: i % 61) + ".md" }
        try start(names.map { "Box/\($0)" }.joined(separator: "\n"))
        let score = { (name: String) in FuzzyMatch.score(Array("e".utf8), Array(name.lowercased().utf8))! }
        let found = try client.result("workspace/symbol", ["query": "e"]).arrayValue!.compactMap {
            $0["name"]?.stringValue
        }
        XCTAssertEqual(found.count, 200)
        let scores = found.map(score)
        XCTAssertEqual(scores, scores.sorted(by: >), "best first")
        XCTAssertEqual(scores, Array(names.map(score).sorted(by: >).prefix(200)))
    }

    func testExternalChangesArriveAsDidChange() throws {
        try start(poetry)
        Fixture.sh("mv '\(fx.path)/My Poems/Draft/Spring.md' '\(fx.path)/My Poems/Ready/'")
        let moved = try client.waitForChange { $0.contains { $0["type"] == "moved" } }
        XCTAssertEqual(moved.first { $0["type"] == "moved" }?["oldUri"], .string(fx.uri("My Poems/Draft/Spring.md")))
        XCTAssertEqual(titles(try tree("My Poems/Ready")), ["Spring.md"])
        Fixture.sh(
            "mkdir -p '\(fx.path)/My Poems/Draft/New/Deeper' && echo x > '\(fx.path)/My Poems/Draft/New/Deeper/n.md'")
        _ = try client.waitForChange { $0.contains { $0["type"] == "created" } }
        XCTAssertEqual(
            titles(try tree("My Poems/Draft/New/Deeper")), ["n.md"], "files made before the watch was added are found")
        Fixture.sh("rm -r '\(fx.path)/My Poems/Draft'")
        _ = try client.waitForChange { $0.contains { $0["type"] == "deleted" } }
        let deadline = Date().addingTimeInterval(3)
        while !fx.exists("My Poems/Draft") && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(fx.exists("My Poems/Draft"), "a permanent folder deleted behind our back comes back")
    }

    func testFilesMadeRightAfterStartupAreNotLost() throws {
        for round in 0..<10 {
            try start("W/")
            // Between the scan (initialize) and the first watches (initialized).
            try "x".write(toFile: fx.path + "/W/a\(round).md", atomically: false, encoding: .utf8)
            let deadline = Date().addingTimeInterval(5)
            while titles(try tree("W")) != ["a\(round).md"] {
                XCTAssertLessThan(Date(), deadline, "round \(round): the file never showed up")
                if Date() > deadline { return }
                usleep(20_000)
            }
        }
    }

    func testCommandsAnnounceTheirOwnChanges() throws {
        try start(poetry)
        _ = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("My Poems/Draft/Spring.md")), "newName": "Winter.md"])
        let c = try client.waitForChange { _ in true }
        XCTAssertEqual(
            c,
            [
                [
                    "type": "moved", "oldUri": .string(fx.uri("My Poems/Draft/Spring.md")),
                    "uri": .string(fx.uri("My Poems/Draft/Winter.md")),
                ]
            ])
    }

    func testWorkspaceFoldersCanBeAddedAndRemoved() throws {
        try start("")
        let other = try Fixture("x.md")
        client.notify(
            "workspace/didChangeWorkspaceFolders",
            ["event": ["added": [["uri": .string(other.uri()), "name": "o"]], "removed": []]])
        XCTAssertEqual(try client.result("carrel/tree", ["depth": 0]).arrayValue?.count, 2)
        client.notify(
            "workspace/didChangeWorkspaceFolders",
            ["event": ["added": [], "removed": [["uri": .string(fx.uri()), "name": "l"]]]])
        XCTAssertEqual(try client.result("carrel/tree", ["depth": 0])[0]?["uri"], .string(other.uri()))
    }

    func testPlainTreeSortIsKeptPerLibrary() throws {
        try start("b.md\na.md\nF/")
        _ = try client.command("carrel.setSort", ["uri": .string(fx.uri()), "by": "name", "descending": true])
        XCTAssertEqual(titles(try client.result("carrel/tree", ["depth": 1])[0]!), ["F", "b.md", "a.md"])
        let again = InProcessClient()
        _ = try again.initialize([fx.uri()])
        XCTAssertEqual(
            titles(try again.result("carrel/tree", ["depth": 1])[0]!), ["F", "b.md", "a.md"], "kept in the state folder"
        )
    }
}
