import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// The CLI shows words and progress in `carrel tree`, sets targets with
/// `carrel target`, and reads unchanged files from the cache on the next run.
final class CLIWordsTests: XCTestCase {
    let tree = """
        P/.carrel/project.json = {"type":"poetry"}
        P/Draft/a.md = one two three
        P/Draft/b.md = four five
        """

    func testTreeShowsWordsAndTargetsShowProgress() throws {
        let fx = try Fixture(tree)
        let cli = try CLIRunner()
        var r = cli.run(["tree", "P/Draft"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Draft  2 files · 5 words\n├── a.md  3 words\n└── b.md  2 words\n")
        r = cli.run(["target", "P/Draft/a.md", "1,500"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "\(fx.path)/P/Draft/a.md now aims at 1,500 words.\n")
        XCTAssertEqual(try targets(fx)["Draft/a.md"], 1500)
        r = cli.run(["target", "P", "80000"], in: fx.path)
        XCTAssertEqual(try targets(fx)["."], 80000)
        r = cli.run(["tree", "P/Draft"], in: fx.path)
        XCTAssertEqual(r.stdout, "Draft  2 files · 5 words\n├── a.md  3 / 1,500 words\n└── b.md  2 words\n")
        r = cli.run(["tree", "P", "--depth", "0"], in: fx.path)
        XCTAssertEqual(r.stdout, "P (Poetry)  2 files · 5 / 80,000 words\n")
        r = cli.run(["target", "P/Draft/a.md", "none"], in: fx.path)
        XCTAssertEqual(r.stdout, "\(fx.path)/P/Draft/a.md has no word target now.\n")
        XCTAssertEqual(try targets(fx)["Draft/a.md"], .null, "cleared")
    }

    /// project.json's targets: each path's value.
    func targets(_ fx: Fixture) throws -> [String: JSONValue] { try fx.settings("targets", of: "P") }

    func testABadTargetIsRefusedAndChangesNothing() throws {
        let fx = try Fixture(tree + "\nplain/x.md = x")
        let cli = try CLIRunner()
        let before = fx.read("P/.carrel/project.json")
        var r = cli.run(["target", "P/Draft/a.md", "lots"], in: fx.path)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("A word target is a whole number from 1 to 100000000"), r.stderr)
        r = cli.run(["target", "plain/x.md", "10"], in: fx.path)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("is not in a project"), r.stderr)
        r = cli.run(["target", "P/Draft", "10", "--daily"], in: fx.path)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("A daily target belongs to a whole project"), r.stderr)
        XCTAssertEqual(fx.read("P/.carrel/project.json"), before)
    }

    /// An unchanged file is not read again. The proof: a.md rewritten in
    /// place with as many bytes and its mtime put back keeps its old count,
    /// which only the cache can hold (a stamp that matched, so no read).
    func testUnchangedFilesComeFromTheCache() throws {
        let fx = try Fixture(tree)
        let cli = try CLIRunner()
        func draftLine() -> Substring? {
            cli.run(["tree", "P/Draft"], in: fx.path).stdout.split(separator: "\n").first
        }
        XCTAssertEqual(draftLine(), "Draft  2 files · 5 words")
        let path = fx.path + "/P/Draft/a.md"
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        let fd = open(path, O_WRONLY | O_TRUNC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(write(fd, "one-two-three", 13), 13)
        close(fd)
        var times = [st.st_atim, st.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        XCTAssertEqual(draftLine(), "Draft  2 files · 5 words", "the cached count, the file unread")
        // A cache that is not one is ignored: the file is read again.
        let caches = cli.sandbox.listing("state/carrel/words")
        guard caches.count == 1 else { return XCTFail("one cache per library, not \(caches)") }
        try Data("garbage".utf8).write(to: cli.sandbox.url("state/carrel/words/" + caches[0]))
        XCTAssertEqual(draftLine(), "Draft  2 files · 3 words")
        // Any real change (here the size) is read again, cache or not.
        try "one two three four".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(draftLine(), "Draft  2 files · 6 words")
    }
}

/// Counting many files in many folders, read together in batches on two
/// threads, gives every file its words: the total is exact.
final class CLIWordsManyFilesTests: XCTestCase {
    func testEveryFileOfManyFoldersIsCounted() throws {
        var tree = "P/.carrel/project.json = {\"type\":\"novel\"}\n"
        for folder in 0..<7 {
            for file in 0..<45 { tree += "P/Novel/Part \(folder)/Scene \(file).md = one two three\n" }
        }
        let fx = try Fixture(tree)
        let r = try CLIRunner().run(["tree", "P", "--depth", "0"], in: fx.path)
        XCTAssertEqual(r.stdout, "P (Novel)  315 files · 945 words\n", r.stderr)
    }
}
