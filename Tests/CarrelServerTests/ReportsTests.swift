import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// After a command takes writing out of sight or brings it back, the server
/// says so with `window/showMessage`, in the client's language, after the
/// response and the didChange; other commands say nothing.
final class ReportsTests: ServedLibraryTestCase {
    func start(locale: String = "en", before: (Fixture) throws -> Void = { _ in }) throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/b.md = b
            P/Ready/c.md = c
            loose.md = l
            """, locale: locale, prepare: before)
    }

    /// Runs a command and returns what the server reported after it, if anything.
    func report(_ command: String, _ args: JSONValue) throws -> String? {
        _ = try takeReports()
        let response = try client.command(command, args)
        XCTAssertNil(response["error"], "\(command): \(response)")
        let shown = try takeReports()
        XCTAssertLessThanOrEqual(shown.count, 1)
        if let m = shown.first { XCTAssertEqual(m["params"]?["type"], 3, "Info") }
        return shown.first?["params"]?["message"]?.stringValue
    }

    /// Every report sent so far. A request is answered after everything
    /// sent before it, so a marker request flushes what commands sent.
    func takeReports() throws -> [JSONValue] {
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 0])
        var taken: [JSONValue] = []
        while let m = try? client.inbox.take("showMessage", timeout: 0, { $0["method"] == "window/showMessage" }) {
            taken.append(m)
        }
        return taken
    }

    func testDeleteRestoreEmptyAndSystemTrashAreReported() throws {
        try start()
        XCTAssertEqual(
            try report("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true]),
            "Moved “a.md” to the Trash.")
        XCTAssertEqual(
            try report("carrel.restore", ["uri": .string(fx.uri("P/Trash/a.md"))]), "Restored “a.md” to “Draft”.")
        XCTAssertEqual(
            try report(
                "carrel.moveTo", ["uri": .string(fx.uri("P/Draft/b.md")), "destinationUri": .string(fx.uri("P/Trash"))]),
            "Moved “b.md” to the Trash.", "a move into the Trash is a delete")
        XCTAssertEqual(
            try report("carrel.delete", ["uri": .string(fx.uri("P/Trash/b.md")), "confirmed": true]),
            "Deleted “b.md” for good.")
        XCTAssertEqual(
            try report("carrel.emptyTrash", ["projectUri": .string(fx.uri("P")), "confirmed": true]),
            "The Trash was already empty.")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true])
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Ready/c.md")), "confirmed": true])
        XCTAssertEqual(
            try report("carrel.emptyTrash", ["projectUri": .string(fx.uri("P")), "confirmed": true]),
            "Emptied the Trash: 2 items deleted for good.")
        XCTAssertEqual(
            try report("carrel.delete", ["uri": .string(fx.uri("loose.md")), "confirmed": true]),
            "Moved “loose.md” to the system trash.")
    }

    func testOtherCommandsSayNothing() throws {
        try start()
        XCTAssertNil(try report("carrel.newFolder", ["parentUri": .string(fx.uri("P/Draft")), "name": "Cycle"]))
        XCTAssertNil(try report("carrel.rename", ["uri": .string(fx.uri("P/Draft/b.md")), "newName": "d"]))
        XCTAssertNil(
            try report(
                "carrel.moveTo", ["uri": .string(fx.uri("P/Draft/d.md")), "destinationUri": .string(fx.uri("P/Ready"))])
        )
        XCTAssertNil(try report("carrel.setSort", ["uri": .string(fx.uri("P")), "by": "modified"]))
        XCTAssertNil(try report("carrel.duplicate", ["uri": .string(fx.uri("P/Ready/c.md"))]))
    }

    /// Undo and redo say what they did in the words of the operation, and
    /// say plainly when there is nothing to do.
    func testUndoAndRedoSayWhatTheyDid() throws {
        try start()
        let u = { (rel: String) -> JSONValue in .string(self.fx.uri(rel)) }
        XCTAssertEqual(try report("carrel.undo", [:]), "Nothing to undo.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Nothing to redo.")
        _ = try client.command("carrel.rename", ["uri": u("P/Draft/a.md"), "newName": "Storm"])
        XCTAssertEqual(try report("carrel.undo", [:]), "Renamed “Storm.md” back to “a.md”.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Renamed “a.md” to “Storm.md” again.")
        _ = try client.command("carrel.moveTo", ["uri": u("P/Draft/Storm.md"), "destinationUri": u("P/Ready")])
        XCTAssertEqual(try report("carrel.undo", [:]), "Moved “Storm.md” back to “Draft”.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Moved “Storm.md” to “Ready” again.")
        _ = try client.command("carrel.delete", ["uri": u("P/Ready/Storm.md"), "confirmed": true])
        XCTAssertEqual(try report("carrel.undo", [:]), "Put “Storm.md” back from the Trash.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Moved “Storm.md” to the Trash again.")
        _ = try client.command("carrel.restore", ["uri": u("P/Trash/Storm.md")])
        XCTAssertEqual(try report("carrel.undo", [:]), "Put “Storm.md” back in the Trash.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Restored “Storm.md” to “Ready” again.")
        _ = try client.command("carrel.newFile", ["parentUri": u("P/Draft"), "name": "Idea"])
        XCTAssertEqual(try report("carrel.undo", [:]), "Moved the new “Idea.md” to the Trash; Redo brings it back.")
    }

    func testUndoAndRedoOfSettingsSayWhatTheyDid() throws {
        try start()
        let u = { (rel: String) -> JSONValue in .string(self.fx.uri(rel)) }
        _ = try client.command("carrel.setSort", ["uri": u("P/Draft"), "by": "modified"])
        XCTAssertEqual(try report("carrel.undo", [:]), "Sorted “Draft” as before.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Sorted “Draft” again.")
        _ = try client.command("carrel.reorder", ["uri": u("P/Draft/b.md"), "before": u("P/Draft/a.md")])
        XCTAssertEqual(try report("carrel.undo", [:]), "Put “Draft” back in its earlier order.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Reordered “Draft” again.")
        _ = try client.command("carrel.setTarget", ["uri": u("P/Draft/a.md"), "words": 300])
        XCTAssertEqual(try report("carrel.undo", [:]), "Put back the word target of “a.md”.")
        XCTAssertEqual(try report("carrel.redo", [:]), "Set the word target of “a.md” again.")
        _ = try client.command("carrel.setConfirmDelete", ["uri": u("P"), "confirm": false])
        XCTAssertEqual(try report("carrel.undo", [:]), "Deleting in “P” now asks first.")
    }

    /// A drag inside its own folder is a move with a position there: a reorder, taken back as one.
    func testADragWithinAFolderIsUndoneAsAReorder() throws {
        try start()
        let u = { (rel: String) -> JSONValue in .string(self.fx.uri(rel)) }
        _ = try client.command(
            "carrel.moveTo", ["uri": u("P/Draft/b.md"), "destinationUri": u("P/Draft"), "before": u("P/Draft/a.md")])
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "b.md\na.md\n")
        XCTAssertEqual(try report("carrel.undo", [:]), "Put “Draft” back in its earlier order.")
    }

    func testUndoSpeaksFrench() throws {
        try start(locale: "fr")
        _ = try client.command("carrel.rename", ["uri": .string(fx.uri("P/Draft/a.md")), "newName": "Orage"])
        XCTAssertEqual(try report("carrel.undo", [:]), "« Orage.md » a repris son nom « a.md ».")
        XCTAssertEqual(try report("carrel.undo", [:]), "Rien à annuler.")
    }

    /// A duplicate says what it left out: pipes and devices hold no writing.
    func testADuplicateThatLeftSomethingOutSaysSo() throws {
        try start { fx in
            try fx.add("P/Draft/Cycle/one.md = 1")
            XCTAssertEqual(mkfifo(fx.path + "/P/Draft/Cycle/pipe", 0o644), 0)
        }
        XCTAssertEqual(
            try report("carrel.duplicate", ["uri": .string(fx.uri("P/Draft/Cycle"))]),
            "Duplicated “Cycle” as “Cycle copy”, leaving out 1 item that is not a file, folder or link.")
        XCTAssertEqual(fx.read("P/Draft/Cycle copy/one.md"), "1")
        XCTAssertFalse(fx.exists("P/Draft/Cycle copy/pipe"))
    }

    /// A snapshot says what it kept; a rollback names both snapshots, the
    /// one it went back to and the one keeping the text it replaced.
    func testSnapshotsAndRollBacksAreReported() throws {
        try start()
        XCTAssertEqual(
            try report("carrel.snapshot", ["uri": .string(fx.uri("P/Draft/a.md"))]), "Took a snapshot of “a.md”.")
        XCTAssertEqual(
            try report("carrel.snapshot", ["uri": .string(fx.uri("P/Draft"))]),
            "Took a snapshot of each of the 2 files in “Draft”.")
        let list = try client.result(
            "workspace/executeCommand",
            [
                "command": "carrel.snapshots", "arguments": [["uri": .string(fx.uri("P/Draft/a.md"))]],
            ])
        let name = list["snapshots"]?[0]?["name"]?.stringValue ?? ""
        XCTAssertNil(try report("carrel.snapshots", ["uri": .string(fx.uri("P/Draft/a.md"))]))
        let said =
            try report("carrel.rollBack", ["uri": .string(fx.uri("P/Draft/a.md")), "snapshot": .string(name)]) ?? ""
        XCTAssertTrue(
            said.hasPrefix("Rolled “a.md” back to the snapshot “\(name)”; the text it replaced is the snapshot “"), said
        )
        XCTAssertTrue(said.hasSuffix(" 1w Before rolling back.md”."), said)
    }

    /// A compile says where the document went and what it counted, in the
    /// words the writer reads the binder in: words, or a packet's lines.
    func testACompileSaysWhereTheDocumentWentAndItsWords() throws {
        try start { fx in
            try fx.add(
                """
                B/.carrel/project.json = {"type":"blank"}
                B/Opening.md = The sea was calm that night.
                """)
        }
        XCTAssertEqual(
            try report("carrel.compile", ["projectUri": .string(fx.uri("B")), "format": "markdown"]),
            "Compiled Compiled/B.md: 7 words.")
        XCTAssertTrue(fx.read("B/Compiled/B.md")?.contains("The sea was calm that night.") == true)
        XCTAssertEqual(
            try report("carrel.compile", ["projectUri": .string(fx.uri("P")), "format": "markdown"]),
            "Compiled Compiled/P.md: 1 line.", "a packet counts the lines of its poems")
    }

    func testSettingTheBylineSaysWhatTheTitlePageNowReads() throws {
        try start()
        XCTAssertEqual(
            try report(
                "carrel.setByline",
                ["projectUri": .string(fx.uri("P")), "author": "Ada Lovelace", "contact": ["1 Quay St", "ada@x.org"]]),
            "Title page of “P”: by Ada Lovelace, 2 contact lines.")
        XCTAssertEqual(
            try report("carrel.setByline", ["projectUri": .string(fx.uri("P")), "contact": ["ada@x.org"]]),
            "Title page of “P”: by Ada Lovelace, 1 contact line.", "the author left as it was")
        XCTAssertEqual(
            try report("carrel.setByline", ["projectUri": .string(fx.uri("P")), "author": "", "contact": []]),
            "Title page of “P”: no author, no contact lines.", "empty clears")
    }

    /// Turning asking on or off says where, and so does asking for what is
    /// already so: the writer learns the command was heard.
    func testLinkUpdatesAreReported() throws {
        try start()
        XCTAssertEqual(
            try report("carrel.setLinkUpdates", ["uri": .string(fx.uri("P/Draft")), "mode": "never"]),
            "Links to a moved item in “P” are no longer updated.")
        XCTAssertEqual(
            try report("carrel.setLinkUpdates", ["uri": .string(fx.uri("P")), "mode": "ask"]),
            "Links to a moved item in “P” are now updated only if you say so.")
        XCTAssertEqual(
            try report("carrel.setLinkUpdates", ["uri": .string(fx.uri("loose.md")), "mode": "always"]),
            "Links to a moved item in “\(URL(fileURLWithPath: fx.path).lastPathComponent)” are now updated without asking.",
            "outside projects, the library's")
    }

    func testAskingBeforeDeletingIsReported() throws {
        try start()
        XCTAssertEqual(
            try report("carrel.setConfirmDelete", ["uri": .string(fx.uri("P/Draft")), "confirm": true]),
            "Deleting in “P” already asks first.")
        XCTAssertEqual(
            try report("carrel.setConfirmDelete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirm": false]),
            "Deleting in “P” no longer asks first.")
        XCTAssertEqual(
            try report("carrel.setConfirmDelete", ["uri": .string(fx.uri("P")), "confirm": true]),
            "Deleting in “P” now asks first.")
        XCTAssertEqual(
            try report("carrel.setConfirmDelete", ["uri": .string(fx.uri("loose.md")), "confirm": true]),
            "Deleting in “\(URL(fileURLWithPath: fx.path).lastPathComponent)” already asks first.",
            "outside projects, the library's")
    }

    func testReportsAreInTheClientsLanguage() throws {
        try start(locale: "fr")
        XCTAssertEqual(
            try report("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true]),
            "« a.md » est dans la Corbeille.")
        XCTAssertEqual(
            try report("carrel.restore", ["uri": .string(fx.uri("P/Trash/a.md"))]),
            "« a.md » est restauré dans « Brouillons ».")
    }

    /// The report comes last: a client has the new rows before it speaks.
    func testTheReportFollowsTheResponseAndTheChange() throws {
        try start()
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true])
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 0])
        let methods = client.inbox.pending.compactMap { $0["method"]?.stringValue }
        XCTAssertEqual(
            methods.filter { ["carrel/didChange", "window/showMessage"].contains($0) },
            ["carrel/didChange", "window/showMessage"])
    }

    /// Submissions tracking reports what it recorded, a deadline within a
    /// week, where an accepted piece is still out, and what it withdrew.
    func testSubmissionsAreReported() throws {
        try start { try $0.add("P/Magazines/Granta/\nP/Magazines/Review/") }
        XCTAssertEqual(
            try report(
                "carrel.setMarket",
                ["uri": .string(fx.uri("P/Magazines/Granta")), "fields": ["deadline": "2026-11-25"]]),
            "Saved the details of “Granta”.")
        func submit(_ market: String) throws -> String? {
            try report(
                "carrel.submit",
                [
                    "items": [.string(fx.uri("P/Draft/a.md"))], "marketUri": .string(fx.uri(market)),
                    "date": "2026-11-20",
                ])
        }
        XCTAssertEqual(
            try submit("P/Magazines/Granta"),
            "Submitted “a.md” to “Granta” on 2026-11-20. Its deadline is 2026-11-25, in 5 days.")
        XCTAssertEqual(try submit("P/Magazines/Review"), "Submitted “a.md” to “Review” on 2026-11-20.")
        let listed = try client.result("carrel/submissions", ["uri": .string(fx.uri("P/Magazines/Granta"))])
        let id = try XCTUnwrap(listed["submissions"]?[0]?["id"])
        XCTAssertEqual(
            try report("carrel.setSubmissionStatus", ["record": id, "status": "accepted"]),
            "“a.md” at “Granta”: accepted. It is still out at “Review”: withdraw it there (Withdraw Others). Move it to “Published” once it is published."
        )
        XCTAssertEqual(try report("carrel.withdrawOthers", ["record": id]), "Withdrew “a.md” from “Review”.")
        XCTAssertEqual(try report("carrel.withdrawOthers", ["record": id]), "“a.md” was out nowhere else.")
    }
}
