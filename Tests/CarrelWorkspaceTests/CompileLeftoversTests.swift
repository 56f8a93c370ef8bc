import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// A compile a crash cut short leaves Carrel's hidden temporaries in the
/// project's Compiled folder; the next open removes them, and nothing that
/// only looks like them.
final class CompileLeftoversTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    func testTemporariesOfADeadCompileAreRemovedAtOpenAndWritersFilesKept() throws {
        let pid = try deadPid()
        let leftovers = [
            ".carrel-compile-\(pid)-1764300000000-123456-out",
            ".carrel-compile-\(pid)-1764300000000-123456-in.md",
            ".carrel-compile-\(pid)-1764300000000-123456-out.docx",
            ".carrel-compile-\(pid)-1764300000000-123456-reference.docx",
        ]
        let writers = [
            ".carrel-compile-notes.md",
            ".carrel-compile-\(pid)-1764300000000-123456-my draft.md",
            ".carrel-compile-\(pid)-x-123456-out.md",
            "carrel-compile-\(pid)-1764300000000-123456-out.md",
            "Story.md",
        ]
        // Pid 1 always runs: its temporaries are another compile under way.
        let underWay = ".carrel-compile-1-1764300000000-123456-out.md"
        var tree = "Story/.carrel/project.json = {\"type\":\"shortStory\"}\nStory/Draft/a.md = a\n"
        for name in leftovers + writers + [underWay] { tree += "Story/Compiled/\(name) = \(name)\n" }
        tree += "Story/Draft/\(leftovers[0]) = a writer's file outside Compiled\n"
        fx = try Fixture(tree)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        for name in leftovers { XCTAssertFalse(fx.exists("Story/Compiled/\(name)"), name) }
        for name in writers { XCTAssertEqual(fx.read("Story/Compiled/\(name)"), name, name) }
        XCTAssertTrue(fx.exists("Story/Compiled/\(underWay)"), "a live process's compile is left alone")
        XCTAssertTrue(fx.exists("Story/Draft/\(leftovers[0])"), "only the Compiled folder is cleaned")
    }

    func testALeftoverThatIsAFolderOrALinkIsNeitherEmptiedNorFollowed() throws {
        let pid = try deadPid()
        let folder = ".carrel-compile-\(pid)-1-2-out"
        let link = ".carrel-compile-\(pid)-1-2-out.md"
        fx = try Fixture(
            """
            Story/.carrel/project.json = {"type":"shortStory"}
            Story/Compiled/\(folder)/kept.md = kept
            Story/Draft/target.md = kept
            """)
        XCTAssertEqual(Fixture.sh("ln -s ../Draft/target.md '\(fx.path)/Story/Compiled/\(link)'"), 0)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(fx.read("Story/Compiled/\(folder)/kept.md"), "kept")
        XCTAssertEqual(fx.read("Story/Draft/target.md"), "kept", "the link's target")
        XCTAssertFalse(fx.exists("Story/Compiled/\(link)"), "the link itself is Carrel's and goes")
    }
}
