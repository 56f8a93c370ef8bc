import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A command acts on the disk as it was when the command was sent: a file
/// another program wrote a moment before a rename is in the links the
/// rename keeps true, though the watcher has not yet handed its event on.
final class LinksOfAFreshFileTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!
    var home: Fixture!

    override func setUpWithError() throws {
        home = try Fixture()
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/One.md = Meet [Ada](Characters/Ada.md).
            """)
        client = InProcessClient()
        _ = try client.result(
            "initialize", ["capabilities": [:], "workspaceFolders": [["uri": .string(fx.uri()), "name": "W"]]])
        client.notify("initialized")
        _ = try client.result("carrel/tree", ["depth": 0])
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        client = nil
        fx = nil
        home = nil
    }

    func read(_ relative: String) throws -> String { try String(contentsOf: fx.url(relative), encoding: .utf8) }

    func testAFileWrittenJustBeforeARenameHasItsLinkUpdated() throws {
        try "Cid knows [her](Characters/Ada.md).".write(
            to: fx.url("P/Novel/Cid.md"), atomically: false, encoding: .utf8)
        let r = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Novel/Characters/Ada.md")), "newName": "Ada Lovelace"])
        XCTAssertNil(r["error"])
        let question = try client.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(question["params"]?["message"], "2 links in 2 files point to “Ada.md”: update them?")
        client.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": "Update Links"]])
        let shown = try client.inbox.take("the report") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(shown["params"]?["message"], "Updated 2 links in 2 files.")
        XCTAssertEqual(try read("P/Novel/Cid.md"), "Cid knows [her](Characters/Ada%20Lovelace.md).")
    }
}
