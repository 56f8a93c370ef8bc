import CarrelJSON
import CarrelTestSupport
import XCTest

/// "Delete and Don't Ask Again" can be undone: `carrel.setConfirmDelete`
/// turns the question back on, per project or per library, and the project
/// and library rows say whether deleting asks first.
final class ConfirmDeleteSettingTests: ServedLibraryTestCase {
    override func setUpWithError() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/b.md = b
            P/Draft/c.md = c
            loose/x.md = x
            loose/y.md = y
            """)
    }

    func delete(_ relative: String) throws -> JSONValue {
        try client.command("carrel.delete", ["uri": .string(fx.uri(relative))])
    }

    func testAProjectAsksAgainAfterSetConfirmDelete() throws {
        XCTAssertNil(try row("P")["confirmDelete"], "asking is the default, and then the field is left out")
        client.answer = .title("Delete and Don't Ask Again")
        XCTAssertNotNil(try delete("P/Draft/a.md")["result"])
        XCTAssertEqual(try row("P")["confirmDelete"], false)
        client.asked = []
        XCTAssertNotNil(try delete("P/Draft/b.md")["result"])
        XCTAssertEqual(client.asked.count, 0, "no question once asked not to")

        let answer = try client.command(
            "carrel.setConfirmDelete", ["uri": .string(fx.uri("P/Draft")), "confirm": true])
        XCTAssertEqual(answer["result"]?["uri"], .string(fx.uri("P")), "answers the project the setting belongs to")
        XCTAssertNil(answer["result"]?["confirmDelete"])
        client.answer = .title("Cancel")
        XCTAssertEqual(try delete("P/Draft/c.md")["error"]?["data"]?["reason"], "cancelled")
        XCTAssertEqual(client.asked.count, 1, "asked again")
        XCTAssertTrue(fx.exists("P/Draft/c.md"))
    }

    /// Outside projects the setting is the library's, kept in the state
    /// folder, so a new server remembers it.
    func testALibraryAsksAgainAndRemembersIt() throws {
        _ = try client.command("carrel.setConfirmDelete", ["uri": .string(fx.uri("loose")), "confirm": false])
        XCTAssertEqual(try row("")["confirmDelete"], false)
        let again = InProcessClient()
        _ = try again.initialize([fx.uri()])
        XCTAssertEqual(
            try again.result("carrel/tree", ["uri": .string(fx.uri()), "depth": 0]).arrayValue![0]["confirmDelete"],
            false)
        _ = try again.command("carrel.setConfirmDelete", ["uri": .string(fx.uri()), "confirm": true])
        XCTAssertNil(
            try again.result("carrel/tree", ["uri": .string(fx.uri()), "depth": 0]).arrayValue![0]["confirmDelete"])
    }

    /// Asking for what is already so writes nothing and tells no client of
    /// a change: no needless edit of `project.json` to sync or merge.
    func testAlreadyAskingWritesNothing() throws {
        let before = try fx.read("P/.carrel/project.json")
        let answer = try client.command("carrel.setConfirmDelete", ["uri": .string(fx.uri("P")), "confirm": true])
        XCTAssertEqual(answer["result"]?["uri"], .string(fx.uri("P")))
        _ = try row("P")
        XCTAssertEqual(try fx.read("P/.carrel/project.json"), before)
        XCTAssertNil(
            try? client.inbox.take("didChange", timeout: 0, { $0["method"] == "carrel/didChange" }),
            "nothing changed, so nothing to refetch")
    }

    func testConfirmIsRequiredAndABoolean() throws {
        let missing = try client.command("carrel.setConfirmDelete", ["uri": .string(fx.uri("P"))])
        XCTAssertEqual(missing["error"]?["data"]?["field"], "confirm")
        let wrong = try client.command("carrel.setConfirmDelete", ["uri": .string(fx.uri("P")), "confirm": "yes"])
        XCTAssertEqual(wrong["error"]?["code"], -32602)
        XCTAssertNil(try row("P")["confirmDelete"], "nothing changed")
    }
}
