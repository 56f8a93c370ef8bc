import CarrelModel
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// Duplicate: a copy beside the original, named as Finder names one, placed
/// right after it in binder order, refused where a copy makes no sense.
final class DuplicateTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    func open(_ tree: String) throws {
        fx = try Fixture(tree)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func duplicated(_ relative: String) throws -> String {
        let outcome = try ws.duplicate(try ws.locate(fx.bytes(relative), uri: relative))
        guard case .item(let item) = outcome.result else { XCTFail("no item"); return "" }
        return ws.describe(item, .english).name
    }

    func refusal(_ relative: String) -> Failure? {
        do {
            _ = try ws.duplicate(try ws.locate(fx.bytes(relative), uri: relative))
            return nil
        } catch { return error }
    }

    func testNamesAreFindersAndAFolderCopiesItsTree() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = s
            P/Draft/Sea Cycle/One.md = 1
            P/Draft/Sea Cycle/Two/Three.md = 3
            P/Draft/v1.2/
            """)
        XCTAssertEqual(try duplicated("P/Draft/Spring.md"), "Spring copy.md")
        XCTAssertEqual(try duplicated("P/Draft/Spring.md"), "Spring copy 2.md")
        XCTAssertEqual(try duplicated("P/Draft/Spring copy.md"), "Spring copy 3.md", "never “copy copy”")
        XCTAssertEqual(try duplicated("P/Draft/Sea Cycle"), "Sea Cycle copy")
        XCTAssertEqual(try duplicated("P/Draft/v1.2"), "v1.2 copy", "a folder's name has no extension")
        XCTAssertEqual(fx.read("P/Draft/Spring copy 2.md"), "s")
        XCTAssertEqual(fx.listing("P/Draft/Sea Cycle copy"), ["One.md", "Two/", "Two/Three.md"])
        let copy = try ws.locate(fx.bytes("P/Draft/Sea Cycle copy/Two/Three.md"), uri: "t")
        XCTAssertEqual(ws.describe(copy.item, .english).name, "Three.md", "the model holds the copy's tree")
    }

    func testRefusedInTrashOnPermanentFoldersProjectsAndLibraries() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Trash/gone.md = g
            """)
        let before = fingerprint(fx.path)
        XCTAssertEqual(refusal("P/Trash/gone.md"), Failure(.inTrash, .duplicateInTrash(name: "gone.md")))
        XCTAssertEqual(refusal("P/Trash")?.reason, .inTrash)
        XCTAssertEqual(refusal("P/Draft"), Failure(.permanentFolder, .duplicatePermanent(name: "Draft")))
        XCTAssertEqual(refusal("P"), Failure(.conflict, .duplicateProject(name: "P")))
        XCTAssertEqual(refusal("")?.reason, .permanentFolder)
        XCTAssertEqual(fingerprint(fx.path), before, "a refusal changes nothing")
    }

    func testTooLargeIsRefusedAndTheOrderIsLeftAsItWas() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = aaaa
            P/Draft/b.md = bbbb
            """)
        try "b.md\na.md\n".write(toFile: fx.path + "/P/Draft/.carrel-order", atomically: false, encoding: .utf8)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        ws.copyLimits.bytes = 2
        let before = fingerprint(fx.path)
        XCTAssertEqual(refusal("P/Draft/a.md"), Failure(.io, .copyTooLarge(name: "a.md", limit: 2)))
        XCTAssertEqual(fingerprint(fx.path), before)
    }

    func testTheCopyGoesRightAfterTheOriginalInBinderOrder() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/b.md = b
            P/Draft/c.md = c
            """)
        try "c.md\nb.md\na.md\n".write(toFile: fx.path + "/P/Draft/.carrel-order", atomically: false, encoding: .utf8)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(try duplicated("P/Draft/b.md"), "b copy.md")
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "c.md\nb.md\nb copy.md\na.md\n")
    }

    /// A copy a crash cut short leaves its staging folder; the next open
    /// removes it, and nothing else.
    func testAStagingFolderLeftByACrashIsRemovedAtOpen() throws {
        let dead = try deadPid()
        let staging = ".carrel-copy-\(dead)-1-2"
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Part/a.md = a
            P/Draft/\(staging)/a.md = a
            Loose/\(staging)/a.md = a
            """)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertFalse(fx.exists("P/Draft/\(staging)"))
        XCTAssertFalse(fx.exists("Loose/\(staging)"))
        XCTAssertEqual(fx.read("P/Draft/Part/a.md"), "a")
    }
}
