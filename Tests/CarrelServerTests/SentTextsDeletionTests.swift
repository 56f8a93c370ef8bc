import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A piece's text as sent is a snapshot, which goes when the piece is
/// deleted for good: the question says so, so the writer is never left
/// without the record of what was sent unawares.
final class SentTextsDeletionTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!
    var home: Fixture!

    func start(locale: String = "en") throws {
        home = try Fixture()
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea sea
            P/Draft/Moon.md = moon
            P/Draft/Old/Tide.md = tide
            P/Magazines/Granta/
            P/Magazines/Review/
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()], locale: locale)
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        client = nil
        fx = nil
        home = nil
    }

    func send(_ piece: String, to market: String) throws {
        let r = try client.command(
            "carrel.submit",
            [
                "items": [.string(fx.uri(piece))], "marketUri": .string(fx.uri(market)), "date": "2026-11-20",
                "confirmed": true,
            ])
        XCTAssertNil(r["error"])
    }

    func toTrash(_ relative: String) throws {
        let r = try client.command("carrel.delete", ["uri": .string(fx.uri(relative)), "confirmed": true])
        XCTAssertNil(r["error"])
    }

    /// The question the server asked for a command, answered "Cancel".
    func question(_ command: String, _ args: JSONValue) throws -> String? {
        client.answer = .title("Cancel")
        client.asked = []
        _ = try client.command(command, args)
        return client.asked.last?["params"]?["message"]?.stringValue
    }

    func testDeletingASentPieceForGoodSaysItsTextAsSentGoesToo() throws {
        try start()
        try send("P/Draft/Spring.md", to: "P/Magazines/Granta")
        try send("P/Draft/Spring.md", to: "P/Magazines/Review")
        try toTrash("P/Draft/Spring.md")
        XCTAssertEqual(
            try question("carrel.delete", ["uri": .string(fx.uri("P/Trash/Spring.md"))]),
            "Delete “Spring.md” forever? This cannot be undone. "
                + "“Spring.md” was sent to “Granta”, “Review”; its text as sent goes too.")
        XCTAssertTrue(FileManager.default.fileExists(atPath: fx.path + "/P/Trash/Spring.md"), "cancelled")
    }

    func testAPieceNeverSentIsAskedAboutAsBefore() throws {
        try start()
        try send("P/Draft/Spring.md", to: "P/Magazines/Granta")
        try toTrash("P/Draft/Moon.md")
        XCTAssertEqual(
            try question("carrel.delete", ["uri": .string(fx.uri("P/Trash/Moon.md"))]),
            "Delete “Moon.md” forever? This cannot be undone.")
    }

    /// A folder, and the whole Trash, name each sent piece inside.
    func testAFolderAndEmptyingTheTrashNameTheSentPiecesInside() throws {
        try start()
        try send("P/Draft/Old/Tide.md", to: "P/Magazines/Review")
        try send("P/Draft/Spring.md", to: "P/Magazines/Granta")
        try toTrash("P/Draft/Old")
        XCTAssertEqual(
            try question("carrel.delete", ["uri": .string(fx.uri("P/Trash/Old"))]),
            "Delete “Old” forever? This cannot be undone. “Tide.md” was sent to “Review”; its text as sent goes too.")
        try toTrash("P/Draft/Spring.md")
        XCTAssertEqual(
            try question("carrel.emptyTrash", ["projectUri": .string(fx.uri("P"))]),
            "Delete the 2 items in the Trash of “P” forever? This cannot be undone. "
                + "“Spring.md” was sent to “Granta”; its text as sent goes too. "
                + "“Tide.md” was sent to “Review”; its text as sent goes too.")
    }

    func testItIsSaidInFrench() throws {
        try start(locale: "fr")
        try send("P/Draft/Spring.md", to: "P/Magazines/Granta")
        try toTrash("P/Draft/Spring.md")
        XCTAssertEqual(
            try question("carrel.delete", ["uri": .string(fx.uri("P/Trash/Spring.md"))]),
            "Supprimer « Spring.md » définitivement ? Cette action est irréversible. "
                + "« Spring.md » a été envoyé à « Granta » ; son texte tel qu’envoyé disparaît aussi.")
    }

    /// Said as it is done: the snapshots of the text sent are gone with the piece.
    func testConfirmedTheSentTextGoesWithThePiece() throws {
        try start()
        try send("P/Draft/Spring.md", to: "P/Magazines/Granta")
        try toTrash("P/Draft/Spring.md")
        client.answer = .title("Delete")
        XCTAssertNil(try client.command("carrel.delete", ["uri": .string(fx.uri("P/Trash/Spring.md"))])["error"])
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: fx.path + "/P/.carrel/snapshots")) ?? []
        XCTAssertFalse(left.contains { $0.hasSuffix("Sent to Granta.md") }, "\(left)")
    }
}
