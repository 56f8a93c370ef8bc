import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import XCTest

/// Emptying a Trash whose listing the model still holds while another
/// program (the CLI, a sync engine) has already removed one of its items:
/// what is gone is gone, and the rest is emptied. A refusal half way would
/// say nothing changed after deleting some items for good.
final class EmptyTrashVanishedTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    func testAnItemAlreadyGoneIsSkippedAndTheRestEmptied() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/m.md = m
            P/Draft/z.md = z
            """)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        for name in ["a.md", "m.md", "z.md"] {
            _ = try ws.delete(try ws.locate(fx.bytes("P/Draft/" + name), uri: name))
        }
        // Removed behind the model's back, as `carrel rm` in the Trash does
        // while a server's watcher has not told its model yet.
        XCTAssertEqual(unlink(fx.path + "/P/Trash/m.md"), 0)
        let outcome = try ws.emptyTrash(try ws.locate(fx.bytes("P"), uri: "P"))
        guard case .deleted(let n) = outcome.result else { return XCTFail("\(outcome.result)") }
        XCTAssertEqual(n, 2, "the two items still there")
        XCTAssertEqual(fx.listing("P/Trash"), [])
    }
}
