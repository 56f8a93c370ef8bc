import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import Glibc
import XCTest

/// The merge rule a library's first reorder puts in its `.gitattributes`:
/// written whole beside the old file and swapped in, never into the file
/// itself, so a `.gitattributes` shared with another folder (a hard link),
/// a link, a pipe or one too large is left alone, and the writer is told why.
final class MergeRuleTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    static let tree = """
        P/.carrel/project.json = {"type":"poetry","sort":{"by":"manual"}}
        P/Draft/a.md
        P/Draft/b.md
        """

    func open(_ tree: String = tree) throws {
        fx = try Fixture(tree)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func t(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    func reorder() throws {
        _ = try ws.reorder(try t("P/Draft/b.md"), relativeTo: try t("P/Draft/a.md"), after: false)
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "b.md\na.md\n", "the reorder itself goes ahead")
    }

    func notices() -> [String] { ws.notices.map { $0.text(.english) } }

    func temporaries() -> [String] { fx.listing("", includeHidden: true).filter { $0.contains(".tmp-") } }

    func testTheLineIsAddedToANewCopyOfTheFile() throws {
        try open()
        try Data("*.md text".utf8).write(to: fx.url(".gitattributes"))
        var before = stat()
        XCTAssertEqual(lstat(fx.path + "/.gitattributes", &before), 0)
        try reorder()
        XCTAssertEqual(fx.read(".gitattributes"), "*.md text\n.carrel-order merge=union\n")
        var after = stat()
        XCTAssertEqual(lstat(fx.path + "/.gitattributes", &after), 0)
        XCTAssertNotEqual(after.st_ino, before.st_ino, "a new file swapped in, not the old one written to")
        XCTAssertEqual(temporaries(), [])
        XCTAssertEqual(notices(), [])
    }

    func testAMissingFileIsMadeAndALineAlreadyThereIsKept() throws {
        try open()
        try reorder()
        XCTAssertEqual(fx.read(".gitattributes"), ".carrel-order merge=union\n")
        try open()
        try Data("# mine\n.carrel-order merge=union\n".utf8).write(to: fx.url(".gitattributes"))
        try reorder()
        XCTAssertEqual(fx.read(".gitattributes"), "# mine\n.carrel-order merge=union\n")
        XCTAssertEqual(notices(), [])
    }

    /// A hard link's other name is outside the library: writing into the
    /// file would change it there too.
    func testAHardLinkedFileIsLeftAloneAndTheWriterIsTold() throws {
        let outside = try Fixture("attributes = *.md text\n")
        try open()
        XCTAssertEqual(link(outside.path + "/attributes", fx.path + "/.gitattributes"), 0)
        try reorder()
        XCTAssertEqual(outside.read("attributes"), "*.md text", "nothing outside the library changed")
        XCTAssertEqual(fx.read(".gitattributes"), "*.md text")
        var st = stat()
        XCTAssertEqual(lstat(fx.path + "/.gitattributes", &st), 0)
        XCTAssertEqual(st.st_nlink, 2, "still the shared file")
        XCTAssertEqual(notices().count, 1)
        let notice = notices().first ?? ""
        XCTAssertTrue(notice.contains(fx.path + "/.gitattributes"), notice)
        XCTAssertTrue(notice.contains("2 names"), notice)
        XCTAssertTrue(notice.contains(".carrel-order merge=union"), notice)
        XCTAssertEqual(temporaries(), [])
    }

    /// The CLI says it on stderr, beside the reorder it did.
    func testTheCLISaysWhy() throws {
        let outside = try Fixture("attributes = *.md text\n")
        try open()
        XCTAssertEqual(link(outside.path + "/attributes", fx.path + "/.gitattributes"), 0)
        let r = try CLIRunner().run(["reorder", "P/Draft/b.md", "--before", "a.md"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "b.md\na.md\n")
        XCTAssertTrue(r.stderr.contains("did not add the line “.carrel-order merge=union”"), r.stderr)
        XCTAssertTrue(r.stderr.contains("a hard link"), r.stderr)
        XCTAssertEqual(outside.read("attributes"), "*.md text")
    }

    func testALinkAPipeOrAFileOverTheLimitIsLeftAlone() throws {
        let outside = try Fixture("attributes = *.md text\n")
        let cases: [(String, (String) throws -> Void, String)] = [
            ("a symbolic link", { XCTAssertEqual(symlink(outside.path + "/attributes", $0), 0) }, "symbolic link"),
            ("a named pipe", { XCTAssertEqual(mkfifo($0, 0o644), 0) }, "named pipe"),
            (
                "too large",
                {
                    try Data(repeating: UInt8(ascii: "#"), count: OrderFile.sizeLimit + 1).write(
                        to: URL(fileURLWithPath: $0))
                },
                "larger than 1 MiB"
            ),
        ]
        for (name, make, words) in cases {
            try open()
            try make(fx.path + "/.gitattributes")
            var before = stat()
            XCTAssertEqual(lstat(fx.path + "/.gitattributes", &before), 0)
            try reorder()
            var after = stat()
            XCTAssertEqual(lstat(fx.path + "/.gitattributes", &after), 0)
            XCTAssertEqual(after.st_ino, before.st_ino, name)
            XCTAssertEqual(after.st_size, before.st_size, name)
            XCTAssertTrue(notices().first?.contains(words) ?? false, "\(name): \(notices())")
            XCTAssertEqual(temporaries(), [], name)
        }
        XCTAssertEqual(outside.read("attributes"), "*.md text")
    }

    /// Told once a session, not at every reorder.
    func testTheWriterIsToldOnce() throws {
        let outside = try Fixture("attributes = *.md text\n")
        try open()
        XCTAssertEqual(link(outside.path + "/attributes", fx.path + "/.gitattributes"), 0)
        try reorder()
        ws.notices.removeAll()
        _ = try ws.reorder(try t("P/Draft/a.md"), relativeTo: try t("P/Draft/b.md"), after: false)
        XCTAssertEqual(notices(), [])
    }
}
