import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A submitted piece renamed or moved by another program on this machine
/// (a shell's `mv`) under the running server keeps its submissions, as one
/// renamed through Carrel does; a rename that arrives by sync, through
/// Syncthing's temporary, leaves the records alone, since the machine that
/// renamed rewrote them and sync brings that.
final class SubmissionOutsideMovesTests: ProcessLibraryTestCase {
    var id = ""

    override func setUpWithError() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea sea
            P/Ready/
            P/Magazines/Granta/
            """)
        let sent = try c.result(
            "workspace/executeCommand",
            [
                "command": "carrel.submit",
                "arguments": [
                    [
                        "items": [.string(fx.uri("P/Draft/Spring.md"))],
                        "marketUri": .string(fx.uri("P/Magazines/Granta")), "date": "2026-11-20",
                        "confirmed": true,
                    ]
                ],
            ])
        id = try XCTUnwrap(sent["id"]?.stringValue)
    }

    func sh(_ command: String) { XCTAssertEqual(fx.sh(command, in: "P"), 0, command) }

    func piece() throws -> JSONValue? {
        try c.result("carrel/submissions", [:])["submissions"]?[0]?["pieces"]?[0]
    }

    func summary(_ relative: String) throws -> String {
        try c.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 0]).arrayValue?[0]["summary"]?
            .stringValue ?? ""
    }

    func testAShellMvTakesTheRecordsAlong() throws {
        sh("mv Draft/Spring.md 'Ready/Tide.md'")
        _ = try c.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        XCTAssertEqual(try piece()?["path"], "Ready/Tide.md")
        let said = try summary("P/Ready/Tide.md")
        XCTAssertTrue(said.contains("out at 1"), said)
        let copy = try XCTUnwrap(piece()?["copyUri"]?.stringValue.flatMap(URL.init(string:)))
        XCTAssertEqual(try String(contentsOfFile: copy.path, encoding: .utf8), "sea sea", "the text sent followed")
    }

    func testARenameThatArrivedThroughSyncthingsTemporaryLeavesTheRecords() throws {
        let before = try Data(contentsOf: fx.url("P/.carrel/submissions/\(id).json"))
        sh("mv Draft/Spring.md 'Draft/.syncthing.Tide.md.tmp' && mv 'Draft/.syncthing.Tide.md.tmp' Draft/Tide.md")
        _ = try c.waitForChange { changes in changes.contains { $0["type"] == "moved" } }
        _ = try c.result("carrel/tree", ["depth": 0])
        XCTAssertEqual(try Data(contentsOf: fx.url("P/.carrel/submissions/\(id).json")), before)
        XCTAssertEqual(try piece()?["path"], "Draft/Spring.md")
    }
}
