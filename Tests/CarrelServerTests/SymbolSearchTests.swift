import CarrelJSON
import CarrelTestSupport
import XCTest

/// `workspace/symbol` finds names whatever the case, accents or width the
/// writer types, because queries fold as names do.
final class SymbolSearchTests: XCTestCase {
    var fx: Fixture!

    override func tearDown() { fx = nil }

    func names(_ client: InProcessClient, _ query: String) throws -> [String] {
        try client.result("workspace/symbol", ["query": .string(query)]).arrayValue!.compactMap {
            $0["name"]?.stringValue
        }
    }

    func testQueriesIgnoreAccentsCaseAndWidth() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Été indien.md = e
            P/Draft/Sonnet.md = s
            """)
        let client = InProcessClient()
        _ = try client.initialize([fx.uri()])
        for query in ["ete", "ÉTÉ", "été ind", "ｅｔｅ"] {
            XCTAssertEqual(try names(client, query).first, "Été indien.md", query)
        }
        XCTAssertEqual(try names(client, "sonnét").first, "Sonnet.md")
    }

    /// Stock clients open every result as a file (eglot's `xref-find-apropos`
    /// fails on a folder and loses the files with it): folders and projects
    /// are listed only to clients that declare they can show them.
    func testFoldersOnlyForClientsThatAskForThem() throws {
        fx = try Fixture("P/.carrel/project.json = {\"type\":\"poetry\"}\nP/Draft/Drafting notes.md")
        for (capabilities, expected): (JSONValue, [String]) in [
            ([:], ["Drafting notes.md"]),
            (["experimental": ["carrel": ["folderSymbols": false]]], ["Drafting notes.md"]),
            (["experimental": ["carrel": ["folderSymbols": true]]], ["Draft", "Drafting notes.md"]),
        ] {
            let client = InProcessClient()
            _ = try client.result("initialize", ["capabilities": capabilities, "rootUri": .string(fx.uri())])
            XCTAssertEqual(try names(client, "draft"), expected, capabilities.text())
        }
        let bad = try InProcessClient().request(
            "initialize", ["capabilities": ["experimental": ["carrel": ["folderSymbols": "yes"]]]])
        XCTAssertEqual(bad["error"]?["data"]?["field"], "capabilities.experimental.carrel.folderSymbols")
    }
}
