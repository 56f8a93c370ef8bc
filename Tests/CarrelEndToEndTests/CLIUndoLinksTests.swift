import CarrelTestSupport
import Foundation
import XCTest

/// `carrel undo` after `carrel mv` or `carrel rename` that updated links
/// puts the links back with the item, and `carrel redo` makes them again.
final class CLIUndoLinksTests: XCTestCase {
    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = See [[Ada]] and [her](Ada.md).
            P/Novel/One.md = Meet [Ada](Characters/Ada.md#kid).
            P/Novel/Old/
            """)
        cli = try CLIRunner()
        XCTAssertEqual(cli.run(["links", "P", "always"], in: fx.path).status, 0)
    }

    override func tearDown() {
        cli = nil
        fx = nil
    }

    func testUndoOfAMvPutsTheLinksBackAndRedoMakesThemAgain() {
        let moved = cli.run(["mv", "P/Novel/Characters/Ada.md", "P/Novel/Old"], in: fx.path)
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(fx.read("P/Novel/One.md"), "Meet [Ada](Old/Ada.md#kid).")
        XCTAssertEqual(fx.read("P/Novel/Characters/Bea.md"), "See [[Ada]] and [her](../Old/Ada.md).")

        let undone = cli.run(["undo"], in: fx.path)
        XCTAssertEqual(undone.stdout, "Moved “Ada.md” back to “Characters”.\n", undone.stderr)
        XCTAssertEqual(fx.read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid).")
        XCTAssertEqual(fx.read("P/Novel/Characters/Bea.md"), "See [[Ada]] and [her](Ada.md).")

        let redone = cli.run(["redo"], in: fx.path)
        XCTAssertEqual(redone.status, 0, redone.stderr)
        XCTAssertEqual(fx.read("P/Novel/One.md"), "Meet [Ada](Old/Ada.md#kid).")
        XCTAssertEqual(fx.read("P/Novel/Characters/Bea.md"), "See [[Ada]] and [her](../Old/Ada.md).")
    }

    /// No file is rewritten without its record: where the record cannot be
    /// written, the undo is refused, nothing moves, and the step stays.
    func testWithoutARecordNothingIsTakenBack() throws {
        XCTAssertEqual(cli.run(["rename", "P/Novel/Characters/Ada.md", "Ada Lovelace"], in: fx.path).status, 0)
        let links = try XCTUnwrap(cli.environment["XDG_STATE_HOME"]) + "/carrel/links"
        try FileManager.default.removeItem(atPath: links)
        try "not a folder".write(toFile: links, atomically: false, encoding: .utf8)
        let refused = cli.run(["undo"], in: fx.path)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("could not write its record of the links to put back"), refused.stderr)
        XCTAssertTrue(fx.exists("P/Novel/Characters/Ada Lovelace.md"))
        XCTAssertEqual(fx.read("P/Novel/One.md"), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
        try FileManager.default.removeItem(atPath: links)
        let undone = cli.run(["undo"], in: fx.path)
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(fx.read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid).")
    }

    func testARenamesLinkEditedSinceRefusesTheUndoAndChangesNothing() throws {
        XCTAssertEqual(cli.run(["rename", "P/Novel/Characters/Ada.md", "Ada Lovelace"], in: fx.path).status, 0)
        try "Rewritten by hand.".write(to: fx.url("P/Novel/Characters/Bea.md"), atomically: false, encoding: .utf8)
        let refused = cli.run(["undo"], in: fx.path)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("were edited since"), refused.stderr)
        XCTAssertTrue(fx.exists("P/Novel/Characters/Ada Lovelace.md"))
        XCTAssertEqual(fx.read("P/Novel/One.md"), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
    }
}
