import CarrelTestSupport
import Foundation
import XCTest

/// `carrel duplicate PATH`: the server's duplicate from a shell, with its
/// refusals and what it left out.
final class CLIDuplicateTests: XCTestCase {
    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = the first line
            P/Draft/Cycle/one.md = 1
            P/Trash/old.md = gone
            """)
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli = nil
        fx = nil
    }

    func testACopyBesideTheOriginalPrintsItsPath() {
        let first = cli.run(["duplicate", "P/Draft/Spring.md"], in: fx.path)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, fx.path + "/P/Draft/Spring copy.md\n")
        let second = cli.run(["duplicate", "P/Draft/Spring.md"], in: fx.path)
        XCTAssertEqual(second.stdout, fx.path + "/P/Draft/Spring copy 2.md\n")
        XCTAssertEqual(fx.read("P/Draft/Spring copy 2.md"), "the first line")
    }

    func testWhatIsLeftOutIsSaidOnStderr() {
        XCTAssertEqual(mkfifo(fx.path + "/P/Draft/Cycle/pipe", 0o644), 0)
        let r = cli.run(["duplicate", "P/Draft/Cycle"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, fx.path + "/P/Draft/Cycle copy\n")
        XCTAssertEqual(
            r.stderr,
            "carrel: Duplicated “Cycle” as “Cycle copy”, leaving out 1 item that is not a file, folder or link.\n")
        XCTAssertEqual(fx.listing("P/Draft/Cycle copy"), ["one.md"])
    }

    func testRefusalsChangeNothing() {
        // The first open recreates the project's missing permanent folders.
        _ = cli.run(["tree"], in: fx.path)
        let before = fingerprint(fx.path)
        for (path, said) in [
            ("P/Trash/old.md", "“old.md” is in the Trash. Restore it first, then duplicate it."),
            ("P/Draft", "“Draft” is a permanent folder"),
            ("P", "“P” is a project; Carrel does not duplicate projects."),
        ] {
            let r = cli.run(["duplicate", path], in: fx.path)
            XCTAssertEqual(r.status, 1, path)
            XCTAssertTrue(r.stderr.contains(said), r.stderr)
        }
        XCTAssertEqual(cli.run(["duplicate"], in: fx.path).status, 2, "PATH is required")
        XCTAssertEqual(fingerprint(fx.path), before)
    }
}
