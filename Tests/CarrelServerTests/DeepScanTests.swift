import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A library opens once its top two levels are read; deeper folders arrive
/// from the background scan. `CARREL_HOLD_SCAN=1` makes the server read
/// only the top two levels at open and keep the background's subtrees back
/// until a request needs everything, so these tests see the rows as a
/// client does before the deep folders arrive.
final class DeepScanTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    /// `hold`: "1" reads the deep folders at once and keeps their subtrees
    /// back; "reads" does not read them until something needs everything.
    /// `watching`: whether the client sends `initialized`, which starts the watcher.
    func start(locale: String = "en", hold: String = "1", watching: Bool = true) throws {
        fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/a.md = a
            Poems/Draft/Cycle/b.md = b
            Poems/Draft/Cycle/Deeper/c.md = c
            Poems/Draft/Gone/g.md = g
            Poems/Ready/r.md = r
            Poems/Ready/Old/o.md = o
            """)
        setenv("CARREL_HOLD_SCAN", hold, 1)
        defer { unsetenv("CARREL_HOLD_SCAN") }
        client = InProcessClient()
        if watching {
            _ = try client.initialize([fx.uri()], locale: locale)
        } else {
            let folder: JSONValue = ["uri": .string(fx.uri()), "name": "lib"]
            _ = try client.result(
                "initialize",
                ["processId": .null, "capabilities": [:], "locale": .string(locale), "workspaceFolders": [folder]])
        }
    }

    func tree(_ relative: String, depth: Int) throws -> JSONValue {
        try client.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": .int(depth)]).arrayValue![0]
    }

    /// The files the whole tree shows, as paths relative to the library, each as often as shown.
    func filesShown() throws -> [String] {
        let root = try client.result("carrel/tree", [:]).arrayValue![0]
        var files: [String] = []
        func visit(_ n: JSONValue) {
            if n["kind"] == "file", n["id"] == nil, let uri = n["uri"]?.stringValue {
                files.append(String(uri.dropFirst(fx.uri().count + 1)).removingPercentEncoding!)
            }
            n["children"]?.arrayValue?.forEach(visit)
        }
        visit(root)
        return files.sorted()
    }

    /// The library's files on disk, outside hidden folders.
    func filesOnDisk() -> [String] {
        let pipe = Pipe()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/find")
        p.arguments = [fx.path, "-type", "f", "-not", "-path", "*/.carrel/*"]
        p.standardOutput = pipe
        try? p.run()
        p.waitUntilExit()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return out.split(separator: "\n").map { String($0.dropFirst(fx.path.count + 1)) }.sorted()
    }

    func testTheFirstTreeAnswersBeforeDeepFoldersAreReadThenUpdatedRowsBringTheCounts() throws {
        try start()
        let library = try client.result("carrel/tree", ["depth": 1]).arrayValue![0]
        XCTAssertEqual(library["counting"], true)
        XCTAssertEqual(library["summary"], "counting…", "nothing below the projects is read yet")
        let poems = library["children"]?.arrayValue?.first { $0["name"] == "Poems" }
        XCTAssertEqual(poems?["counting"], true)

        // A project two levels deep reads the rows it shows, and says what is still counting.
        let project = try tree("Poems", depth: 2)
        let draft = project["children"]?[0]?["children"]?.arrayValue?.first { $0["name"] == "Draft" }
        XCTAssertEqual(draft?["folderCount"], 2)
        XCTAssertEqual(draft?["fileCount"], 1)
        XCTAssertEqual(draft?["counting"], true, "Cycle and Gone are not read yet")
        XCTAssertEqual(draft?["summary"], "1 file · counting…")
        XCTAssertEqual(project["children"]?[0]?["counting"], true, "the section above Draft")

        // Something that needs everything lets the scan finish: the rows come updated.
        _ = try client.result("workspace/symbol", ["query": "zzz"])
        // The last of them: loading the rows above sent one of its own.
        let updates = client.inbox.pending.filter {
            $0["method"] == "carrel/didChange" && $0["params"]?["changes"]?.arrayValue?.isEmpty == true
        }
        XCTAssertEqual(updates.count, 2, "one for the rows the project's tree read, one for the rest")
        let update = try XCTUnwrap(updates.last)
        var rows: [String: JSONValue] = [:]
        for row in update["params"]?["updated"]?.arrayValue ?? [] {
            rows[row["id"]?.stringValue ?? row["uri"]!.stringValue!] = row
            XCTAssertNil(row["counting"], "\(row["name"] ?? "") still counting")
        }
        // Words may follow, once counted: "6 files · 6 words".
        XCTAssertTrue(rows[fx.uri()]?["summary"]?.stringValue?.hasPrefix("6 files") == true)
        XCTAssertEqual(rows[fx.uri("Poems")]?["fileTotal"], 6)
        XCTAssertEqual(rows[fx.uri("Poems/Draft")]?["fileTotal"], 4)
        XCTAssertEqual(rows[fx.uri("Poems") + "#section-0"]?["fileTotal"], 6)
        XCTAssertNil(rows[fx.uri("Poems/Draft/Cycle")], "a row no client was sent is not updated")
        XCTAssertTrue(try tree("Poems/Draft/Cycle", depth: 0)["summary"]?.stringValue?.hasPrefix("2 files") == true)
    }

    func testCountingIsSaidInTheClientsLanguage() throws {
        try start(locale: "fr")
        let project = try tree("Poems", depth: 2)
        let draft = project["children"]?[0]?["children"]?.arrayValue?.first { $0["name"] == "Draft" }
        XCTAssertEqual(draft?["summary"], "1 fichier · comptage…")
    }

    /// A folder not read yet answers a tree request complete for the depth asked.
    func testTreeOfAPendingFolderReadsItFirst() throws {
        try start()
        let draft = try tree("Poems/Draft", depth: 1)
        XCTAssertEqual(draft["folderCount"], 2)
        XCTAssertEqual(draft["fileCount"], 1)
        let children = draft["children"]?.arrayValue ?? []
        XCTAssertEqual(children.map { $0["name"]?.stringValue ?? "" }, ["Cycle", "Gone", "a.md"])
        let cycle = children[0]
        XCTAssertEqual(cycle["folderCount"], 1)
        XCTAssertEqual(cycle["fileCount"], 1)
        XCTAssertEqual(cycle["hasChildren"], true)
        XCTAssertEqual(cycle["counting"], true, "Deeper is not read yet")
        XCTAssertTrue(children[1]["summary"]?.stringValue?.hasPrefix("1 file") == true, "Gone is read whole")
        XCTAssertNil(children[1]["counting"])
    }

    /// Another program moves, renames and deletes folders the scan has not
    /// grafted yet: the graft goes by entry, so each file shows once, where it is.
    func testPendingFoldersMovedRenamedOrDeletedBeforeTheirGraft() throws {
        try start()
        let draft = try tree("Poems/Draft", depth: 1)
        XCTAssertEqual(draft["children"]?[0]?["counting"], true, "Cycle is pending")
        Thread.sleep(forTimeInterval: 0.2)  // let the background read everything it holds back
        Fixture.sh(
            """
            cd '\(fx.path)/Poems' && mv Draft/Cycle Draft/Renamed && rm -r Draft/Gone && mv Ready/Old Draft/Old
            """)
        _ = try client.waitForChange { $0.contains { $0["type"] == "moved" } }
        _ = try client.result("workspace/symbol", ["query": "zzz"])
        XCTAssertEqual(
            try filesShown(),
            [
                "Poems/Draft/Old/o.md", "Poems/Draft/Renamed/Deeper/c.md", "Poems/Draft/Renamed/b.md",
                "Poems/Draft/a.md", "Poems/Ready/r.md",
            ])
        XCTAssertEqual(try filesShown(), filesOnDisk())
    }

    /// The same, before the background reads them: a folder moved before its
    /// read is read where the watcher says it went.
    func testPendingFoldersMovedRenamedOrDeletedBeforeTheirRead() throws {
        try start(hold: "reads")
        let draft = try tree("Poems/Draft", depth: 1)
        XCTAssertEqual(draft["children"]?[0]?["counting"], true, "Cycle is pending")
        Fixture.sh(
            """
            cd '\(fx.path)/Poems' && mv Draft/Cycle Draft/Renamed && rm -r Draft/Gone && mv Ready/Old Draft/Old
            """)
        _ = try client.waitForChange { $0.contains { $0["type"] == "moved" } }
        _ = try client.result("workspace/symbol", ["query": "zzz"])
        XCTAssertEqual(try filesShown(), filesOnDisk())
        XCTAssertEqual(try filesShown().count, 5)
    }

    /// A pending folder gone from its place before its read, while no
    /// watcher says where: its parent is read again, so its files show
    /// where they are, once, and a search waiting for the scan never hangs.
    func testAPendingFolderGoneBeforeItsReadWithoutAWatcher() throws {
        try start(hold: "reads", watching: false)
        XCTAssertEqual(try tree("Poems/Draft", depth: 1)["children"]?[0]?["counting"], true)
        Fixture.sh("cd '\(fx.path)/Poems/Draft' && mv Cycle Renamed && rm -r Gone")
        _ = try client.result("workspace/symbol", ["query": "zzz"])
        XCTAssertEqual(
            try filesShown(),
            [
                "Poems/Draft/Renamed/Deeper/c.md", "Poems/Draft/Renamed/b.md", "Poems/Draft/a.md",
                "Poems/Ready/Old/o.md",
                "Poems/Ready/r.md",
            ])
        XCTAssertEqual(try filesShown(), filesOnDisk())
    }

    /// A file made in a pending folder after the background read it, before
    /// its graft, is found by the settle that follows the graft: once.
    func testANewFileInAPendingFolderShowsOnce() throws {
        try start()
        XCTAssertEqual(try tree("Poems", depth: 0)["counting"], true)
        Thread.sleep(forTimeInterval: 0.2)
        try fx.add("Poems/Draft/Cycle/Deeper/new.md = n")
        try fx.add("Poems/Ready/Old/also.md = n")
        _ = try client.result("workspace/symbol", ["query": "zzz"])
        let deadline = Date().addingTimeInterval(5)
        while try filesShown() != filesOnDisk(), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(try filesShown(), filesOnDisk())
        XCTAssertEqual(try filesShown().filter { $0.hasSuffix("new.md") || $0.hasSuffix("also.md") }.count, 2)
    }

    /// The same file made before the background reads the folder.
    func testANewFileInAPendingFolderBeforeItsReadShowsOnce() throws {
        try start(hold: "reads")
        XCTAssertEqual(try tree("Poems", depth: 0)["counting"], true)
        try fx.add("Poems/Draft/Cycle/Deeper/new.md = n")
        _ = try client.result("workspace/symbol", ["query": "zzz"])
        XCTAssertEqual(try filesShown(), filesOnDisk())
        XCTAssertEqual(try filesShown().filter { $0.hasSuffix("new.md") }.count, 1)
    }

    /// "All" with its rows lists every file, however deep.
    func testAllWaitsForEveryFolder() throws {
        try start()
        XCTAssertEqual(try tree("Poems/.carrel/all", depth: 0)["counting"], true)
        let all = try tree("Poems/.carrel/all", depth: 1)
        XCTAssertEqual(
            all["children"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" }.sorted(),
            [
                "a.md", "b.md", "c.md", "g.md", "o.md", "r.md",
            ])
        XCTAssertNil(all["counting"])
    }

    func testSymbolSearchWaitsForEveryFolder() throws {
        try start()
        XCTAssertEqual(try tree("Poems", depth: 0)["counting"], true)
        let found = try client.result("workspace/symbol", ["query": "c.md"]).arrayValue ?? []
        XCTAssertEqual(found.first?["location"]?["uri"]?.stringValue, fx.uri("Poems/Draft/Cycle/Deeper/c.md"))
    }

    /// A pending folder renamed, and another moved, by commands: their files
    /// move with them, once.
    func testRenameAndMoveOfPendingFolders() throws {
        try start(hold: "reads")
        XCTAssertEqual(try tree("Poems/Draft", depth: 1)["children"]?[0]?["counting"], true, "Cycle is pending")
        _ = try client.command("carrel.rename", ["uri": .string(fx.uri("Poems/Draft/Cycle")), "newName": "Tides"])
        _ = try client.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("Poems/Ready/Old")), "destinationUri": .string(fx.uri("Poems/Draft/Tides"))])
        XCTAssertEqual(
            try filesShown(),
            [
                "Poems/Draft/Gone/g.md", "Poems/Draft/Tides/Deeper/c.md", "Poems/Draft/Tides/Old/o.md",
                "Poems/Draft/Tides/b.md", "Poems/Draft/a.md", "Poems/Ready/r.md",
            ])
        XCTAssertEqual(try filesShown(), filesOnDisk())
    }

    /// Commands see every folder: a pending folder deleted, and a file made
    /// in another, each exist once afterwards.
    func testCommandsOnPendingFoldersBehaveAsOnReadOnes() throws {
        try start()
        XCTAssertEqual(try tree("Poems", depth: 0)["counting"], true)
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("Poems/Draft/Cycle")), "confirmed": true])
        _ = try client.command(
            "carrel.newFile", ["parentUri": .string(fx.uri("Poems/Ready/Old")), "name": "fresh"])
        XCTAssertEqual(
            try filesShown(),
            [
                "Poems/Draft/Gone/g.md", "Poems/Draft/a.md", "Poems/Ready/Old/fresh.md", "Poems/Ready/Old/o.md",
                "Poems/Ready/r.md", "Poems/Trash/Cycle/Deeper/c.md", "Poems/Trash/Cycle/b.md",
            ])
        XCTAssertEqual(try filesShown(), filesOnDisk())
    }
}
