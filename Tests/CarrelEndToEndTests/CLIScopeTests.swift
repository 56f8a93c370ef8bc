import CarrelTestSupport
import Foundation
import XCTest

/// The CLI as a writer and a script use it: one library, found as an editor
/// opens a workspace folder, and nothing changed outside it. One row per
/// mistake a newcomer made; each runs the real binary in a fresh tree.
final class CLIScopeTests: XCTestCase {
    /// `Writing` is the library (it holds projects); `WritingX` and `Outside` are not in it.
    static let tree = """
        Writing/My poetry/.carrel/project.json = {"type":"poetry"}
        Writing/My poetry/Draft/poem.md = Roses
        Writing/My poetry/Ready/
        Writing/My poetry/Set Aside/
        Writing/My poetry/Published/
        Writing/My poetry/Collections/
        Writing/My poetry/Submissions/
        Writing/My poetry/Research/
        Writing/My poetry/Magazines/
        Writing/My poetry/Competitions/
        Writing/My poetry/Commissions/
        Writing/My poetry/Other/
        Writing/My poetry/Trash/old.md = gone
        Writing/Sorted/.carrel/project.json = {"type":"blank","sort":{"by":"name","descending":true}}
        Writing/Sorted/Notes/a.md
        Writing/Sorted/Notes/b.md
        Writing/Sorted/Trash/
        Writing/Empty/.carrel/project.json = {"type":"blank"}
        Writing/Empty/Trash/
        Writing/Existing/draft/keep.md = kept
        Writing/Clash/trash = a file where Trash goes
        Writing/Notes/idea.md = an idea
        WritingX/f.txt = f
        WritingX/sub/
        Outside/hostname.txt = host
        Outside/idea.md = idea
        """

    struct Row {
        let name: String
        let args: [String]
        var cwd = "Writing"
        var env: [String: String] = [:]
        /// nil: stdin is /dev/null.
        var stdin: String?
        let exit: Int32
        var stderr: String?
        var stdout: String?
        /// Text that must appear in neither stream.
        var never: [String] = []
        /// Folders outside the resolved library: their digest must not change.
        var outside = ["WritingX", "Outside"]
        var exists: [String] = []
        var absent: [String] = []
        var fileContains: [String: String] = [:]
        var systemTrash = false
    }

    static let poemsTrash = "Writing/My poetry/Trash/old.md"

