import CarrelJSON
import CarrelModel
import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

@testable import CarrelWorkspace

/// A stop during an undo that puts links back: the record of the closed
/// files' edits is written before the item moves back, and names that
/// move, so the next open finishes the links only if the item is back,
/// and drops the record, touching nothing, if it never moved.
final class UndoLinksRecoveryTests: XCTestCase {
    var state: Fixture!
    var fx: Fixture!

    // Ada.md was renamed to "Ada Lovelace.md" and One.md's link updated; undo is taking it back.
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada Lovelace.md = # Ada
        P/Draft/One.md = See [Ada](../Characters/Ada%20Lovelace.md).
        """
    static let oneBefore = "See [Ada](../Characters/Ada.md)."
    static let oneNow = "See [Ada](../Characters/Ada%20Lovelace.md)."

    override func setUpWithError() throws {
        state = try Fixture()
        setenv("XDG_STATE_HOME", state.path, 1)
        fx = try Fixture(Self.tree)
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        fx = nil
        state = nil
    }

    var records: [String] { state.listing("carrel/links", includeHidden: true) }

    /// The record undo writes before its move: One.md's link back to
    /// Ada.md, finished only once Ada Lovelace.md is back at Ada.md.
    func plantUndoRecord() throws {
        let dir = try Directory.open(fx.bytes("P/Draft"))
        let read = try XCTUnwrap(dir.readText(Array("One.md".utf8)))
        let edit = TextEdit(start: 10, end: 41, newText: "../Characters/Ada.md")
        let file = LinkUpdateRecord.File(
            path: ["P", "Draft", "One.md"], before: read.stamp, text: read.bytes, edits: [edit])
        XCTAssertEqual(LinkRewrite.apply([edit], to: read.bytes), Array(Self.oneBefore.utf8))
        XCTAssertNotNil(LinkUpdateRecord(library: fx.realPath, files: [file]).write(for: fx.realPath))
        // The move it belongs to, as the record names it.
        let name = try XCTUnwrap(records.first)
        let path = state.path + "/carrel/links/" + name
        var value = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        var object = try XCTUnwrap(value.objectValue)
        object["move"] = [
            "from": ["P", "Characters", "Ada Lovelace.md"], "to": ["P", "Characters", "Ada.md"],
        ]
        value = .object(object)
        try Data(value.encoded(pretty: false)).write(to: URL(fileURLWithPath: path))
    }

    func openLibrary() -> Workspace {
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        return ws
    }

    /// Stopped before the item moved back: its links still fit it, and stay.
    func testStoppedBeforeTheMoveLeavesEveryLinkAndDropsTheRecord() throws {
        try plantUndoRecord()
        let ws = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), Self.oneNow)
        XCTAssertEqual(records, [])
        XCTAssertEqual(ws.notices, [])
    }

    /// Stopped after the item moved back, before its links: open finishes them.
    func testStoppedAfterTheMoveFinishesTheLinks() throws {
        try plantUndoRecord()
        try FileManager.default.moveItem(
            atPath: fx.path + "/P/Characters/Ada Lovelace.md", toPath: fx.path + "/P/Characters/Ada.md")
        let ws = openLibrary()
        XCTAssertEqual(fx.read("P/Draft/One.md"), Self.oneBefore)
        XCTAssertEqual(records, [])
        XCTAssertEqual(ws.notices, [.linkUpdatesFinished(files: 1)])
    }

    /// A forged move leading out of the library refuses the record whole.
    func testAMoveOutOfTheLibraryIsRefused() throws {
        let forged = Array(
            """
            {"carrelLinkUpdate":1,"library":"/l","files":[],"move":{"from":["P",".."],"to":["P","Ada.md"]}}
            """.utf8)
        XCTAssertThrowsError(try LinkUpdateRecord.decode(forged)) { error in
            XCTAssertEqual(error as? LinkRecordFlaw, .pathOutsideLibrary)
        }
    }
}
