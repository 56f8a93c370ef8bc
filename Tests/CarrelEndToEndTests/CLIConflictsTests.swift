import CarrelJSON
import CarrelTestSupport
import XCTest

/// `carrel conflicts` lists the copies sync engines left, each with its
/// original, and changes nothing.
final class CLIConflictsTests: XCTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"poetry"}
        P/Draft/p1.md = mine
        P/Draft/p1.sync-conflict-20261123-101500-ABCDEFG.md = theirs
        P/Ready/Old/gone (Ada's conflicted copy 2026-11-23).md = orphan
        P/Trash/x.sync-conflict-20261123-101500-ABCDEFG.md = trashed
        """

    func testListsEachCopyAfterItsOriginalOnePerLine() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["conflicts"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            "\(fx.path)/P/Draft/p1.md\t\(fx.path)/P/Draft/p1.sync-conflict-20261123-101500-ABCDEFG.md\n"
                + "\(fx.path)/P/Ready/Old/gone.md\t\(fx.path)/P/Ready/Old/gone (Ada's conflicted copy 2026-11-23).md\n")
        XCTAssertEqual(fx.read("P/Draft/p1.sync-conflict-20261123-101500-ABCDEFG.md"), "theirs")
    }

    func testJSONAndAPathNarrowIt() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["conflicts", "P/Ready", "--json"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            try JSONParser.parse(Array(r.stdout.utf8)),
            [
                [
                    "copy": .string("\(fx.path)/P/Ready/Old/gone (Ada's conflicted copy 2026-11-23).md"),
                    "original": .string("\(fx.path)/P/Ready/Old/gone.md"), "originalExists": false,
                ]
            ])
        XCTAssertEqual(try CLIRunner().run(["conflicts", "P/Trash"], in: fx.path).stdout.count > 0, true)
        XCTAssertEqual(try CLIRunner().run(["conflicts", "P/Draft/p1.md"], in: fx.path).stdout, "")
    }
}
