import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Undo of a rename or move through the real `carrel lsp` takes back the
/// link edits it made (closed files on disk, open buffers through the
/// editor) and redo makes them again; a file whose link was edited since
/// refuses the whole undo, and nothing changes.
final class UndoLinksOverStdioTests: XCTestCase {
    var fx: Fixture!
    var home: Fixture!
    var c: ProcessClient!

    let bea = "See [[Ada]] and [her](Ada.md)."
    let one = "Meet [Ada](Characters/Ada.md#kid)."
    let beaAfter = "See [[Ada Lovelace]] and [her](Ada%20Lovelace.md)."
    let oneAfter = "Meet [Ada](Characters/Ada%20Lovelace.md#kid)."

    override func setUpWithError() throws {
        home = try Fixture()
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = \(bea)
            P/Novel/One.md = \(one)
            """)
        c = try ProcessClient(environment: ["XDG_STATE_HOME": home.path + "/state", "HOME": home.path])
        _ = try c.result(
            "initialize",
            [
                "processId": .null, "rootUri": .string(fx.uri()),
                "capabilities": ["workspace": ["applyEdit": true]],
            ])
        c.notify("initialized")
    }

    override func tearDown() {
        c?.closeInput()
        _ = c?.waitForExit()
        c = nil
        fx = nil
        home = nil
    }

    func read(_ relative: String) throws -> String { try String(contentsOf: fx.url(relative), encoding: .utf8) }

    func uri(_ relative: String) -> JSONValue { .string(fx.uri(relative)) }

    func shown() throws -> String {
        try c.inbox.take("a message") { $0["method"] == "window/showMessage" }["params"]?["message"]?.stringValue
            ?? ""
    }

    /// A rename of Ada.md whose link updates the writer accepts.
    func renameAdaUpdatingLinks() throws {
        let renamed = try c.command(
            "carrel.rename", ["uri": uri("P/Novel/Characters/Ada.md"), "newName": "Ada Lovelace"])
        XCTAssertNil(renamed["error"], renamed.text())
        let question = try c.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        c.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": "Update Links"]])
    }

    func testUndoOfARenamePutsItsLinksBackAndRedoMakesThemAgain() throws {
        try renameAdaUpdatingLinks()
        XCTAssertEqual(try shown(), "Updated 3 links in 2 files.")
        XCTAssertEqual(try read("P/Novel/One.md"), oneAfter)

        let undone = try c.command("carrel.undo", [:])
        XCTAssertEqual(undone["result"]?["uri"], uri("P/Novel/Characters/Ada.md"), undone.text())
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), bea)
        XCTAssertEqual(try read("P/Novel/One.md"), one)

        let redone = try c.command("carrel.redo", [:])
        XCTAssertEqual(redone["result"]?["uri"], uri("P/Novel/Characters/Ada Lovelace.md"), redone.text())
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), beaAfter)
        XCTAssertEqual(try read("P/Novel/One.md"), oneAfter)

        // Redo's step holds the links too: undoing it again puts them back again.
        _ = try c.command("carrel.undo", [:])
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), bea)
        XCTAssertEqual(try read("P/Novel/One.md"), one)
        // A snapshot of each file's text was taken before Carrel replaced it.
        let snapshots = try FileManager.default.contentsOfDirectory(
            atPath: fx.path + "/P/.carrel/snapshots/Novel/One.md")
        XCTAssertTrue(snapshots.contains { $0.hasSuffix("Before updating links.md") }, "\(snapshots)")
    }

    /// The moved file's own relative links are rewritten by the move, and
    /// back by its undo; Carrel's rewrite does not count as a change since.
    func testUndoOfAMoveTakesBackTheMovedFilesOwnLinks() throws {
        XCTAssertEqual(try CLIRunner().run(["links", "P", "always"], in: fx.path).status, 0)
        let moved = try c.command(
            "carrel.moveTo", ["uri": uri("P/Novel/One.md"), "destinationUri": uri("P/Novel/Characters")])
        XCTAssertNil(moved["error"], moved.text())
        _ = try c.inbox.take("the update") {
            $0["method"] == "window/showMessage"
                && $0["params"]?["message"]?.stringValue?.hasPrefix("Updated") == true
        }
        XCTAssertEqual(try read("P/Novel/Characters/One.md"), "Meet [Ada](Ada.md#kid).")

        let undone = try c.command("carrel.undo", [:])
        XCTAssertEqual(undone["result"]?["uri"], uri("P/Novel/One.md"), undone.text())
        XCTAssertEqual(try read("P/Novel/One.md"), one)
        let redone = try c.command("carrel.redo", [:])
        XCTAssertNil(redone["error"], redone.text())
        XCTAssertEqual(try read("P/Novel/Characters/One.md"), "Meet [Ada](Ada.md#kid).")
    }

    /// Undo never takes back half a step: a file whose link was edited
    /// since refuses it whole, and the step is dropped.
    func testALinkEditedSinceRefusesTheWholeUndo() throws {
        try renameAdaUpdatingLinks()
        XCTAssertEqual(try shown(), "Updated 3 links in 2 files.")
        try "Meet [Ada](Characters/Ada%20L.md#kid).".write(
            to: fx.url("P/Novel/One.md"), atomically: false, encoding: .utf8)
        let refused = try c.command("carrel.undo", [:])
        XCTAssertEqual(refused["error"]?["data"]?["reason"], "conflict", refused.text())
        XCTAssertEqual(
            refused["error"]?["message"],
            "The links Carrel updated in “P/Novel/One.md” were edited since, or the file is gone; undoing the move would leave them pointing nowhere. That step was dropped and nothing was changed."
        )
        XCTAssertTrue(fx.exists("P/Novel/Characters/Ada Lovelace.md"))
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), beaAfter)
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada%20L.md#kid).")
        let next = try c.command("carrel.undo", [:])
        XCTAssertEqual(next["result"]?["uri"], uri(""), "the step went: nothing left to undo")
        XCTAssertTrue(fx.exists("P/Novel/Characters/Ada Lovelace.md"))
    }

    /// A buffer open in an editor that cannot take edits refuses the undo,
    /// and keeps the step for when it is closed.
    func testABufferInAnEditorWithoutApplyEditRefusesTheUndoAndKeepsTheStep() throws {
        try renameAdaUpdatingLinks()
        XCTAssertEqual(try shown(), "Updated 3 links in 2 files.")
        c.closeInput()
        _ = c.waitForExit()
        c = try ProcessClient(environment: ["XDG_STATE_HOME": home.path + "/state", "HOME": home.path])
        _ = try c.initialize([fx.uri()])
        let one = uri("P/Novel/One.md")
        c.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": one, "languageId": "markdown", "version": 1, "text": .string(oneAfter)]])
        let refused = try c.command("carrel.undo", [:])
        XCTAssertEqual(refused["error"]?["data"]?["reason"], "conflict", refused.text())
        XCTAssertTrue(
            refused["error"]?["message"]?.stringValue?.hasPrefix(
                "“P/Novel/One.md” is open in an editor that cannot take Carrel’s edits") == true, refused.text())
        XCTAssertTrue(fx.exists("P/Novel/Characters/Ada Lovelace.md"))
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), beaAfter)
        c.notify("textDocument/didClose", ["textDocument": ["uri": one]])
        let undone = try c.command("carrel.undo", [:])
        XCTAssertEqual(undone["result"]?["uri"], uri("P/Novel/Characters/Ada.md"), undone.text())
        XCTAssertEqual(try read("P/Novel/One.md"), self.one)
    }

    /// A rename of Ada.md updating links while One.md is open: the editor
    /// applies its edits, so its buffer holds the new text, unsaved.
    func renameAdaWithOneOpen() throws {
        let one = uri("P/Novel/One.md")
        c.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": one, "languageId": "markdown", "version": 1, "text": .string(self.one)]])
        try renameAdaUpdatingLinks()
        let apply = try c.inbox.take("applyEdit") { $0["method"] == "workspace/applyEdit" }
        c.send(["jsonrpc": "2.0", "id": apply["id"]!, "result": ["applied": true]])
        c.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": one, "version": 2], "contentChanges": [["text": .string(oneAfter)]]])
        XCTAssertEqual(try shown(), "Updated 3 links in 2 files.")
    }

    /// An open buffer's links go back through the editor, never on disk.
    func testAnOpenBufferGetsItsLinksBackThroughTheEditor() throws {
        try renameAdaWithOneOpen()
        let undone = try c.command("carrel.undo", [:])
        XCTAssertNil(undone["error"], undone.text())
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), bea)
        let back = try c.inbox.take("applyEdit") { $0["method"] == "workspace/applyEdit" }
        XCTAssertEqual(
            back["params"]?["edit"]?["changes"]?[fx.uri("P/Novel/One.md")]?.arrayValue?.map { $0["newText"] },
            ["Characters/Ada.md"])
        c.send(["jsonrpc": "2.0", "id": back["id"]!, "result": ["applied": true]])
        XCTAssertEqual(try read("P/Novel/One.md"), self.one, "the disk was never written")
    }

    /// An editor that does not apply the edits has its file named.
    func testABufferTheEditorDidNotChangeIsNamed() throws {
        try renameAdaWithOneOpen()
        XCTAssertNil(try c.command("carrel.undo", [:])["error"])
        let back = try c.inbox.take("applyEdit") { $0["method"] == "workspace/applyEdit" }
        c.send(["jsonrpc": "2.0", "id": back["id"]!, "result": ["applied": false]])
        let said = try c.inbox.take("the file named") {
            $0["method"] == "window/showMessage"
                && $0["params"]?["message"]?.stringValue?.hasPrefix("Undo left the links in “One.md” as they are")
                    == true
        }
        XCTAssertNotNil(said)
        XCTAssertEqual(try read("P/Novel/Characters/Bea.md"), bea)
    }
}
