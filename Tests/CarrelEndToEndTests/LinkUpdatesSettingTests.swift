import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// The real server over pipes follows the setting `carrel links` keeps in
/// project.json: "always" updates a rename's links without asking, "never"
/// neither asks nor changes them, and "ask", the default, asks.
final class LinkUpdatesSettingTests: XCTestCase {
    var fx: Fixture!
    var home: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        home = try Fixture()
        cli = try CLIRunner()
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/One.md = Meet [Ada](Characters/Ada.md#kid).
            """)
    }

    func server() throws -> ProcessClient {
        let c = try ProcessClient(home: home)
        _ = try c.initialize([fx.uri()])
        c.answer = .title("Don't Update")
        return c
    }

    func renameAda(_ c: ProcessClient) throws {
        let r = try c.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Novel/Characters/Ada.md")), "newName": "Ada Lovelace"])
        XCTAssertNil(r["error"])
        // Whatever the rename asks comes before this answer, and is answered "Don't Update".
        _ = try c.result("carrel/tree", ["depth": 0])
    }

    func one() throws -> String { try String(contentsOf: fx.url("P/Novel/One.md"), encoding: .utf8) }

    func testAlwaysUpdatesWithoutAsking() throws {
        XCTAssertEqual(cli.run(["links", "P", "always"], in: fx.path).status, 0)
        let c = try server()
        try renameAda(c)
        let said = try c.inbox.take("the report") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(said["params"]?["message"], "Updated 1 link in 1 file.")
        XCTAssertEqual(c.asked.count, 0, "nothing asked")
        XCTAssertEqual(try one(), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
    }

    func testNeverNeitherAsksNorUpdates() throws {
        XCTAssertEqual(cli.run(["links", "P", "never"], in: fx.path).status, 0)
        let c = try server()
        try renameAda(c)
        XCTAssertEqual(c.asked.count, 0, "nothing asked")
        XCTAssertFalse(c.inbox.pending.contains { $0["method"] == "window/showMessage" })
        XCTAssertEqual(try one(), "Meet [Ada](Characters/Ada.md#kid).")
    }

    func testAskIsTheDefault() throws {
        let c = try server()
        try renameAda(c)
        XCTAssertEqual(c.asked.map { $0["params"]?["message"] }, ["1 link in 1 file points to “Ada.md”: update it?"])
        XCTAssertEqual(try one(), "Meet [Ada](Characters/Ada.md#kid).")
    }

    /// Two machines set it at once and Syncthing kept both versions: the
    /// later change wins, as every setting of project.json.
    func testTheLaterModeWinsWhenSyncKeptBothVersions() throws {
        func project(_ mode: String, _ changed: Int) -> String {
            #"{"type":"novel","preferences":{"linkUpdates":{"changed":\#(changed),"value":"\#(mode)"}}}"#
        }
        try project("never", 5).write(toFile: fx.path + "/P/.carrel/project.json", atomically: false, encoding: .utf8)
        try project("always", 9).write(
            toFile: fx.path + "/P/.carrel/project.sync-conflict-20261123-101500-ABCDEFG.json", atomically: false,
            encoding: .utf8)
        let c = try server()
        try renameAda(c)
        XCTAssertEqual(c.asked.count, 0, "nothing asked")
        XCTAssertEqual(try one(), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
        let merged = try JSONParser.parse(Array(XCTUnwrap(fx.read("P/.carrel/project.json")).utf8))
        XCTAssertEqual(merged["preferences"]?["linkUpdates"], ["changed": 9, "value": "always"])
    }
}
