import CarrelTestSupport
import Foundation
import XCTest

/// What the CLI says around a submission's news: an acceptance offers the
/// move to Published, made with --move-to-published; deleting a sent piece
/// for good says its text as sent goes too.
final class CLISubmissionOffersTests: XCTestCase {
    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea sea
            P/Draft/Moon.md = moon
            P/Magazines/Granta/
            """)
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli = nil
        fx = nil
    }

    func run(_ args: [String], stdin: String? = nil) -> CLIRunner.Result {
        cli.run(args, in: fx.path, stdin: stdin)
    }

    func send(_ piece: String) -> String {
        let sent = run(["submit", piece, "--to", "P/Magazines/Granta", "--date", "2026-11-20"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        return sent.stdout.trimmingCharacters(in: .newlines)
    }

    func testAnAcceptanceOffersPublishedAndTheFlagMovesThePiece() {
        let id = send("P/Draft/Spring.md")
        let offered = run(["submission-status", id, "accepted"])
        XCTAssertEqual(offered.status, 0, offered.stderr)
        XCTAssertEqual(
            offered.stdout,
            "“Spring.md” at “Granta”: accepted. Move it to “Published” once it is published.\n"
                + "Add --move-to-published to move it to Published now.\n")
        XCTAssertTrue(fx.exists("P/Draft/Spring.md"), "only offered")

        let moved = run(["submission-status", id, "accepted", "--move-to-published"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(moved.stdout, "“Spring.md” at “Granta”: accepted.\n\(fx.path)/P/Published/Spring.md\n")
        XCTAssertFalse(fx.exists("P/Draft/Spring.md"))
        XCTAssertEqual(fx.read("P/Published/Spring.md"), "sea sea")
        let listed = run(["submissions", "P/Published/Spring.md"])
        XCTAssertTrue(listed.stdout.contains("Published/Spring.md"), "the record follows: \(listed.stdout)")
        XCTAssertEqual(fx.listing("P/.carrel/snapshots/Published/Spring.md").count, 1, "the text sent follows")
        XCTAssertEqual(run(["undo"]).status, 0, "an ordinary move, undone as one")
        XCTAssertTrue(fx.exists("P/Draft/Spring.md"))
    }

    func testTheFlagMovesNothingButAcceptedPieces() {
        let id = send("P/Draft/Moon.md")
        let rejected = run(["submission-status", id, "rejected", "--move-to-published"])
        XCTAssertEqual(rejected.status, 0, rejected.stderr)
        XCTAssertEqual(rejected.stdout, "“Moon.md” at “Granta”: rejected.\n")
        XCTAssertTrue(fx.exists("P/Draft/Moon.md"))
    }

    func testDeletingASentPieceForGoodSaysItsTextAsSentGoesToo() {
        _ = send("P/Draft/Spring.md")
        XCTAssertEqual(run(["rm", "P/Draft/Spring.md"]).status, 0)
        let asked = run(["rm", "P/Trash/Spring.md"], stdin: "no\n")
        XCTAssertEqual(asked.status, 1)
        XCTAssertTrue(
            asked.stderr.contains(
                "Delete “\(fx.path)/P/Trash/Spring.md” forever? This cannot be undone. "
                    + "“Spring.md” was sent to “Granta”; its text as sent goes too. [y/N]"),
            asked.stderr)
        let emptying = run(["empty-trash", "P"], stdin: "no\n")
        XCTAssertTrue(
            emptying.stderr.contains(
                "forever? This cannot be undone. “Spring.md” was sent to “Granta”; its text as sent goes too. [y/N]"),
            emptying.stderr)
        XCTAssertTrue(fx.exists("P/Trash/Spring.md"))
    }
}
