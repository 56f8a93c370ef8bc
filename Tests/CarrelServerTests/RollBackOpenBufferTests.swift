import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A rollback over the wire is refused while the client holds the file
/// open with unsaved changes (the server knows them from didChange), and
/// goes ahead once they are saved or closed.
final class RollBackOpenBufferTests: ServedLibraryTestCase {
    override func setUpWithError() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = the first line
            """)
    }

    func testUnsavedChangesRefuseThenClosingAllows() throws {
        let spring = JSONValue.string(fx.uri("P/Draft/Spring.md"))
        let taken = try client.command("carrel.snapshot", ["uri": spring])["result"]!
        let name = taken["snapshots"]?[0]?["name"] ?? .null
        try "the second line".write(toFile: fx.path + "/P/Draft/Spring.md", atomically: false, encoding: .utf8)
        client.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": spring, "languageId": "markdown", "version": 1, "text": "the second line, more"]])
        let refused = try client.command("carrel.rollBack", ["uri": spring, "snapshot": name])
        XCTAssertEqual(refused["error"]?["data"]?["reason"], "conflict", "\(refused)")
        XCTAssertEqual(
            refused["error"]?["message"],
            "“Spring.md” has unsaved changes in your editor. Save or discard them, then roll back.")
        XCTAssertEqual(fx.read("P/Draft/Spring.md"), "the second line")
        client.notify("textDocument/didClose", ["textDocument": ["uri": spring]])
        let rolled = try client.command("carrel.rollBack", ["uri": spring, "snapshot": name])
        XCTAssertNil(rolled["error"], "\(rolled)")
        XCTAssertEqual(fx.read("P/Draft/Spring.md"), "the first line")
    }
}
