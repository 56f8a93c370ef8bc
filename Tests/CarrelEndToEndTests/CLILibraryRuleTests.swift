import CarrelTestSupport
import Foundation
import XCTest

/// Which library the CLI works in when none is named: the one around the
/// path the writer typed, wherever the command is run from; never a system
/// or home folder; and every refusal says how to name another library.
final class CLILibraryRuleTests: XCTestCase {
    /// `Writing` holds two projects; `Empty` is a writer's folder with no
    /// project yet; `Elsewhere` is unrelated; `home/ada` is the home folder.
    static let tree = """
        Writing/Poems/.carrel/project.json = {"type":"poetry"}
        Writing/Poems/Draft/Ode.md = an ode
        Writing/Poems/Trash/
        Writing/Novel/.carrel/project.json = {"type":"novel"}
        Writing/Novel/Chapters/One.md = it began
        Writing/Notes/idea.md = an idea
        Empty/
        Elsewhere/f.txt = f
        home/ada/Stories/.carrel/project.json = {"type":"blank"}
        home/ada/Stories/Trash/
        home/ada/Downloads/
        home/bob/
        """

    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture(Self.tree)
        cli = try CLIRunner()
    }

    /// Runs carrel in `cwd` (relative to the fixture, or absolute) with
    /// HOME at the fixture's home/ada; "$R" in arguments is the fixture.
    func run(_ args: [String], in cwd: String, environment: [String: String] = [:]) -> CLIRunner.Result {
        let dir = cwd.hasPrefix("/") ? cwd : fx.path + "/" + cwd
        let env = ["HOME": fx.path + "/home/ada"].merging(environment.mapValues(expand)) { $1 }
        return cli.run(args.map(expand), in: dir, environment: env)
    }

    /// Opens `Writing` once, so that its projects' missing permanent
    /// folders are made before a digest is taken.
    func openOnce() {
        XCTAssertEqual(run(["tree", "--depth", "0"], in: "Writing").status, 0)
    }

    func expand(_ s: String) -> String { s.replacingOccurrences(of: "$R", with: fx.path) }

    // MARK: Refusals name the way forward

    /// Every command refused for a path outside the library names
    /// `--library`; only those that change something say nothing changed.
    func testEveryOutsideRefusalNamesTheLibraryOption() throws {
        let outside = "$R/Elsewhere/f.txt"
        let rows: [(args: [String], reads: Bool)] = [
            (["tree", "$R/Elsewhere"], true),
            (["conflicts", "$R/Elsewhere"], true),
            (["new-folder", "$R/Elsewhere", "X"], false),
            (["new-file", "$R/Elsewhere", "X"], false),
            (["rename", outside, "g.txt"], false),
            (["mv", outside, "$R/Writing/Notes"], false),
            (["mv", "$R/Writing/Notes/idea.md", "$R/Elsewhere"], false),
            (["rm", outside, "--system-trash"], false),
            (["restore", outside], false),
            (["empty-trash", "$R/Elsewhere", "--yes"], false),
            (["sort", "$R/Elsewhere", "name"], false),
            (["reorder", outside, "--before", "g.txt"], false),
            (["ask-before-deleting", outside, "yes"], false),
            (["target", outside, "10"], false),
        ]
        openOnce()
        let before = fx.digest()
        for row in rows {
            let r = run(row.args, in: "Writing")
            let said = "carrel \(row.args.joined(separator: " ")): \(r.stderr)"
            XCTAssertEqual(r.status, 2, said)
            XCTAssertTrue(r.stderr.contains(expand("is outside the library $R/Writing")), said)
            XCTAssertTrue(r.stderr.contains("--library DIR"), said)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, said)
            XCTAssertEqual(r.stderr.contains("Nothing was changed"), !row.reads, said)
        }
        XCTAssertEqual(fx.digest(), before)
    }

    func testAReadOnlyRefusalSaysWhatIsTrue() throws {
        let r = run(["tree", "$R/Elsewhere"], in: "Writing")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr,
            expand(
                "carrel: $R/Elsewhere is outside the library $R/Writing; Carrel only shows what is inside it. "
                    + "To see another library, name it with --library DIR.\n"))
        let french = run(["conflicts", "$R/Elsewhere"], in: "Writing", environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertTrue(french.stderr.contains("--library DOSSIER"), french.stderr)
        XCTAssertFalse(french.stderr.contains("Rien n’a changé"), french.stderr)
    }
}
