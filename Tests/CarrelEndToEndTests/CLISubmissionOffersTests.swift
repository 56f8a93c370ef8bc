import CarrelTestSupport
import Foundation
import XCTest

/// What the CLI says around a submission's news: an acceptance offers the
/// move to Published, made with --move-to-published; deleting a sent piece
/// for good says its text as sent goes too.
final class CLISubmissionOffersTests: CLISubmissionsTestCase {
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

    /// `compile --submit-to` submits the packet's pieces with the document as its packet.
    func testCompilingAPacketSubmitsIt() throws {
        try FileManager.default.createDirectory(atPath: fx.path + "/P/Ready", withIntermediateDirectories: true)
        try "sea sea".write(toFile: fx.path + "/P/Ready/Spring.md", atomically: false, encoding: .utf8)
        let compiled = run([
            "compile", "P", "--to", "markdown", "--submit-to", "P/Magazines/Granta", "--date", "2026-11-20",
        ])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        XCTAssertTrue(compiled.stdout.hasPrefix("Compiled "), compiled.stdout)
        XCTAssertTrue(
            compiled.stderr.contains("Submitted “Spring.md” to “Granta” on 2026-11-20."), compiled.stderr)
        let listed = run(["submissions", "P", "--json"])
        XCTAssertTrue(listed.stdout.contains("Compiled/P.md"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("Ready/Spring.md"), listed.stdout)
    }

    func testSubmitToIsRefusedForARecipeThatIsNoPacketAndNothingIsWritten() throws {
        try FileManager.default.createDirectory(atPath: fx.path + "/N/.carrel", withIntermediateDirectories: true)
        try #"{"type":"novel"}"#.write(toFile: fx.path + "/N/.carrel/project.json", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: fx.path + "/N/Chapters", withIntermediateDirectories: true)
        try "once".write(toFile: fx.path + "/N/Chapters/One.md", atomically: false, encoding: .utf8)
        let refused = run(["compile", "N", "--to", "markdown", "--submit-to", "P/Magazines/Granta"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("is not a submission packet"), refused.stderr)
        XCTAssertFalse(fx.exists("N/Compiled"))
    }
}
