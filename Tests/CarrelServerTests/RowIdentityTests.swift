import CarrelJSON
import CarrelTestSupport
import XCTest

/// Every row has one identity, given by the server, unique in the binder
/// and the same however it was fetched: `id` when present, else `uri`.
final class RowIdentityTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    func identities(_ node: JSONValue, into out: inout [String: JSONValue]) {
        let key = node["id"]?.stringValue ?? node["uri"]?.stringValue ?? "none"
        XCTAssertNil(out[key], "two rows share \(key)")
        var bare = node.objectValue ?? [:]
        bare["children"] = nil
        out[key] = .object(bare)
        for child in node["children"]?.arrayValue ?? [] { identities(child, into: &out) }
    }

    func testRowsAreUniqueAndStableWhateverTheDepthFetched() throws {
        fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/Spring.md = s
            Poems/Ready/Rain.md = r
            Poems/Draft/Cycle/Spring.md = again
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()])
        var full: [String: JSONValue] = [:]
        identities(try client.result("carrel/tree", [:]).arrayValue![0], into: &full)
        XCTAssertNotNil(full[fx.uri("Poems") + "#section-0"], "a section is known by its project and place")
        XCTAssertNotNil(full[fx.uri("Poems") + "#section-2"])
        XCTAssertNotNil(
            full[fx.uri("Poems/.carrel/all") + "#Draft/Spring.md"], "a row under All is not its file's own row")
        XCTAssertNotNil(full[fx.uri("Poems/.carrel/all") + "#Draft/Cycle/Spring.md"])
        XCTAssertNotNil(full[fx.uri("Poems/Draft/Spring.md")])
        XCTAssertNil(full[fx.uri("Poems/Draft/Spring.md")]?["id"], "a row its URI identifies has no id")

        // The rows a lazy client fetches, level by level, are the same rows.
        var lazy: [String: JSONValue] = [:]
        identities(
            try client.result("carrel/tree", ["uri": .string(fx.uri("Poems")), "depth": 2]).arrayValue![0], into: &lazy)
        let all = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems/.carrel/all")), "depth": 1])
            .arrayValue![0]
        for row in all["children"]?.arrayValue ?? [] { identities(row, into: &lazy) }
        for (key, row) in lazy {
            XCTAssertEqual(full[key]?["title"], row["title"], key)
        }
        XCTAssertNotNil(
            lazy[fx.uri("Poems/.carrel/all") + "#Ready/Rain.md"], "All's rows fetched on their own keep their ids")
    }
}
