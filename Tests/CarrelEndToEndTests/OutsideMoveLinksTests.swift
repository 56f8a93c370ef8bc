import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A rename made by another program on this machine (a shell's `mv`) under
/// the running server is offered the links' update a rename through Carrel
/// gets; one that arrives by sync, through Syncthing's temporary, is not.
final class OutsideMoveLinksTests: ProcessLibraryTestCase {
    override func setUpWithError() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = See [[Ada]] and [her](Ada.md).
            P/Novel/One.md = Meet [Ada](Characters/Ada.md#kid).
            """)
    }

    /// Builds the index before the move, as an editor's first link request does.
    func askForLinks() throws {
        _ = try c.result("textDocument/documentLink", ["textDocument": ["uri": .string(fx.uri("P/Novel/One.md"))]])
    }

    func sh(_ command: String) { XCTAssertEqual(fx.sh(command, in: "P/Novel/Characters"), 0, command) }

    func read(_ relative: String) throws -> String { try String(contentsOf: fx.url(relative), encoding: .utf8) }

    func testAShellMvIsOfferedTheUpdate() throws {
        try askForLinks()
        try shellRenameIsOfferedAndUpdated()
    }

    /// With no index yet, the links as they were are read from the files where they are now.
    /// The whole tree is asked for first, which waits for the first scan and asks for no link:
    /// a rename in a folder below one the scan has not reached is a limit PROTOCOL.md states,
    /// which `OutsideMoveAtStartTests` covers where it is met.
    func testAShellMvIsOfferedTheUpdateBeforeAnyLinkRequest() throws {
        _ = try c.result("carrel/tree")
        try shellRenameIsOfferedAndUpdated()
    }

    func shellRenameIsOfferedAndUpdated() throws {
        sh("mv Ada.md 'Ada Lovelace.md'")
        let question = try c.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(
            question["params"]?["message"], "3 links in 2 files point to the old place of “Ada.md”: update them?")
        XCTAssertEqual(question["params"]?["actions"], [["title": "Don't Update"], ["title": "Update Links"]])
        c.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": "Update Links"]])
        let said = try c.inbox.take("the report") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(said["params"]?["message"], "Updated 3 links in 2 files.")
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), "See [[Ada Lovelace]] and [her](Ada%20Lovelace.md).")
    }

    func testARenameThatArrivedThroughSyncthingsTemporaryIsNotOffered() throws {
        try askForLinks()
        sh("mv Ada.md '.syncthing.Ada Lovelace.md.tmp' && mv '.syncthing.Ada Lovelace.md.tmp' 'Ada Lovelace.md'")
        _ = try c.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        // A question would have gone out with the batch, before this answer.
        _ = try c.result("carrel/tree", ["depth": 0])
        XCTAssertFalse(c.inbox.pending.contains { $0["method"] == "window/showMessageRequest" })
        XCTAssertEqual(c.asked.count, 0)
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid).")
    }

    func testNeverIsNotOffered() throws {
        XCTAssertEqual(try CLIRunner().run(["links", "P", "never"], in: fx.path).status, 0)
        sh("mv Ada.md 'Ada Lovelace.md'")
        _ = try c.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        _ = try c.result("carrel/tree", ["depth": 0])
        XCTAssertFalse(c.inbox.pending.contains { $0["method"] == "window/showMessageRequest" })
        XCTAssertEqual(c.asked.count, 0)
    }
}
