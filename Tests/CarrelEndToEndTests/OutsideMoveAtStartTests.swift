import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A shell's `mv` made as soon as `initialize` is answered, before the
/// client's `initialized` reaches the server, is a move the server sees and
/// offers the links' update for: an editor's `initialized` can come a
/// moment later than a writer's first rename.
final class OutsideMoveAtStartTests: XCTestCase {
    var home: Fixture!
    var fx: Fixture!
    var c: ProcessClient!

    override func setUpWithError() throws {
        home = try Fixture()
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = See [[Ada]] and [her](Ada.md).
            P/Novel/One.md = Meet [Ada](Characters/Ada.md#kid).
            P/Notes.md = Start at [one](Novel/One.md).
            """)
        c = try ProcessClient(home: home)
    }

    override func tearDown() {
        c = nil
        fx = nil
        home = nil
        super.tearDown()
    }

    /// The scan held, as a large library's deep folders wait for it: a
    /// rename in a folder not read yet is still seen as one move.
    func testAShellMvInAFolderNotReadYetIsOfferedTheUpdate() throws {
        c = try ProcessClient(
            environment: ["XDG_STATE_HOME": home.path + "/state", "HOME": home.path, "CARREL_HOLD_SCAN": "reads"])
        _ = try c.initialize([fx.uri()])
        XCTAssertEqual(fx.sh("mv One.md 'Chapter One.md'", in: "P/Novel"), 0)
        let question = try c.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(
            question["params"]?["message"], "1 link in 1 file points to the old place of “One.md”: update it?")
    }

    func testAShellMvBeforeInitializedIsOfferedTheUpdate() throws {
        _ = try c.result(
            "initialize",
            ["processId": .null, "capabilities": [:], "workspaceFolders": [["uri": .string(fx.uri()), "name": "W"]]])
        XCTAssertEqual(fx.sh("mv Ada.md 'Ada Lovelace.md'", in: "P/Novel/Characters"), 0)
        c.notify("initialized")
        let question = try c.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(
            question["params"]?["message"], "3 links in 2 files point to the old place of “Ada.md”: update them?")
        c.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": "Update Links"]])
        let said = try c.inbox.take("the report") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(said["params"]?["message"], "Updated 3 links in 2 files.")
        XCTAssertEqual(
            try String(contentsOf: fx.url("P/Novel/One.md"), encoding: .utf8),
            "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
    }
}
