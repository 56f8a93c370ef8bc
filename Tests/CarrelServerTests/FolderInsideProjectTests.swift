import CarrelJSON
import CarrelTestSupport
import XCTest

/// A stock client opened on a file sends that file's folder as its root
/// (eglot with no version control, lsp-mode's "import project root"). A
/// workspace folder inside a project stands for the library holding that
/// project, as for the CLI, so a delete goes to the project's Trash.
final class FolderInsideProjectTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/Spring.md = s
            Poems/Draft/Summer.md = s
            Notes/a.md = a
            """)
        client = InProcessClient()
    }

    override func tearDown() {
        client = nil
        fx = nil
    }

    func initialize(_ params: JSONValue) throws {
        _ = try client.result("initialize", params)
        client.notify("initialized")
    }

    func libraries() throws -> [JSONValue] {
        try client.result("carrel/tree", ["depth": 0]).arrayValue!.map { $0["uri"] ?? .null }
    }

    func deleteGoesToTheProjectsTrash(_ rel: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let deleted = try client.command("carrel.delete", ["uri": .string(fx.uri(rel)), "confirmed": true])
        XCTAssertEqual(deleted["result"]?["inTrash"], true, "\(deleted)", file: file, line: line)
        XCTAssertTrue(fx.exists("Poems/Trash/" + rel.split(separator: "/").last!), file: file, line: line)
    }

    func testARootUriInsideAProjectOpensTheLibraryHoldingIt() throws {
        try initialize(["capabilities": [:], "rootUri": .string(fx.uri("Poems/Draft"))])
        XCTAssertEqual(try libraries(), [.string(fx.uri())])
        try deleteGoesToTheProjectsTrash("Poems/Draft/Spring.md")
    }

    func testARootPathInsideAProjectOpensTheLibraryHoldingIt() throws {
        try initialize(["capabilities": [:], "rootPath": .string(fx.path + "/Poems/Draft")])
        XCTAssertEqual(try libraries(), [.string(fx.uri())])
        try deleteGoesToTheProjectsTrash("Poems/Draft/Spring.md")
    }

    func testWorkspaceFoldersInsideOneProjectOpenItsLibraryOnce() throws {
        try initialize([
            "capabilities": [:], "rootUri": .string(fx.uri("Poems/Draft")),
            "workspaceFolders": [
                ["uri": .string(fx.uri("Poems/Draft")), "name": "Draft"],
                ["uri": .string(fx.uri("Poems/Ready")), "name": "Ready"],
                ["uri": .string(fx.uri()), "name": "Writing"],
            ],
        ])
        XCTAssertEqual(try libraries(), [.string(fx.uri())])
        try deleteGoesToTheProjectsTrash("Poems/Draft/Summer.md")
    }

    func testAFolderOutsideEveryProjectAndAProjectItselfStayAsGiven() throws {
        try initialize([
            "capabilities": [:],
            "workspaceFolders": [
                ["uri": .string(fx.uri("Notes")), "name": "Notes"],
                ["uri": .string(fx.uri("Poems")), "name": "Poems"],
            ],
        ])
        XCTAssertEqual(try libraries(), [.string(fx.uri("Notes")), .string(fx.uri("Poems"))])
    }

    func testAddedFoldersMapAlikeAndTheLibraryStaysWhileOneStandsForIt() throws {
        try initialize(["capabilities": [:], "workspaceFolders": [["uri": .string(fx.uri("Notes")), "name": "Notes"]]])
        func change(added: [String], removed: [String]) {
            client.notify(
                "workspace/didChangeWorkspaceFolders",
                [
                    "event": [
                        "added": .array(added.map { ["uri": .string(fx.uri($0)), "name": "x"] }),
                        "removed": .array(removed.map { ["uri": .string(fx.uri($0)), "name": "x"] }),
                    ]
                ])
        }
        change(added: ["Poems/Draft", "Poems/Ready"], removed: [])
        XCTAssertEqual(try libraries(), [.string(fx.uri("Notes")), .string(fx.uri())])
        change(added: [], removed: ["Poems/Draft"])
        XCTAssertEqual(try libraries(), [.string(fx.uri("Notes")), .string(fx.uri())], "Ready still stands for it")
        try deleteGoesToTheProjectsTrash("Poems/Draft/Spring.md")
        change(added: [], removed: ["Poems/Ready"])
        XCTAssertEqual(try libraries(), [.string(fx.uri("Notes"))])
    }
}
