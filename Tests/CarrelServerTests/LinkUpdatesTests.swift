import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A rename or move made through Carrel asks, then keeps the links it broke
/// true: closed files rewritten on disk only when unchanged since read, open
/// buffers edited through the client, and the writer told what was not.
final class LinkUpdatesTests: ServedLibraryTestCase {
    func start(applyEdit: Bool = false) throws {
        try serveStock(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = See [[Ada]] and [her](Ada.md).
            P/Novel/One.md = Meet [Ada](Characters/Ada.md#kid).
            """, capabilities: applyEdit ? ["workspace": ["applyEdit": true]] : [:])
    }

    func read(_ relative: String) throws -> String { try String(contentsOf: fx.url(relative), encoding: .utf8) }

    func renameAda() throws -> JSONValue {
        let r = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Novel/Characters/Ada.md")), "newName": "Ada Lovelace"])
        XCTAssertNil(r["error"])
        return try client.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
    }

    func answer(_ question: JSONValue, _ title: String) {
        client.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": .string(title)]])
    }

    func shown() throws -> String {
        try client.inbox.take("a message") { $0["method"] == "window/showMessage" }["params"]?["message"]?.stringValue
            ?? ""
    }

    func testRenameAsksThenRewritesClosedFiles() throws {
        try start()
        let question = try renameAda()
        XCTAssertEqual(question["params"]?["message"], "3 links in 2 files point to “Ada.md”: update them?")
        XCTAssertEqual(question["params"]?["actions"], [["title": "Don't Update"], ["title": "Update Links"]])
        answer(question, "Update Links")
        XCTAssertEqual(try shown(), "Updated 3 links in 2 files.")
        XCTAssertEqual(
            try read("P/Novel/Characters/Bea.md"), "See [[Ada Lovelace]] and [her](Ada%20Lovelace.md).")
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
        // No temporary left beside them.
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fx.path + "/P/Novel/Characters").sorted(),
            ["Ada Lovelace.md", "Bea.md"])
    }

    func testDontUpdateWritesNothing() throws {
        try start()
        answer(try renameAda(), "Don't Update")
        _ = try client.result("carrel/tree", ["depth": 0])
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid).")
        XCTAssertFalse(client.inbox.pending.contains { $0["method"] == "window/showMessage" })
    }

    /// A file written by another program after it was read is left as that program wrote it.
    func testAFileChangedMeanwhileIsRefusedAndNamed() throws {
        try start()
        let question = try renameAda()
        try "Meet [Ada](Characters/Ada.md#kid). And more.".write(
            to: fx.url("P/Novel/One.md"), atomically: false, encoding: .utf8)
        answer(question, "Update Links")
        XCTAssertEqual(try shown(), "Updated 2 links in 1 file.")
        XCTAssertTrue(try shown().hasPrefix("The links in “One.md” were not updated"))
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid). And more.")
    }

    /// An open buffer is edited through the client, never on disk; a refusal is told.
    func testOpenBufferGetsApplyEditAndAppliedFalseIsTold() throws {
        try start(applyEdit: true)
        let uri = fx.uri("P/Novel/One.md")
        client.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(uri), "languageId": "markdown", "version": 1,
                    "text": "Unsaved: [[Ada]] [a](Characters/Ada.md)",
                ]
            ])
        let question = try renameAda()
        XCTAssertEqual(question["params"]?["message"], "4 links in 2 files point to “Ada.md”: update them?")
        answer(question, "Update Links")
        let apply = try client.inbox.take("applyEdit") { $0["method"] == "workspace/applyEdit" }
        XCTAssertEqual(
            apply["params"]?["edit"]?["changes"]?[uri]?.arrayValue?.map { $0["newText"] },
            ["Ada Lovelace", "Characters/Ada%20Lovelace.md"])
        client.send(["jsonrpc": "2.0", "id": apply["id"]!, "result": ["applied": false]])
        XCTAssertEqual(try shown(), "Updated 2 links in 1 file.")
        XCTAssertTrue(try shown().hasPrefix("The links in “One.md” were not updated"))
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid).")
    }

    /// A client that cannot apply edits has its open buffers left alone, and is told.
    func testOpenBufferWithoutApplyEditIsNeverWritten() throws {
        try start()
        client.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(fx.uri("P/Novel/One.md")), "languageId": "markdown", "version": 1,
                    "text": "Unsaved [Ada](Characters/Ada.md)",
                ]
            ])
        answer(try renameAda(), "Update Links")
        XCTAssertEqual(try shown(), "Updated 2 links in 1 file.")
        XCTAssertTrue(try shown().hasPrefix("The links in “One.md” were not updated"))
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid).")
    }

    /// A move of the linking file carries its own relative links; a move to the Trash changes nothing.
    func testMoveRewritesTheMovedFilesLinksAndTrashDoesNot() throws {
        try start()
        _ = try client.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("P/Novel/One.md")), "destinationUri": .string(fx.uri("P/Novel/Characters"))])
        let question = try client.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        answer(question, "Update Links")
        XCTAssertEqual(try shown(), "Updated 1 link in 1 file.")
        XCTAssertEqual(try read("P/Novel/Characters/One.md"), "Meet [Ada](Ada.md#kid).")
        client.answer = .title("Delete")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Novel/Characters/Ada.md"))])
        _ = try client.result("carrel/tree", ["depth": 0])
        XCTAssertFalse(client.inbox.pending.contains { $0["method"] == "window/showMessageRequest" })
    }
}
