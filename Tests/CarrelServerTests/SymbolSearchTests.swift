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
}
