import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Submissions tracking over the wire: markets' details, submitting,
/// statuses, the rows that say where a piece is out, and the listing.
final class SubmissionsTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    func start(locale: String = "en", pipe: String? = nil) throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea sea
            P/Draft/Moon.md = moon
            P/Magazines/Granta/
            P/Magazines/Review/
            P/Competitions/Prize/
            Q/.carrel/project.json = {"type":"poetry"}
            Q/Draft/Other.md = other
            """)
        if let pipe { Fixture.sh("mkfifo '\(fx.path)/\(pipe)'") }
        client = InProcessClient()
        _ = try client.initialize([fx.uri()], locale: locale)
    }

    override func tearDown() {
        client = nil
        fx = nil
    }

    /// What a row's summary says of submissions: the words, which the
    /// server may not have counted yet, left out.
    func summary(_ relative: String) throws -> String? {
        let said = try client.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 0]).arrayValue![0][
            "summary"]?.stringValue
        return said?.components(separatedBy: " · ").filter {
            !$0.hasSuffix("word") && !$0.hasSuffix("words") && !$0.hasSuffix("mots")
        }
        .joined(separator: " · ")
    }

    func submit(_ pieces: [String], to market: String, date: String) throws -> JSONValue {
        try client.command(
            "carrel.submit",
            [
                "items": .array(pieces.map { .string(fx.uri($0)) }), "marketUri": .string(fx.uri(market)),
                "date": .string(date), "confirmed": true,
            ])
    }

    func result(_ response: JSONValue) throws -> JSONValue {
        if let e = response["error"] { throw NSError(domain: e.text(), code: 1) }
        return response["result"] ?? .null
    }

    /// The last report the server sent.
    func message() throws -> String? {
        var last = try client.inbox.take("a report") { $0["method"] == "window/showMessage" }
        while let later = try? client.inbox.take(
            "a later report", timeout: 0.05, { $0["method"] == "window/showMessage" })
        {
            last = later
        }
        return last["params"]?["message"]?.stringValue
    }

    func testSubmittingRecordsTheTextSentAndRowsSayWhereAPieceIsOut() throws {
        try start()
        let sent = try result(
            submit(["P/Draft/Spring.md", "P/Draft/Moon.md"], to: "P/Magazines/Granta", date: "2026-11-20"))
        XCTAssertEqual(sent["market"]?["name"], "Granta")
        XCTAssertEqual(sent["sent"], "2026-11-20")
        XCTAssertEqual(sent["pieces"]?[0]?["status"], "pending")
        XCTAssertEqual(try message(), "Submitted “Spring.md”, “Moon.md” to “Granta” on 2026-11-20.")
        let copy = try XCTUnwrap(sent["pieces"]?[0]?["copyUri"]?.stringValue)
        XCTAssertEqual(
            try String(contentsOfFile: XCTUnwrap(URL(string: copy)).path, encoding: .utf8), "sea sea",
            "the text sent is kept")
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Competitions/Prize", date: "2026-11-21"))
        XCTAssertEqual(try summary("P/Draft/Spring.md"), "out at 2")
        XCTAssertEqual(try summary("P/Draft/Moon.md"), "out at 1")
        XCTAssertEqual(try summary("P/Magazines/Granta"), "2 pending")

        let id = try XCTUnwrap(sent["id"]?.stringValue)
        _ = try client.command(
            "carrel.setSubmissionStatus",
            [
                "record": .string(id), "piece": .string(fx.uri("P/Draft/Moon.md")), "status": "rejected",
                "date": "2026-12-01",
            ])
        XCTAssertEqual(try summary("P/Draft/Moon.md"), "1 rejected")
        XCTAssertEqual(try summary("P/Magazines/Granta"), "1 pending · 1 rejected")
    }

    /// The French words are the server's too.
    func testRowsSayItInFrench() throws {
        try start(locale: "fr")
        let id = try XCTUnwrap(
            try result(submit(["P/Draft/Spring.md"], to: "P/Magazines/Granta", date: "2026-11-20"))["id"]?.stringValue)
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Magazines/Review", date: "2026-11-20"))
        _ = try client.command("carrel.setSubmissionStatus", ["record": .string(id), "status": "rejected"])
        XCTAssertEqual(try summary("P/Draft/Spring.md"), "soumis à 1 · 1 refusé")
    }

    /// An acceptance says where the piece is still out and offers
    /// Published; withdrawOthers withdraws it everywhere else in one step.
    func testAnAcceptanceWarnsAndWithdrawOthersWithdrawsEverywhereElse() throws {
        try start()
        let granta = try XCTUnwrap(
            try result(submit(["P/Draft/Spring.md"], to: "P/Magazines/Granta", date: "2026-11-20"))["id"]?.stringValue)
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Magazines/Review", date: "2026-11-21"))
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Competitions/Prize", date: "2026-11-22"))
        _ = try message()
        _ = try client.command("carrel.setSubmissionStatus", ["record": .string(granta), "status": "accepted"])
        XCTAssertEqual(
            try message(),
            "“Spring.md” at “Granta”: accepted. It is still out at “Prize”, “Review”: withdraw it there (Withdraw Others). Move it to “Published” once it is published."
        )
        _ = try client.command("carrel.withdrawOthers", ["record": .string(granta)])
        XCTAssertEqual(try message(), "Withdrew “Spring.md” from “Prize”, “Review”.")
        XCTAssertEqual(try summary("P/Draft/Spring.md"), "1 accepted · 2 withdrawn")
        let pending = try client.result("carrel/submissions", ["pendingOnly": true])
        XCTAssertEqual(pending["submissions"]?.arrayValue?.count, 0)
    }

    /// Listing: pending first, then by the day sent; a piece's history;
    /// a market renamed by Carrel is followed; a deleted one keeps its name.
    func testTheListingFollowsARenamedMarketAndKeepsADeletedOnesName() throws {
        try start()
        let old = try XCTUnwrap(
            try result(submit(["P/Draft/Moon.md"], to: "P/Magazines/Granta", date: "2026-10-01"))["id"]?.stringValue)
        _ = try client.command("carrel.setSubmissionStatus", ["record": .string(old), "status": "noResponse"])
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Magazines/Granta", date: "2026-11-01"))
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Competitions/Prize", date: "2026-11-05"))
        var all = try client.result("carrel/submissions")["submissions"]?.arrayValue ?? []
        XCTAssertEqual(all.map { $0["sent"]?.stringValue }, ["2026-11-05", "2026-11-01", "2026-10-01"])
        let history = try client.result("carrel/submissions", ["uri": .string(fx.uri("P/Draft/Moon.md"))])
        XCTAssertEqual(history["submissions"]?.arrayValue?.map { $0["id"]?.stringValue }, [old])

        _ = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Magazines/Granta")), "newName": "Granta Magazine"])
        _ = try client.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("P/Magazines/Granta Magazine")), "destinationUri": .string(fx.uri("P/Other"))])
        all = try client.result("carrel/submissions")["submissions"]?.arrayValue ?? []
        XCTAssertEqual(all[1]["market"]?["path"], "Other/Granta Magazine")
        XCTAssertEqual(all[1]["market"]?["uri"]?.stringValue, fx.uri("P/Other/Granta Magazine"))
        XCTAssertEqual(try summary("P/Other/Granta Magazine"), "1 pending · 1 no response")

        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Competitions/Prize")), "confirmed": true])
        all = try client.result("carrel/submissions")["submissions"]?.arrayValue ?? []
        XCTAssertEqual(all[0]["market"]?["name"], "Prize", "a deleted market's records keep its name")
        XCTAssertNil(all[0]["market"]?["uri"])
    }

    func testRefusalsChangeNothing() throws {
        // A pipe where a poem was is what the disk holds: refused with `io`, never as a bad parameter.
        try start(pipe: "P/Draft/pipe.md")
        let before = fingerprint(fx.path)
        let cases: [(JSONValue, String)] = [
            (["items": [.string(fx.uri("P/Draft/Spring.md"))], "marketUri": .string(fx.uri("P/Draft"))], "notAMarket"),
            (
                ["items": [.string(fx.uri("P/Draft/Spring.md"))], "marketUri": .string(fx.uri("P/Magazines"))],
                "notAMarket"
            ),
            (
                ["items": [.string(fx.uri("Q/Draft/Other.md"))], "marketUri": .string(fx.uri("P/Magazines/Granta"))],
                "notInProject"
            ),
            (
                ["items": [.string(fx.uri("P/Draft"))], "marketUri": .string(fx.uri("P/Magazines/Granta"))],
                "invalidParams"
            ),
            (["items": [], "marketUri": .string(fx.uri("P/Magazines/Granta"))], "invalidParams"),
            (
                ["items": [.string(fx.uri("P/Draft/pipe.md"))], "marketUri": .string(fx.uri("P/Magazines/Granta"))],
                "io"
            ),
            (
                [
                    "items": [.string(fx.uri("P/Draft/Spring.md"))], "marketUri": .string(fx.uri("P/Magazines/Granta")),
                    "date": "2026-02-30",
                ],
                "invalidParams"
            ),
        ]
        for (args, reason) in cases {
            let r = try client.command("carrel.submit", args)
            let error = try XCTUnwrap(r["error"], args.text())
            if reason == "invalidParams" {
                XCTAssertEqual(error["code"], -32602, args.text())
            } else {
                XCTAssertEqual(error["data"]?["reason"]?.stringValue, reason, args.text())
            }
        }
        let market = try client.command(
            "carrel.setMarket", ["uri": .string(fx.uri("P/Magazines/Granta")), "fields": ["deadline": "someday"]])
        XCTAssertNotNil(market["error"])
        let status = try client.command("carrel.setSubmissionStatus", ["record": "1-nope", "status": "accepted"])
        XCTAssertEqual(status["error"]?["data"]?["reason"], "notFound")
        XCTAssertEqual(fingerprint(fx.path), before)
    }

    /// A market that refuses simultaneous submissions asks before a piece
    /// still out elsewhere is recorded; Cancel records nothing.
    func testAMarketRefusingSimultaneousSubmissionsAsksFirst() throws {
        try start()
        _ = try client.command(
            "carrel.setMarket",
            [
                "uri": .string(fx.uri("P/Magazines/Review")),
                "fields": ["simultaneous": false, "deadline": "2026-11-25"],
            ])
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Magazines/Granta", date: "2026-11-20"))
        client.answer = .title("Cancel")
        let args: JSONValue = [
            "items": [.string(fx.uri("P/Draft/Spring.md"))], "marketUri": .string(fx.uri("P/Magazines/Review")),
            "date": "2026-11-20",
        ]
        let refused = try client.command("carrel.submit", args)
        XCTAssertEqual(refused["error"]?["data"]?["reason"], "cancelled")
        XCTAssertEqual(
            client.asked.last?["params"]?["message"],
            "“Review” does not take simultaneous submissions, and “Spring.md” is still out at “Granta”. Submit anyway?")
        XCTAssertEqual(try client.result("carrel/submissions")["submissions"]?.arrayValue?.count, 1)
        client.answer = .title("Submit Anyway")
        _ = try message()
        _ = try result(client.command("carrel.submit", args))
        XCTAssertEqual(
            try message(), "Submitted “Spring.md” to “Review” on 2026-11-20. Its deadline is 2026-11-25, in 5 days.")
    }

    /// A record another machine wrote arrives by sync: the watcher sees it,
    /// and the rows say it without a restart.
    func testARecordArrivingBySyncShowsOnTheRows() throws {
        try start()
        _ = try result(submit(["P/Draft/Moon.md"], to: "P/Magazines/Granta", date: "2026-11-20"))
        XCTAssertEqual(try summary("P/Draft/Spring.md") ?? "", "")
        let record =
            #"{"id":"1-other","sent":"2026-11-21","market":{"changed":1,"value":{"path":"Magazines/Review","name":"Review"}},"pieces":{"1":{"path":"Draft/Spring.md","status":{"changed":1,"value":{"status":"shortlisted","day":"2026-11-30"}}}}}"#
        try record.write(
            toFile: fx.path + "/P/.carrel/submissions/.syncthing.1-other.json.tmp", atomically: false, encoding: .utf8)
        XCTAssertEqual(
            rename(
                fx.path + "/P/.carrel/submissions/.syncthing.1-other.json.tmp",
                fx.path + "/P/.carrel/submissions/1-other.json"), 0)
        // The watcher's batch comes when it comes: waited for generously, never timed.
        var said = try summary("P/Draft/Spring.md")
        for _ in 0..<100 where said != "out at 1" {
            _ = try? client.inbox.take("a change", timeout: 0.1) { $0["method"] == "carrel/didChange" }
            said = try summary("P/Draft/Spring.md")
        }
        XCTAssertEqual(said, "out at 1")
        XCTAssertEqual(try summary("P/Magazines/Review"), "1 pending")
    }

    /// A piece Carrel renames or moves keeps its submissions.
    func testAPieceRenamedOrMovedKeepsItsSubmissions() throws {
        try start()
        _ = try result(submit(["P/Draft/Spring.md"], to: "P/Magazines/Granta", date: "2026-11-20"))
        _ = try client.command("carrel.rename", ["uri": .string(fx.uri("P/Draft/Spring.md")), "newName": "Tide"])
        XCTAssertEqual(try summary("P/Draft/Tide.md"), "out at 1")
        _ = try client.command("carrel.newFolder", ["parentUri": .string(fx.uri("P/Ready")), "name": "Sea"])
        _ = try client.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("P/Draft/Tide.md")), "destinationUri": .string(fx.uri("P/Ready/Sea"))])
        _ = try client.command("carrel.rename", ["uri": .string(fx.uri("P/Ready/Sea")), "newName": "Ocean"])
        XCTAssertEqual(try summary("P/Ready/Ocean/Tide.md"), "out at 1")
        let history = try client.result("carrel/submissions", ["uri": .string(fx.uri("P/Ready/Ocean/Tide.md"))])
        XCTAssertEqual(history["submissions"]?[0]?["pieces"]?[0]?["path"], "Ready/Ocean/Tide.md")
    }

    /// A submission's fee and a piece's note are kept, and a compiled
    /// packet the pieces went out in is recorded with each.
    func testFeeNoteAndPacketAreRecorded() throws {
        try start()
        try fx.add("P/Compiled/P.docx = packet")
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 1])
        let sent = try result(
            client.command(
                "carrel.submit",
                [
                    "items": [.string(fx.uri("P/Draft/Spring.md"))], "marketUri": .string(fx.uri("P/Magazines/Granta")),
                    "packetUri": .string(fx.uri("P/Compiled/P.docx")),
                ]))
        XCTAssertEqual(sent["pieces"]?[0]?["packetUri"]?.stringValue, fx.uri("P/Compiled/P.docx"))
        let id = try XCTUnwrap(sent["id"])
        _ = try client.command(
            "carrel.setSubmissionStatus",
            ["record": id, "status": "shortlisted", "note": "second round", "fee": "£3"])
        let listed = try client.result("carrel/submissions")["submissions"]?[0]
        XCTAssertEqual(listed?["fee"], "£3")
        XCTAssertEqual(listed?["pieces"]?[0]?["note"], "second round")
        XCTAssertEqual(listed?["pieces"]?[0]?["status"], "shortlisted")
    }
}
