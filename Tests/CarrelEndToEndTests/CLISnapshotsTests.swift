import CarrelTestSupport
import Foundation
import XCTest

/// `carrel snapshot`, `snapshots`, `compare` and `rollback`: snapshots from
/// a shell, with the real binary, its device id in its own state folder,
/// and its refusals.
final class CLISnapshotsTests: XCTestCase {
    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = one two three four
            P/Draft/Cycle/a.md = a
            notes.md = loose
            """)
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli = nil
        fx = nil
    }

    func testTakeListCompareAndRollBack() throws {
        let taken = cli.run(["snapshot", "P/Draft/Spring.md", "--title", "First go"], in: fx.path)
        XCTAssertEqual(taken.status, 0, taken.stderr)
        let path = taken.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(path.hasPrefix(fx.path + "/P/.carrel/snapshots/Draft/Spring.md/"), path)
        XCTAssertTrue(path.hasSuffix(" 4w First go.md"), path)
        let device = try String(contentsOfFile: cli.sandbox.path + "/state/carrel/device-id", encoding: .utf8)
        XCTAssertTrue(path.contains(" \(device.trimmingCharacters(in: .newlines))-"), "the device's own id")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "one two three four")

        try "one two five four six".write(toFile: fx.path + "/P/Draft/Spring.md", atomically: false, encoding: .utf8)
        let listed = cli.run(["snapshots", "P/Draft/Spring.md"], in: fx.path)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let columns = listed.stdout.trimmingCharacters(in: .newlines).components(separatedBy: "\t")
        XCTAssertEqual(columns.count, 4, listed.stdout)
        XCTAssertTrue(columns[0].hasSuffix(" UTC"))
        XCTAssertEqual(Array(columns[1...2]), ["4 words", "First go"])
        let name = columns[3]
        XCTAssertEqual(fx.path + "/P/.carrel/snapshots/Draft/Spring.md/" + name, path)

        let compared = cli.run(["compare", "P/Draft/Spring.md", name], in: fx.path)
        XCTAssertEqual(compared.status, 0, compared.stderr)
        XCTAssertEqual(compared.stdout, "+2 −1 words\n\(path)\n")
        XCTAssertEqual(
            cli.run(["compare", "P/Draft/Spring.md", path], in: fx.path).stdout, compared.stdout,
            "a path to the snapshot names it too")

        let rolled = cli.run(["rollback", "P/Draft/Spring.md", name], in: fx.path)
        XCTAssertEqual(rolled.status, 0, rolled.stderr)
        XCTAssertEqual(rolled.stdout, fx.path + "/P/Draft/Spring.md\n")
        XCTAssertTrue(rolled.stderr.contains("the text it replaced is the snapshot"), rolled.stderr)
        XCTAssertEqual(fx.read("P/Draft/Spring.md"), "one two three four")
        let after = cli.run(["snapshots", "P/Draft/Spring.md", "--json"], in: fx.path)
        XCTAssertTrue(after.stdout.contains("\"title\":\"Before rolling back\""), after.stdout)
        XCTAssertTrue(after.stdout.contains("\"words\":5"), after.stdout)
    }

    func testAFolderGetsOneOfEachFile() {
        let r = cli.run(["snapshot", "P/Draft"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 2)
    }

    func testSkippedNamesAreSaidOnStderr() throws {
        _ = cli.run(["snapshot", "P/Draft/Spring.md"], in: fx.path)
        let dir = fx.path + "/P/.carrel/snapshots/Draft/Spring.md"
        XCTAssertEqual(mkfifo(dir + "/2026-01-02T03-04-05.006Z 00000000-00000001 3w.md", 0o644), 0)
        let r = cli.run(["snapshots", "P/Draft/Spring.md"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(
            r.stderr,
            "Skipped “2026-01-02T03-04-05.006Z 00000000-00000001 3w.md”: it is a named pipe (FIFO), not a file.\n")
        let refused = cli.run(
            ["rollback", "P/Draft/Spring.md", "2026-01-02T03-04-05.006Z 00000000-00000001 3w.md"], in: fx.path)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("cannot be used: it is a named pipe (FIFO), not a file"), refused.stderr)
    }

    func testRefusalsChangeNothing() {
        _ = cli.run(["tree"], in: fx.path)
        let before = fingerprint(fx.path)
        for (args, said) in [
            (["snapshot", "notes.md"], "“notes.md” is in no project"),
            (["snapshot", "P/Draft/Spring.md", "--title", "1/2"], "cannot contain “/”"),
            (["compare", "P/Draft/Spring.md", "forged.md"], "“forged.md” is not a snapshot of “Spring.md”."),
            (["rollback", "P/Draft/Spring.md", "forged.md"], "“forged.md” is not a snapshot of “Spring.md”."),
        ] {
            let r = cli.run(args, in: fx.path)
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertTrue(r.stderr.contains(said), r.stderr)
        }
        XCTAssertEqual(cli.run(["compare", "P/Draft/Spring.md"], in: fx.path).status, 2, "SNAPSHOT is required")
        XCTAssertEqual(fingerprint(fx.path), before)
    }
}
