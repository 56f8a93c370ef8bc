import CarrelTestSupport
import Foundation
import XCTest

/// `carrel undo` and `carrel redo`: the library's last operation taken back
/// from a shell, said in its own words; refusals change nothing.
final class CLIUndoTests: XCTestCase {
    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = the first line
            P/Ready/
            """)
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli = nil
        fx = nil
    }

    func testEachOperationComesBackAndGoesAgain() {
        XCTAssertEqual(cli.run(["mv", "P/Draft/Spring.md", "P/Ready"], in: fx.path).status, 0)
        XCTAssertEqual(cli.run(["rm", "P/Ready/Spring.md"], in: fx.path).status, 0)
        XCTAssertEqual(cli.run(["new-file", "P/Draft", "Summer"], in: fx.path).status, 0)
        let said = ["undo", "undo", "undo", "redo"].map { cli.run([$0], in: fx.path).stdout }
        XCTAssertEqual(
            said,
            [
                "Moved the new “Summer.md” to the Trash; Redo brings it back.\n",
                "Put “Spring.md” back from the Trash.\n",
                "Moved “Spring.md” back to “Draft”.\n",
                "Moved “Spring.md” to “Ready” again.\n",
            ])
        XCTAssertEqual(fx.listing("P/Ready"), ["Spring.md"])
        XCTAssertEqual(fx.listing("P/Trash"), ["Summer.md"], "the new file went to the Trash, not away")
    }

    func testASortAndATargetComeBack() {
        XCTAssertEqual(cli.run(["sort", "P/Draft", "modified"], in: fx.path).status, 0)
        XCTAssertEqual(cli.run(["target", "P/Draft/Spring.md", "400"], in: fx.path).status, 0)
        XCTAssertEqual(cli.run(["undo"], in: fx.path).stdout, "Put back the word target of “Spring.md”.\n")
        XCTAssertEqual(cli.run(["undo"], in: fx.path).stdout, "Sorted “Draft” as before.\n")
        let project = fx.read("P/.carrel/project.json") ?? ""
        XCTAssertFalse(project.contains("\"modified\""), project)
        XCTAssertFalse(project.contains("400"), project)
    }

    func testNothingToUndoIsNoError() {
        let r = cli.run(["undo"], in: fx.path)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "Nothing to undo.\n")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(cli.run(["redo"], in: fx.path).stdout, "Nothing to redo.\n")
    }

    func testAFileEditedSinceIsRefusedAndLeftAlone() throws {
        XCTAssertEqual(cli.run(["rename", "P/Draft/Spring.md", "Dawn"], in: fx.path).status, 0)
        try "rewritten by another program".write(
            toFile: fx.path + "/P/Draft/Dawn.md", atomically: false, encoding: .utf8)
        let r = cli.run(["undo"], in: fx.path)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("was edited or replaced since"), r.stderr)
        XCTAssertEqual(fx.listing("P/Draft"), ["Dawn.md"])
        XCTAssertEqual(cli.run(["undo"], in: fx.path).stdout, "Nothing to undo.\n")
    }

    func testACorruptJournalIsSetAsideAndSaidOnStderr() throws {
        XCTAssertEqual(cli.run(["rename", "P/Draft/Spring.md", "Dawn"], in: fx.path).status, 0)
        let folder = cli.sandbox.path + "/state/carrel/undo"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(names.count, 1, "\(names)")
        try "{\"version\":1,".write(toFile: folder + "/" + names[0], atomically: false, encoding: .utf8)
        let r = cli.run(["undo"], in: fx.path)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "Nothing to undo.\n")
        XCTAssertTrue(r.stderr.contains("The undo history could not be read"), r.stderr)
        XCTAssertEqual(fx.listing("P/Draft"), ["Dawn.md"])
    }
}
