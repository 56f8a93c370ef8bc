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

    // MARK: A typed path finds its library

    func testInitOfAFirstProjectByAbsolutePathFromAnUnrelatedFolder() throws {
        let before = fx.digest("Elsewhere")
        let r = run(["init", "$R/Empty/Novel", "--type", "novel"], in: "Elsewhere")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, expand("$R/Empty/Novel\n"))
        XCTAssertTrue(fx.exists("Empty/Novel/.carrel/project.json"))
        XCTAssertTrue(fx.exists("Empty/Novel/Chapters"))
        XCTAssertEqual(fx.digest("Elsewhere"), before, "nothing made where the command ran")
        // The new project's folder is now a library, found the same way from anywhere.
        let tree = run(["tree", "$R/Empty", "--depth", "1"], in: "Elsewhere")
        XCTAssertEqual(tree.status, 0, tree.stderr)
        XCTAssertTrue(tree.stdout.contains("Novel (Novel)"), tree.stdout)
    }

    func testInitBesideProjectsByAbsolutePathFromTheRoot() throws {
        let r = run(["init", "$R/Writing/Story", "--type", "short story"], in: "/")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, expand("$R/Writing/Story\n"))
        XCTAssertTrue(fx.exists("Writing/Story/.carrel/project.json"))
    }

    func testTreeByAbsolutePathRendersAsFromInside() throws {
        let inside = run(["tree"], in: "Writing")
        XCTAssertEqual(inside.status, 0, inside.stderr)
        XCTAssertTrue(inside.stdout.contains("Poems (Poetry)"), inside.stdout)
        XCTAssertTrue(inside.stdout.contains("Novel (Novel)"), inside.stdout)
        XCTAssertTrue(inside.stdout.contains("YOUR POETRY"), inside.stdout)
        // From the folder above, from an unrelated one, and from the home folder.
        for cwd in [".", "Elsewhere", "home/ada"] {
            let r = run(["tree", "$R/Writing"], in: cwd)
            XCTAssertEqual(r.status, 0, "from \(cwd): \(r.stderr)")
            XCTAssertEqual(r.stdout, inside.stdout, "from \(cwd)")
            XCTAssertEqual(r.stderr, "", "from \(cwd)")
        }
        let project = run(["tree", "Poems"], in: "Writing")
        XCTAssertEqual(run(["tree", "$R/Writing/Poems"], in: "Elsewhere").stdout, project.stdout)
    }

    func testNewFileByAbsolutePathFromElsewhere() throws {
        let r = run(["new-file", "$R/Writing/Poems/Draft", "Sonnet"], in: "Elsewhere")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, expand("$R/Writing/Poems/Draft/Sonnet.md\n"))
        XCTAssertTrue(fx.exists("Writing/Poems/Draft/Sonnet.md"))
    }

    /// A project goes directly in its library: a folder inside one is not
    /// made a library of its own behind the writer's back.
    func testInitInAFolderOfALibraryNamesTheLibrary() throws {
        openOnce()
        let before = fx.digest()
        let r = run(["init", "$R/Writing/Notes/Play", "--type", "script"], in: "Elsewhere")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains(expand("$R/Writing/Notes is a folder in the library $R/Writing")), r.stderr)
        XCTAssertTrue(r.stderr.contains("--library"), r.stderr)
        XCTAssertEqual(fx.digest(), before)
    }

    // MARK: Never a system or home folder

    func testTheHomeFolderIsNeverTakenAsTheLibrary() throws {
        let before = fx.digest()
        let rows: [(args: [String], cwd: String, around: String)] = [
            (["tree"], "home/ada", "$R/home/ada"),
            (["tree"], "home/ada/Downloads", "$R/home/ada/Downloads"),
            (["tree", "$R/home/ada/Stories"], "Elsewhere", "$R/home/ada/Stories"),
            (["rm", "$R/home/ada/Stories/Trash"], "Elsewhere", "$R/home/ada/Stories/Trash"),
            (["init", "$R/home/ada/Memoir", "--type", "blank"], "Elsewhere", "$R/home/ada/Memoir"),
            (["init", "$R/home/bob/Memoir", "--type", "blank"], "Elsewhere", "$R/home/bob/Memoir"),
            (["tree"], "home", "$R/home"),
        ]
        for row in rows {
            let r = run(row.args, in: row.cwd)
            let said = "carrel \(row.args.joined(separator: " ")) in \(row.cwd): \(r.stderr)"
            XCTAssertEqual(r.status, 2, said)
            XCTAssertEqual(r.stdout, "", said)
            XCTAssertTrue(r.stderr.contains("a system or home folder"), said)
            XCTAssertTrue(r.stderr.contains(expand(row.around)), said)
            XCTAssertTrue(r.stderr.contains("--library DIR"), said)
        }
        XCTAssertEqual(fx.digest(), before)
        // Named, it is the library.
        let named = run(["tree", "--depth", "1", "--library", "$R/home/ada"], in: "Elsewhere")
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(named.stdout.contains("Stories (Blank)"), named.stdout)
    }

    func testTheRootIsNeverTakenAsTheLibrary() throws {
        for (args, cwd) in [(["tree"], "/"), (["init", "/Memoir", "--type", "blank"], "Elsewhere")] {
            let r = run(args, in: cwd)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("a system or home folder"), r.stderr)
            XCTAssertTrue(r.stderr.contains("--library DIR"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/Memoir"))
    }

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