    /// "$R" is the fixture's root.
    static let rows: [Row] = [
        // It acts on any path.
        Row(
            name: "rm of a file outside the library", args: ["rm", "$R/Outside/hostname.txt"],
            exit: 2, stderr: "$R/Outside/hostname.txt is outside the library $R/Writing"),
        Row(
            name: "rename of a file outside the library", args: ["rename", "$R/Outside/idea.md", "idea2.md"],
            exit: 2, stderr: "$R/Outside/idea.md is outside the library $R/Writing"),
        Row(
            name: "rm outside projects needs --system-trash", args: ["rm", "Notes/idea.md"],
            exit: 1, stderr: "$R/Writing/Notes/idea.md is not in a project, so it has no Trash. Pass --system-trash"),
        Row(
            name: "rm --system-trash names what it moved", args: ["rm", "--system-trash", "Notes/idea.md"],
            exit: 0, stdout: "Moved $R/Writing/Notes/idea.md to the system trash.",
            absent: ["Writing/Notes/idea.md"], systemTrash: true),
        Row(
            name: "rm of a project needs --system-trash", args: ["rm", "Empty"],
            exit: 1, stderr: "$R/Writing/Empty is a project: deleting it moves the whole project to the system trash"),
        Row(
            name: "CARREL_LIBRARY wins over the current folder", args: ["rm", "f.txt"], cwd: "WritingX",
            env: ["CARREL_LIBRARY": "$R/Writing"],
            exit: 2, stderr: "$R/WritingX/f.txt is outside the library $R/Writing"),
        // The path-prefix bug.
        Row(
            name: "WritingX is not inside Writing", args: ["mv", "$R/WritingX/f.txt", "$R/WritingX/sub"],
            exit: 2, stderr: "$R/WritingX/f.txt is outside the library $R/Writing"),
        Row(
            name: "--library before the subcommand, by components",
            args: ["--library", "$R/WritingX", "mv", "$R/WritingX/f.txt", "$R/WritingX/sub"],
            exit: 0, stdout: "$R/WritingX/sub/f.txt", outside: ["Writing", "Outside"], exists: ["WritingX/sub/f.txt"]),
        // Projects inside projects.
        Row(
            name: "init deep inside a project",
            args: ["init", "Writing/My poetry/Draft/Sub project", "--type", "novel"], cwd: ".",
            exit: 1, stderr: "“Sub project” is inside the project $R/Writing/My poetry; projects cannot be nested"),
        Row(
            name: "init from inside a project's folder", args: ["init", "Sub", "--type", "blank"],
            cwd: "Writing/My poetry/Draft", exit: 1, stderr: "is inside the project $R/Writing/My poetry"),
        Row(
            name: "init of an existing folder inside a project", args: ["init", "My poetry/Draft", "--type", "blank"],
            exit: 1, stderr: "“Draft” is inside the project $R/Writing/My poetry"),
        // init on an existing folder.
        Row(
            name: "init adopts an existing draft/ as Draft", args: ["init", "Existing", "--type", "poetry"],
            exit: 0, stdout: "$R/Writing/Existing",
            exists: ["Writing/Existing/draft/keep.md", "Writing/Existing/Ready"], absent: ["Writing/Existing/Draft"],
            fileContains: ["Writing/Existing/.carrel/project.json": "\"draft\": \"draft\""]),
        Row(
            name: "init refuses a file where a permanent folder goes",
            args: ["init", "Clash", "--type", "blank"],
            exit: 1,
            stderr: "“trash” is not a folder, but the project needs its permanent folder “Trash” there"),
        // Mistakes pass silently.
        Row(
            name: "tree of a folder that does not exist, elsewhere", args: ["tree", "/no/such/folder"],
            exit: 2, stderr: "/no/such/folder is outside the library $R/Writing"),
        Row(
            name: "tree of a folder that does not exist, here", args: ["tree", "Nothing here"],
            exit: 1, stderr: "Nothing exists at $R/Writing/Nothing here."),
        Row(
            name: "tree of a file", args: ["tree", "My poetry/Draft/poem.md"],
            exit: 1, stderr: "“$R/Writing/My poetry/Draft/poem.md” is a file, not a folder."),
        Row(
            name: "an unknown flag", args: ["tree", "--jsn"],
            exit: 2, stderr: "“--jsn” is not an option of carrel tree", never: ["SUBCOMMANDS"]),
        Row(
            name: "an extra flag to init", args: ["init", "Fresh", "--type", "novel", "--extra"],
            exit: 2, stderr: "“--extra” is not an option of carrel init", absent: ["Writing/Fresh"]),
        Row(
            name: "--library before the subcommand", args: ["--library", "$R/WritingX", "tree", "--icons"],
            exit: 0, stdout: "[books.vertical] WritingX", outside: ["Writing", "Outside"]),
        Row(name: "carrel alone", args: [], exit: 2, stderr: "Usage: carrel <subcommand>", never: ["SUBCOMMANDS"]),
        Row(
            name: "an unknown subcommand", args: ["bogus"],
            exit: 2, stderr: "“bogus” is not a carrel subcommand", never: ["SUBCOMMANDS"]),
        // Questions through a pipe.
        Row(
            name: "echo y | carrel empty-trash", args: ["empty-trash", "My poetry"], stdin: "y\n",
            exit: 0, stdout: "Deleted 1 item from the Trash of $R/Writing/My poetry for good.", absent: [poemsTrash]),
        Row(
            name: "no answer on a pipe names --yes", args: ["empty-trash", "My poetry"], stdin: "",
            exit: 1, stderr: "Pass --yes to delete without a question."),
        Row(
            name: "no question when the Trash is empty", args: ["empty-trash", "Empty"], stdin: "",
            exit: 0, stdout: "The Trash of $R/Writing/Empty is already empty", never: ["[y/N]"]),
        // Missing and wrong.
        Row(
            name: "carrel sort", args: ["sort", "My poetry", "modified", "--descending"],
            exit: 0, stdout: "$R/Writing/My poetry is now sorted by modified, descending.",
            fileContains: ["Writing/My poetry/.carrel/project.json": "\"value\": \"modified\""]),
        Row(
            name: "carrel sort FOLDER manual", args: ["sort", "Sorted/Notes", "manual"],
            exit: 0, stdout: "$R/Writing/Sorted/Notes is now in binder order",
            fileContains: ["Writing/Sorted/.carrel/project.json": "\"Notes\": {"]),
        Row(
            name: "carrel reorder --before a name", args: ["reorder", "Sorted/Notes/a.md", "--before", "b.md"],
            exit: 0, stdout: "$R/Writing/Sorted/Notes/a.md",
            fileContains: ["Writing/Sorted/Notes/.carrel-order": "a.md\nb.md\n"]),
        Row(
            name: "carrel reorder with both sides",
            args: ["reorder", "Sorted/Notes/a.md", "--before", "b.md", "--after", "b.md"],
            exit: 2, stderr: "Usage: carrel reorder PATH --before SIBLING | --after SIBLING"),
        Row(
            name: "carrel reorder across folders",
            args: ["reorder", "My poetry/Draft/poem.md", "--after", "Sorted/Notes/a.md"],
            exit: 1, stderr: "is not in “Draft” beside “poem.md”"),
        Row(
            name: "tree FOLDER: the project's order and the folder's icon", args: ["tree", "Sorted/Notes", "--icons"],
            exit: 0,
            stdout: "[folder] Notes  2 files · 0 words\n├── [doc.text] b.md  0 words\n└── [doc.text] a.md  0 words\n"),
        Row(
            name: "empty-trash of a file", args: ["empty-trash", "My poetry/Draft/poem.md", "--yes"],
            exit: 1, stderr: "$R/Writing/My poetry/Draft/poem.md is a file: empty-trash takes a project"),
        Row(
            name: "empty-trash . outside a project", args: ["empty-trash", ".", "--yes"], cwd: "Writing/Notes",
            exit: 1, stderr: "There is no project at $R/Writing/Notes", never: ["restore from"]),
        Row(
            name: "--type Poetry", args: ["init", "Verses", "--type", "Poetry"],
            exit: 0, exists: ["Writing/Verses/Draft", "Writing/Verses/Magazines"]),
        Row(
            name: "--type \"Short Story\"", args: ["init", "Tales", "--type", "Short Story"],
            exit: 0, fileContains: ["Writing/Tales/.carrel/project.json": "\"shortStory\""]),
        Row(
            name: "--type short-story", args: ["init", "Tales", "--type", "short-story"],
            exit: 0, fileContains: ["Writing/Tales/.carrel/project.json": "\"shortStory\""]),
        Row(
            name: "an unknown type in writer's words", args: ["init", "Odd", "--type", "sonnet"],
            exit: 1,
            stderr: "“sonnet” is not a project type; choose one of Blank, Poetry, Short Story, Novel, Script.",
            never: ["Invalid params", "“type”"]),
        Row(
            name: "a 255-byte name says .md was added",
            args: ["new-file", "My poetry/Draft", String(repeating: "a", count: 255)],
            exit: 1, stderr: "With “.md” added, this name is 258 bytes long"),
        Row(
            name: "help lsp stands alone", args: ["help", "lsp"],
            exit: 0, stdout: "carrel/tree", never: ["PROTOCOL.md"]),
    ]

