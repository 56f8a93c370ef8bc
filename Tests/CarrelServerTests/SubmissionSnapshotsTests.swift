import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// The text of each piece as sent is a snapshot of the piece, titled with
/// the market, so it follows the piece wherever Carrel takes it; a record
/// of an older Carrel, with its copy folder, still answers its copy.
final class SubmissionSnapshotsTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/submissions/1-old.json = {"id":"1-old","sent":"2026-01-02","market":{"changed":1,"value":{"path":"Magazines/Review","name":"Review"}},"pieces":{"1":{"path":"Draft/Moon.md","copy":"1-old/1 Moon.md"}}}
            P/.carrel/submissions/1-old/1 Moon.md = moon as it was
            P/Draft/Spring.md = sea sea
            P/Draft/Moon.md = moon
            P/Magazines/Granta/
            P/Magazines/Review/
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()])
    }

    override func tearDown() {
        client = nil
        fx = nil
    }

    func submit(_ pieces: [String], to market: String) throws -> JSONValue {
        let r = try client.command(
            "carrel.submit",
            [
                "items": .array(pieces.map { .string(fx.uri($0)) }), "marketUri": .string(fx.uri(market)),
                "date": "2026-11-20", "confirmed": true,
            ])
        if let e = r["error"] { throw NSError(domain: e.text(), code: 1) }
        return r["result"] ?? .null
    }

    func snapshots(_ relative: String) throws -> [JSONValue] {
        try client.result(
            "workspace/executeCommand",
            ["command": "carrel.snapshots", "arguments": [["uri": .string(fx.uri(relative))]]])["snapshots"]?
            .arrayValue ?? []
    }

    func text(at uri: JSONValue?) throws -> String {
        let u = try XCTUnwrap(uri?.stringValue.flatMap(URL.init(string:)))
        return try String(contentsOfFile: u.path, encoding: .utf8)
    }

    func record(_ id: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fx.path + "/P/.carrel/submissions/\(id).json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testEachPieceSentIsASnapshotTitledWithTheMarket() throws {
        let sent = try submit(["P/Draft/Spring.md", "P/Draft/Moon.md"], to: "P/Magazines/Granta")
        let id = try XCTUnwrap(sent["id"]?.stringValue)
        let spring = try XCTUnwrap(snapshots("P/Draft/Spring.md").first)
        XCTAssertEqual(spring["title"], "Sent to Granta")
        XCTAssertEqual(sent["pieces"]?[0]?["snapshot"], spring["name"])
        XCTAssertEqual(sent["pieces"]?[0]?["copyUri"], spring["uri"], "the text sent is the snapshot")
        XCTAssertEqual(try text(at: sent["pieces"]?[0]?["copyUri"]), "sea sea")
        XCTAssertEqual(try text(at: sent["pieces"]?[1]?["copyUri"]), "moon")
        XCTAssertFalse(fx.exists("P/.carrel/submissions/\(id)"), "no folder of copies any more")
        let pieces = try XCTUnwrap(record(id)["pieces"] as? [String: [String: Any]])
        XCTAssertEqual(pieces["1"]?["snapshot"] as? String, spring["name"]?.stringValue)
        XCTAssertNil(pieces["1"]?["copy"])
    }

    func testTheTextSentSurvivesTheRenameOfItsPiece() throws {
        let sent = try submit(["P/Draft/Spring.md"], to: "P/Magazines/Granta")
        let name = try XCTUnwrap(sent["pieces"]?[0]?["snapshot"])
        _ = try client.command("carrel.rename", ["uri": .string(fx.uri("P/Draft/Spring.md")), "newName": "Tide"])
        let piece = try client.result("carrel/submissions", ["uri": .string(fx.uri("P/Draft/Tide.md"))])[
            "submissions"]?[0]?["pieces"]?[0]
        XCTAssertEqual(piece?["path"], "Draft/Tide.md")
        XCTAssertEqual(piece?["snapshot"], name)
        XCTAssertEqual(try text(at: piece?["copyUri"]), "sea sea", "found where the piece is now")
        XCTAssertEqual(try snapshots("P/Draft/Tide.md").map { $0["name"] }, [name])
    }

    func testAnOlderRecordsCopyIsStillAnswered() throws {
        let listed = try client.result("carrel/submissions", ["uri": .string(fx.uri("P/Draft/Moon.md"))])
        let piece = listed["submissions"]?[0]?["pieces"]?[0]
        XCTAssertEqual(try text(at: piece?["copyUri"]), "moon as it was")
        XCTAssertNil(piece?["snapshot"])
    }

    /// A market's own name may hold what a snapshot's title cannot: the
    /// title says it another way rather than refuse the submission.
    func testAMarketNamedWithASlashStillTitlesTheSnapshot() throws {
        _ = try client.command(
            "carrel.setMarket", ["uri": .string(fx.uri("P/Magazines/Granta")), "fields": ["name": "Poetry/Prose"]])
        _ = try submit(["P/Draft/Spring.md"], to: "P/Magazines/Granta")
        XCTAssertEqual(try snapshots("P/Draft/Spring.md").first?["title"], "Sent to Poetry-Prose")
    }

    func testAPieceThatCannotBeSnapshottedRefusesBeforeAnythingIsWritten() throws {
        try Data(count: (16 << 20) + 1).write(to: URL(fileURLWithPath: fx.path + "/P/Draft/Atlas.md"))
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("P/Draft")), "depth": 1])
        let before = fingerprint(fx.path)
        let refused = try client.command(
            "carrel.submit",
            [
                "items": [.string(fx.uri("P/Draft/Spring.md")), .string(fx.uri("P/Draft/Atlas.md"))],
                "marketUri": .string(fx.uri("P/Magazines/Granta")), "confirmed": true,
            ])
        XCTAssertEqual(refused["error"]?["data"]?["reason"], "io", refused.text())
        XCTAssertEqual(fingerprint(fx.path), before, "no snapshot, no market id, no record")
    }
}
