import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// An acceptance offers the piece a move to the project's Published
/// folder: asked after the status change is answered, harmless action
/// first, and made through the ordinary move, so the piece's records and
/// its text as sent follow it.
final class PublishOfferTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!
    var home: Fixture!

    func start(locale: String = "en", type: String = "poetry", options: JSONValue = .null) throws {
        home = try Fixture()
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"\(type)"}
            P/Draft/Spring.md = sea sea
            P/Draft/Moon.md = moon
            P/Magazines/Granta/
            P/Competitions/Prize/
            """)
        client = InProcessClient()
        guard options != .null else {
            _ = try client.initialize([fx.uri()], locale: locale)
            return
        }
        // Only for the timeout: a client without Carrel's extensions, which no test here needs.
        _ = try client.result(
            "initialize",
            [
                "capabilities": [:], "locale": .string(locale), "initializationOptions": options,
                "workspaceFolders": [["uri": .string(fx.uri()), "name": "Writing"]],
            ])
        client.notify("initialized")
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        client = nil
        fx = nil
        home = nil
    }

    func send(_ pieces: [String]) throws -> String {
        let r = try client.command(
            "carrel.submit",
            [
                "items": .array(pieces.map { .string(fx.uri($0)) }), "marketUri": .string(fx.uri("P/Magazines/Granta")),
                "date": "2026-11-20", "confirmed": true,
            ])
        return try XCTUnwrap(r["result"]?["id"]?.stringValue)
    }

    func accept(_ record: String, piece: String? = nil, status: String = "accepted") throws {
        var args: [String: JSONValue] = ["record": .string(record), "status": .string(status)]
        if let piece { args["piece"] = .string(fx.uri(piece)) }
        XCTAssertNil(try client.command("carrel.setSubmissionStatus", .object(args))["error"])
    }

    func question(timeout: TimeInterval = 5) throws -> JSONValue {
        try client.inbox.take("the offer", timeout: timeout) { $0["method"] == "window/showMessageRequest" }
    }

    func answer(_ question: JSONValue, _ title: String) {
        client.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": .string(title)]])
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: fx.path + "/" + relative) }

    func testMoveToPublishedMovesThePieceWithItsRecordsAndSentText() throws {
        try start()
        let id = try send(["P/Draft/Spring.md"])
        try accept(id)
        let q = try question()
        XCTAssertEqual(q["params"]?["message"], "“Spring.md” was accepted at “Granta”. Move it to Published?")
        XCTAssertEqual(q["params"]?["actions"], [["title": "Not Now"], ["title": "Move to Published"]])
        answer(q, "Move to Published")
        _ = try client.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        XCTAssertTrue(exists("P/Published/Spring.md"))
        XCTAssertFalse(exists("P/Draft/Spring.md"))
        let listed = try client.result("carrel/submissions", ["uri": .string(fx.uri("P/Published/Spring.md"))])
        let piece = listed["submissions"]?[0]?["pieces"]?[0]
        XCTAssertEqual(piece?["path"], "Published/Spring.md", "the record follows")
        let copy = try XCTUnwrap(piece?["copyUri"]?.stringValue)
        XCTAssertEqual(
            try String(contentsOfFile: XCTUnwrap(URL(string: copy)).path, encoding: .utf8), "sea sea",
            "the text sent follows")
        // The ordinary move: undone as one.
        XCTAssertNil(try client.command("carrel.undo", [:])["error"])
        XCTAssertTrue(exists("P/Draft/Spring.md"))
    }

    func testNotNowOrNoAnswerMovesNothing() throws {
        try start()
        let id = try send(["P/Draft/Spring.md"])
        try accept(id)
        answer(try question(), "Not Now")
        try accept(id, status: "pending")
        try accept(id)
        client.send(["jsonrpc": "2.0", "id": try question()["id"]!, "result": .null])
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 1])
        XCTAssertTrue(exists("P/Draft/Spring.md"))
        XCTAssertFalse(exists("P/Published/Spring.md"))
    }

    /// A client that never answers: the question is withdrawn after the
    /// confirmation timeout, and an answer after that moves nothing.
    func testAnUnansweredOfferIsWithdrawnAndALateAnswerMovesNothing() throws {
        try start(options: ["confirmationTimeout": 0.3])
        try accept(try send(["P/Draft/Spring.md"]))
        let q = try question()
        let withdrawn = try client.inbox.take("the question withdrawn") { $0["method"] == "$/cancelRequest" }
        XCTAssertEqual(withdrawn["params"]?["id"], q["id"])
        answer(q, "Move to Published")
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 1])
        XCTAssertTrue(exists("P/Draft/Spring.md"))
        XCTAssertFalse(exists("P/Published/Spring.md"))
    }

    func testOnlyAcceptedPiecesOutsidePublishedAreOffered() throws {
        try start()
        let id = try send(["P/Draft/Spring.md", "P/Draft/Moon.md"])
        try accept(id, status: "rejected")
        try accept(id, piece: "P/Draft/Moon.md")
        let q = try question()
        XCTAssertEqual(q["params"]?["message"], "“Moon.md” was accepted at “Granta”. Move it to Published?")
        answer(q, "Move to Published")
        _ = try client.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        // Accepted again where it already is: nothing to offer.
        try accept(id, piece: "P/Published/Moon.md")
        XCTAssertThrowsError(try question(timeout: 0.3), "no question for a piece in Published")
        XCTAssertTrue(exists("P/Draft/Spring.md"))
    }

    /// A project type without Published (a novel's) is never offered one.
    func testAProjectWithoutPublishedIsNotAsked() throws {
        try start(type: "novel")
        let r = try client.command(
            "carrel.submit",
            [
                "items": [.string(fx.uri("P/Draft/Spring.md"))], "marketUri": .string(fx.uri("P/Competitions/Prize")),
                "date": "2026-11-20", "confirmed": true,
            ])
        try accept(try XCTUnwrap(r["result"]?["id"]?.stringValue))
        XCTAssertThrowsError(try question(timeout: 0.3))
    }

    func testItIsAskedInFrench() throws {
        try start(locale: "fr")
        try accept(try send(["P/Draft/Spring.md", "P/Draft/Moon.md"]))
        let q = try question()
        XCTAssertEqual(
            q["params"]?["message"],
            "« Spring.md », « Moon.md » ont été acceptés par « Granta ». Les déplacer dans Publiés ?")
        XCTAssertEqual(q["params"]?["actions"], [["title": "Plus tard"], ["title": "Déplacer dans Publiés"]])
        answer(q, "Déplacer dans Publiés")
        _ = try client.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        _ = try client.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        XCTAssertTrue(exists("P/Published/Spring.md") && exists("P/Published/Moon.md"))
    }
}
