import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// The real binary's `mv` and `rename` keep links true as `carrel links`
/// says (always, ask, never), ask only on a terminal, and with `--dry-run`
/// show the move and every link edit while changing nothing.
final class CLILinksTests: XCTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Novel/Characters/Ada.md = Ada was born.
        P/Novel/Characters/Bea.md = See [[Ada]] and [her](Ada.md).
        P/Novel/One.md = Meet [Ada](Characters/Ada.md#kid).
        P/Novel/Places/
        """

    func read(_ fx: Fixture, _ relative: String) throws -> String {
        try String(contentsOf: fx.url(relative), encoding: .utf8)
    }

    func setting(_ fx: Fixture) throws -> JSONValue? {
        try JSONParser.parse(Array(fx.read("P/.carrel/project.json")!.utf8))["preferences"]?["linkUpdates"]
    }

    func testLinksSetsTheProjectsModeInProjectJSON() throws {
        let fx = try Fixture(Self.tree)
        let cli = try CLIRunner()
        let r = cli.run(["links", "P/Novel", "always"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout, "Renames and moves in \(fx.path)/P now update the links to what they move.\n")
        let stored = try XCTUnwrap(setting(fx))
        XCTAssertEqual(stored["value"], "always")
        XCTAssertGreaterThan(stored["changed"]?.intValue ?? 0, 0, "stamped, so a merge takes the latest")
        XCTAssertEqual(cli.run(["links", "P", "never"], in: fx.path).status, 0)
        XCTAssertEqual(try setting(fx)?["value"], "never")
    }

    func testAnUnknownModeChangesNothing() throws {
        let fx = try Fixture(Self.tree)
        let cli = try CLIRunner()
        XCTAssertEqual(cli.run(["tree"], in: fx.path).status, 0)
        let before = fx.digest()
        let r = cli.run(["links", "P", "sometimes"], in: fx.path)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "carrel: Say always, ask or never, not “sometimes”. Nothing was changed.\n")
        XCTAssertEqual(fx.digest(), before)
    }

    func testDryRunShowsEachLinkAndLeavesTheDiskByteIdentical() throws {
        let fx = try Fixture(Self.tree)
        let cli = try CLIRunner()
        // Opening a library first repairs it (the template's missing folders): that is not the dry run's doing.
        XCTAssertEqual(cli.run(["tree"], in: fx.path).status, 0)
        let before = fx.digest()
        let r = cli.run(["rename", "P/Novel/Characters/Ada.md", "Ada Lovelace", "--dry-run"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            """
            Would move \(fx.path)/P/Novel/Characters/Ada.md to \(fx.path)/P/Novel/Characters/Ada Lovelace.md.
            3 links in 2 files will change:
              P/Novel/Characters/Bea.md
                1: Ada → Ada Lovelace
                1: Ada.md → Ada%20Lovelace.md
              P/Novel/One.md
                1: Characters/Ada.md → Characters/Ada%20Lovelace.md

            """)
        XCTAssertEqual(fx.digest(), before, "a dry run changes nothing")
        let mv = cli.run(["mv", "P/Novel/One.md", "P/Novel/Places", "--dry-run"], in: fx.path)
        XCTAssertEqual(mv.status, 0, mv.stderr)
        XCTAssertTrue(mv.stdout.contains("1 link in 1 file will change:\n  P/Novel/One.md\n"), mv.stdout)
        XCTAssertTrue(mv.stdout.contains("1: Characters/Ada.md → ../Characters/Ada.md"), mv.stdout)
        XCTAssertEqual(fx.digest(), before, "a dry run changes nothing")
        // Into the Trash, as a delete: links are left to show what went.
        let trash = cli.run(["mv", "P/Novel/Characters/Ada.md", "P/Trash", "--dry-run"], in: fx.path)
        XCTAssertEqual(trash.status, 0, trash.stderr)
        XCTAssertTrue(trash.stdout.hasSuffix("No link would change.\n"), trash.stdout)
        XCTAssertEqual(fx.digest(), before, "a dry run changes nothing")
    }

    func testDryRunRefusesWhatTheMoveWouldRefuse() throws {
        let fx = try Fixture(Self.tree + "\nP/Novel/Characters/Cy.md = Cy.")
        let cli = try CLIRunner()
        XCTAssertEqual(cli.run(["tree"], in: fx.path).status, 0)
        let before = fx.digest()
        let r = cli.run(["rename", "P/Novel/Characters/Ada.md", "Cy", "--dry-run"], in: fx.path)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Cy.md"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(fx.digest(), before)
    }

    func testAskWithoutATerminalLeavesLinksAndSaysSo() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["rename", "P/Novel/Characters/Ada.md", "Ada Lovelace"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "\(fx.path)/P/Novel/Characters/Ada Lovelace.md\n")
        XCTAssertTrue(
            r.stderr.contains("3 links in 2 files still point to the old place of “Ada.md”: there was no terminal"),
            r.stderr)
        XCTAssertEqual(try read(fx, "P/Novel/One.md"), "Meet [Ada](Characters/Ada.md#kid).")
    }

    func testAskOnATerminalUpdatesOnYes() throws {
        let fx = try Fixture(Self.tree)
        let tty: PseudoTerminal
        do {
            tty = try PseudoTerminal()
        } catch let e as PseudoTerminal.Unavailable { throw XCTSkip(e.description) }
        tty.type("y\n")
        let r = try CLIRunner().run(
            ["mv", "P/Novel/Characters/Ada.md", "P/Novel/Places"], in: fx.path, input: tty.slave)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("2 links in 2 files point to “Ada.md”: update them? [y/N]"), r.stderr)
        XCTAssertTrue(r.stderr.contains("Updated 2 links in 2 files."), r.stderr)
        XCTAssertEqual(try read(fx, "P/Novel/One.md"), "Meet [Ada](Places/Ada.md#kid).")
        XCTAssertEqual(try read(fx, "P/Novel/Characters/Bea.md"), "See [[Ada]] and [her](../Places/Ada.md).")
    }

    func testAlwaysUpdatesWithoutAskingAndNeverLeavesThemSilently() throws {
        let fx = try Fixture(Self.tree)
        let cli = try CLIRunner()
        XCTAssertEqual(cli.run(["links", "P", "always"], in: fx.path).status, 0)
        let always = cli.run(["rename", "P/Novel/Characters/Ada.md", "Ada Lovelace"], in: fx.path)
        XCTAssertEqual(always.status, 0, always.stderr)
        XCTAssertEqual(always.stderr, "Updated 3 links in 2 files.\n")
        XCTAssertEqual(try read(fx, "P/Novel/One.md"), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")

        XCTAssertEqual(cli.run(["links", "P", "never"], in: fx.path).status, 0)
        let never = cli.run(["rename", "P/Novel/Characters/Ada Lovelace.md", "Ada"], in: fx.path)
        XCTAssertEqual(never.status, 0, never.stderr)
        XCTAssertEqual(never.stderr, "")
        XCTAssertEqual(try read(fx, "P/Novel/One.md"), "Meet [Ada](Characters/Ada%20Lovelace.md#kid).")
    }
}
