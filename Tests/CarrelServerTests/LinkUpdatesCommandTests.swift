import CarrelJSON
import CarrelTestSupport
import XCTest

/// Editors set whether a move's broken links are updated: `carrel.setLinkUpdates`
/// writes the project's mode to project.json (the library's outside
/// projects to this device), the rows say the mode in force, and the
/// writer is told in words.
final class LinkUpdatesCommandTests: ServedLibraryTestCase {
    override func setUpWithError() throws {
        try serve(
            """
            My Novel/.carrel/project.json = {"type":"novel"}
            My Novel/Draft/One.md = See [Ada](Ada.md).
            My Novel/Draft/Ada.md = Ada.
            loose/x.md = x
            """)
    }

    func set(_ relative: String, _ mode: JSONValue) throws -> JSONValue {
        try client.command("carrel.setLinkUpdates", ["uri": .string(fx.uri(relative)), "mode": mode])
    }

    func testAProjectsModeIsWrittenToProjectJSONAndShownOnItsRow() throws {
        XCTAssertNil(try row("My Novel")["linkUpdates"], "asking is the default, and then the field is left out")
        let answer = try set("My Novel/Draft/One.md", "always")
        XCTAssertEqual(
            answer["result"]?["uri"], .string(fx.uri("My Novel")), "answers the project the setting belongs to")
        XCTAssertEqual(answer["result"]?["linkUpdates"], "always")
        let json = try JSONParser.parse(Array(try XCTUnwrap(fx.read("My Novel/.carrel/project.json")).utf8))
        XCTAssertEqual(json["preferences"]?["linkUpdates"]?["value"], "always")
        let said = try client.inbox.take("the report") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(
            said["params"]?["message"], "Links to a moved item in “My Novel” are now updated without asking.")

        _ = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("My Novel/Draft/Ada.md")), "newName": "Ada Lovelace.md"])
        _ = try client.result("carrel/tree", ["depth": 0])
        XCTAssertEqual(client.asked.count, 0, "always updates without asking")
        XCTAssertEqual(try fx.read("My Novel/Draft/One.md"), "See [Ada](Ada%20Lovelace.md).")

        _ = try set("My Novel", "ask")
        XCTAssertNil(try row("My Novel")["linkUpdates"])
    }

    func testTheLibrarysModeOutsideProjects() throws {
        let answer = try set("loose", "never")
        XCTAssertEqual(answer["result"]?["uri"], .string(fx.uri()))
        XCTAssertEqual(
            try client.result("carrel/tree", ["uri": .string(fx.uri()), "depth": 0]).arrayValue![0]["linkUpdates"],
            "never")
        XCTAssertNil(try row("My Novel")["linkUpdates"], "a project keeps its own")
    }

    func testTheModeIsRequiredAndOneOfThree() throws {
        let before = try fx.read("My Novel/.carrel/project.json")
        let missing = try client.command("carrel.setLinkUpdates", ["uri": .string(fx.uri("My Novel"))])
        XCTAssertEqual(missing["error"]?["data"]?["field"], "mode")
        XCTAssertEqual(try set("My Novel", true)["error"]?["code"], -32602)
        let unknown = try set("My Novel", "sometimes")
        XCTAssertEqual(unknown["error"]?["code"], -32602)
        XCTAssertEqual(try fx.read("My Novel/.carrel/project.json"), before, "nothing changed")
    }
}
