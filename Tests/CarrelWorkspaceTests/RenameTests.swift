import CarrelModel
import CarrelTestSupport
import CarrelWorkspace
import XCTest

/// A rename keeps a file's extension unless the writer types one, so every
/// client and the CLI agree on what "Dawn" means for "Morning.md".
final class RenameTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    func renamed(_ relative: String, to name: String) throws -> String {
        let outcome = try ws.rename(try ws.locate(fx.bytes(relative), uri: relative), to: name)
        guard case .item(let item) = outcome.result else { XCTFail("no item"); return "" }
        return ws.describe(item, .english).name
    }

    func testAFileKeepsItsExtensionWhenTheNewNameHasNone() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Morning.md = m
            P/Draft/Script.fountain = s
            P/Draft/README = r
            P/Draft/Notes/
            P/Draft/Sea.Cycle/
            """)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(try renamed("P/Draft/Morning.md", to: "Dawn"), "Dawn.md")
        XCTAssertEqual(fx.read("P/Draft/Dawn.md"), "m")
        XCTAssertEqual(
            try renamed("P/Draft/Dawn.md", to: "Dusk.txt"), "Dusk.txt", "an extension typed is the writer's choice")
        XCTAssertEqual(try renamed("P/Draft/Script.fountain", to: "Act One"), "Act One.fountain")
        XCTAssertEqual(try renamed("P/Draft/README", to: "Colophon"), "Colophon", "no extension to keep")
        XCTAssertEqual(try renamed("P/Draft/Notes", to: "Ideas"), "Ideas", "folders take the name as given")
        XCTAssertEqual(try renamed("P/Draft/Sea.Cycle", to: "Sea"), "Sea")
        XCTAssertEqual(fx.listing("P/Draft"), ["Act One.fountain", "Colophon", "Dusk.txt", "Ideas/", "Sea/"])
    }

    /// The name with its extension is what must be free and fit in 255 bytes.
    func testTheKeptExtensionCountsForClashesAndLength() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Morning.md = m
            P/Draft/Dawn.md = d
            """)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        let target = try ws.locate(fx.bytes("P/Draft/Morning.md"), uri: "m")
        XCTAssertThrowsError(try ws.rename(target, to: "dawn")) { XCTAssertEqual(($0 as? Failure)?.reason, .nameTaken) }
        XCTAssertThrowsError(try ws.rename(target, to: String(repeating: "a", count: 253))) {
            XCTAssertEqual(($0 as? Failure)?.reason, .invalidName)
        }
        XCTAssertEqual(fx.listing("P/Draft"), ["Dawn.md", "Morning.md"])
    }
}