    func testEveryRow() throws {
        var failedRows: [String] = []
        for row in Self.rows {
            let problems = try check(row)
            for p in problems { XCTFail(p) }
            if !problems.isEmpty { failedRows.append(row.name) }
        }
        // One line for the record: how many rows this binary fails.
        print(
            "CLIScopeTests: \(Self.rows.count) rows, \(failedRows.count) failed"
                + (failedRows.isEmpty ? "" : ": " + failedRows.joined(separator: "; ")))
    }

    /// What went wrong with one row, if anything.
    func check(_ row: Row) throws -> [String] {
        let fx = try Fixture(Self.tree)
        let runner = try CLIRunner()
        func expand(_ s: String) -> String { s.replacingOccurrences(of: "$R", with: fx.path) }
        let outsideBefore = row.outside.map { fx.digest($0) }
        let allBefore = fx.digest()
        let r = runner.run(
            row.args.map(expand), in: fx.path + "/" + row.cwd,
            environment: row.env.mapValues(expand), stdin: row.stdin)
        var problems: [String] = []
        func expect(_ ok: Bool, _ what: String) { if !ok { problems.append(what) } }
        let seen = "carrel \(row.args.joined(separator: " ")) → \(r.status)\nstdout: \(r.stdout)\nstderr: \(r.stderr)"
        expect(r.status == row.exit, "exit code \(r.status), not \(row.exit)")
        if let s = row.stderr { expect(r.stderr.contains(expand(s)), "stderr lacks “\(expand(s))”") }
        if let s = row.stdout { expect(r.stdout.contains(expand(s)), "stdout lacks “\(expand(s))”") }
        for s in row.never { expect(!r.stdout.contains(s) && !r.stderr.contains(s), "“\(s)” was said") }
        if row.exit == 2 { expect(r.stderr.split(separator: "\n").count == 1, "a command-line mistake takes one line") }
        for (name, digest) in zip(row.outside, outsideBefore) {
            expect(fx.digest(name) == digest, "\(name), outside the library, changed")
        }
        if row.exit != 0 { expect(fx.digest() == allBefore, "a refused command changed something") }
        for p in row.exists { expect(fx.exists(p), "\(p) is missing") }
        for p in row.absent { expect(!fx.exists(p), "\(p) is there") }
        for (p, text) in row.fileContains {
            expect(fx.read(p)?.contains(text) ?? false, "\(p) lacks \(text): \(fx.read(p) ?? "no file")")
        }
        expect(runner.systemTrash.isEmpty != row.systemTrash, "system trash holds \(runner.systemTrash)")
        return problems.map { "\(row.name): \($0)\n\(seen)" }
    }
}
