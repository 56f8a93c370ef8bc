import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// `carrel market`, `submit`, `submission-status`, `withdraw-others` and
/// `submissions`: submissions tracking from a shell, with the real binary.
final class CLISubmissionsTests: CLISubmissionsTestCase {
    func testAMarketsDetailsAreSetPrintedAndChecked() {
        let set = run([
            "market", "P/Magazines/Review", "--deadline", "2026-12-31", "--simultaneous", "no", "--fee", "£3",
        ])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "deadline\t2026-12-31\nfee\t£3\nsimultaneous\tno\n")
        XCTAssertEqual(
            run(["market", "P/Magazines/Review", "--fee", "none"]).stdout, "deadline\t2026-12-31\nsimultaneous\tno\n")
        let before = fingerprint(fx.path)
        let read = run(["market", "P/Magazines/Review"])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout, "deadline\t2026-12-31\nsimultaneous\tno\n", "no option only prints")
        XCTAssertEqual(read.stderr, "")
        XCTAssertEqual(run(["market", "P/Draft"]).status, 1, "a folder that is no market has no details to print")
        let bad = run(["market", "P/Magazines/Review", "--deadline", "31/12/2026"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("“31/12/2026” is not a valid deadline"), bad.stderr)
        let notMarket = run(["market", "P/Draft", "--fee", "£3"])
        XCTAssertEqual(notMarket.status, 1)
        XCTAssertTrue(notMarket.stderr.contains("“Draft” is not a market"), notMarket.stderr)
        XCTAssertEqual(fingerprint(fx.path), before, "a refusal changes nothing")
    }

    func testSubmitStatusWithdrawAndTheListing() throws {
        let granta = run([
            "submit", "P/Draft/Spring.md", "P/Draft/Moon.md", "--to", "P/Magazines/Granta", "--date", "2026-11-20",
        ])
        XCTAssertEqual(granta.status, 0, granta.stderr)
        XCTAssertEqual(granta.stderr, "Submitted “Spring.md”, “Moon.md” to “Granta” on 2026-11-20.\n")
        let id = granta.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(fx.exists("P/.carrel/submissions/\(id).json"))
        let sentText = fx.listing("P/.carrel/snapshots/Draft/Spring.md")
        XCTAssertEqual(sentText.count, 1, "the text as sent is a snapshot")
        XCTAssertTrue(sentText.first?.hasSuffix(" Sent to Granta.md") == true, "\(sentText)")
        XCTAssertEqual(fx.read("P/.carrel/snapshots/Draft/Spring.md/\(sentText.first ?? "")"), "sea sea")
        XCTAssertEqual(
            run(["submit", "P/Draft/Spring.md", "--to", "P/Magazines/Review", "--date", "2026-11-21"]).status, 0)

        let accepted = run([
            "submission-status", id, "accepted", "--piece", "P/Draft/Spring.md", "--date", "2026-12-01",
        ])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertTrue(accepted.stdout.contains("It is still out at “Review”"), accepted.stdout)
        XCTAssertEqual(run(["withdraw-others", id, "--piece", "1"]).stdout, "Withdrew “Spring.md” from “Review”.\n")

        // Withdrawn today, a day this test does not fix: the status and the day it was set are checked apart.
        let rows = run(["submissions"]).stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        XCTAssertEqual(
            rows.map { $0.prefix(3).joined(separator: "|") },
            [
                "2026-11-20|Magazines/Granta|Draft/Spring.md", "2026-11-20|Magazines/Granta|Draft/Moon.md",
                "2026-11-21|Magazines/Review|Draft/Spring.md",
            ])
        XCTAssertEqual(rows.map { $0[3].split(separator: " ")[0] }, ["accepted", "pending", "withdrawn"])
        XCTAssertEqual(rows[0][3], "accepted 2026-12-01")
        let json = try JSONParser.parse(Array(run(["submissions", "P/Draft/Moon.md", "--json"]).stdout.utf8))
        XCTAssertEqual(json.arrayValue?.count, 1)
        XCTAssertEqual(json[0]?["pieces"]?[1]?["status"], "pending")
        XCTAssertEqual(run(["submissions", "--pending"]).stdout.split(separator: "\n").count, 2)
        let tree = run(["tree", "P/Draft"])
        XCTAssertTrue(tree.stdout.contains("Moon.md  1 word · out at 1"), tree.stdout)
        XCTAssertTrue(tree.stdout.contains("Spring.md  2 words · 1 accepted · 1 withdrawn"), tree.stdout)
    }

    /// A market that refuses simultaneous submissions asks first; no
    /// answer records nothing, --yes submits anyway.
    func testSimultaneousSubmissionsAreAskedFirst() {
        XCTAssertEqual(run(["market", "P/Magazines/Review", "--simultaneous", "no"]).status, 0)
        XCTAssertEqual(run(["submit", "P/Draft/Spring.md", "--to", "P/Magazines/Granta"]).status, 0)
        let before = fingerprint(fx.path)
        let unanswered = run(["submit", "P/Draft/Spring.md", "--to", "P/Magazines/Review"])
        XCTAssertEqual(unanswered.status, 1)
        XCTAssertTrue(
            unanswered.stderr.contains(
                "“Review” does not take simultaneous submissions, and “Spring.md” is still out at “Granta”. Submit anyway?"
            ),
            unanswered.stderr)
        XCTAssertTrue(unanswered.stderr.contains("nothing was recorded. Pass --yes"), unanswered.stderr)
        XCTAssertEqual(run(["submit", "P/Draft/Spring.md", "--to", "P/Magazines/Review"], stdin: "no\n").status, 1)
        XCTAssertEqual(fingerprint(fx.path), before)
        XCTAssertEqual(run(["submit", "P/Draft/Spring.md", "--to", "P/Magazines/Review"], stdin: "yes\n").status, 0)
        XCTAssertEqual(run(["submissions"]).stdout.split(separator: "\n").count, 2)
    }

    /// A record Carrel cannot use is named on stderr, and the rest still list.
    func testAnUnusableRecordIsNamedWithItsReason() throws {
        XCTAssertEqual(run(["submit", "P/Draft/Moon.md", "--to", "P/Magazines/Granta"]).status, 0)
        try
            #"{"id":"1-x","sent":"2026-11-20","market":{"changed":1,"value":{"path":"Magazines/Granta","name":"G"}},"pieces":{"1":{"path":"../../../etc/passwd"}}}"#
            .write(toFile: fx.path + "/P/.carrel/submissions/1-x.json", atomically: false, encoding: .utf8)
        let r = run(["submissions"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(
            r.stderr,
            "carrel: Skipped the submission record 1-x.json: it names “../../../etc/passwd”, which is not a path inside the project.\n"
        )
    }

    /// --csv writes Chillsubs' tracker columns, quoted where a field needs it.
    func testCSVExportHasChillsubsColumns() {
        XCTAssertEqual(run(["market", "P/Magazines/Granta", "--name", "Granta, the magazine"]).status, 0)
        let sent = run(["submit", "P/Draft/Moon.md", "--to", "P/Magazines/Granta", "--date", "2026-11-20"])
        let id = sent.stdout.trimmingCharacters(in: .newlines)
        _ = run(["submission-status", id, "noResponse", "--date", "2027-02-01", "--note", "said \"maybe\""])
        let csv = run(["submissions", "--csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertEqual(
            csv.stdout,
            "Title,Publisher,Method,Date Submitted,Result Date,Status,Notes\r\n"
                + "Moon,\"Granta, the magazine\",,2026-11-20,2027-02-01,Never Responded,\"said \"\"maybe\"\"\"\r\n")
    }

    /// `.carrel/submissions` that is a link is never followed: nothing is
    /// listed from where it points, a submit is refused, and the folder it
    /// points at is left exactly as it was.
    func testASubmissionsFolderThatIsALinkIsNeverFollowed() throws {
        try fx.add(
            """
            outside/1-a.json = {"id":"1-a","sent":"2026-11-20","market":{"changed":1,"value":{"path":"Magazines/Granta","name":"G"}},"pieces":{"1":{"path":"Draft/Moon.md"}}}
            """)
        XCTAssertEqual(symlink(fx.path + "/outside", fx.path + "/P/.carrel/submissions"), 0)
        let outside = fingerprint(fx.path + "/outside")
        XCTAssertEqual(run(["submissions"]).stdout, "")
        let before = fingerprint(fx.path)
        let refused = run(["submit", "P/Draft/Moon.md", "--to", "P/Magazines/Granta"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("is a symbolic link where Carrel keeps a folder"), refused.stderr)
        XCTAssertEqual(fingerprint(fx.path), before, "a refused submit changes nothing, the market's file included")
        let named = run(["submission-status", "1-a", "accepted"])
        XCTAssertEqual(named.status, 1, "a record seen only through the link is no record")
        XCTAssertEqual(fingerprint(fx.path + "/outside"), outside)
    }

    /// A piece larger than Carrel reads is refused before anything is written.
    func testAPieceTooLargeIsRefusedAndNothingIsRecorded() throws {
        _ = run(["tree"])
        let big = fx.path + "/P/Draft/Big.md"
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: nil))
        XCTAssertEqual(truncate(big, 16 << 20 + 1), 0)
        let before = fingerprint(fx.path)
        let r = run(["submit", "P/Draft/Moon.md", "P/Draft/Big.md", "--to", "P/Magazines/Granta"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Big.md"), r.stderr)
        XCTAssertEqual(fingerprint(fx.path), before)
    }

    /// Chillsubs' CSV is recorded as the project's submissions; rows that
    /// name no file or market, or are forged, are left out and said; a
    /// second import records nothing twice.
    func testChillsubsCSVImportsOnceAndSaysWhatItLeftOut() throws {
        let csv = [
            "Title,Publisher,Method,Date Submitted,Result Date,Status,Notes",
            "Spring,Granta,Submittable,2026-11-20,2026-12-01,Accepted,\"yes, finally\"",
            "moon,Review,,11/5/2026,,Pending,",
            "Nothing,Granta,,2026-11-20,,Pending,",
            "Spring,Nowhere,,2026-11-20,,Pending,",
            "Spring,Granta,,2026-13-40,,Pending,",
            "Spring,Review,,2026-11-22,,Maybe,",
        ].joined(separator: "\r\n")
        try csv.write(toFile: cli.sandbox.path + "/chillsubs.csv", atomically: false, encoding: .utf8)
        let r = run(["import-submissions", cli.sandbox.path + "/chillsubs.csv", "P"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Imported 2 submissions.\n")
        XCTAssertEqual(
            r.stderr,
            """
            carrel: Line 4 was not imported: no file of the project is named “Nothing”.
            carrel: Line 5 was not imported: no market is named “Nowhere”: make its folder in Magazines, Competitions, Commissions or Other first.
            carrel: Line 6 was not imported: “2026-13-40” is not a date (YYYY-MM-DD or M/D/YYYY).
            carrel: Line 7 was not imported: “Maybe” is not a status Carrel knows.

            """)
        let rows = run(["submissions"]).stdout.split(separator: "\n").map { $0.split(separator: "\t").prefix(4) }
        XCTAssertEqual(
            rows.map { $0.joined(separator: "|") },
            [
                "2026-11-05|Magazines/Review|Draft/Moon.md|pending 2026-11-05",
                "2026-11-20|Magazines/Granta|Draft/Spring.md|accepted 2026-12-01",
            ])
        let again = run(["import-submissions", cli.sandbox.path + "/chillsubs.csv", "P"])
        XCTAssertEqual(again.stdout, "Imported 0 submissions.\n")
        XCTAssertTrue(again.stderr.contains("Line 2 was not imported: it is recorded already."), again.stderr)
        XCTAssertEqual(run(["submissions"]).stdout.split(separator: "\n").count, 2)
        XCTAssertEqual(mkfifo(cli.sandbox.path + "/pipe.csv", 0o644), 0)
        XCTAssertEqual(
            run(["import-submissions", cli.sandbox.path + "/pipe.csv", "P"]).status, 1, "a pipe is never waited on")
    }
}
