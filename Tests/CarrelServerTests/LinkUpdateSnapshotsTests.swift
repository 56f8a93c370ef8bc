import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Before Carrel rewrites a closed file's links after a rename, it keeps
/// the text it replaces as a snapshot of that file, titled so; a file it
/// leaves alone gets none.
final class LinkUpdateSnapshotsTests: ServedLibraryTestCase {
    override func setUpWithError() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = See [[Ada]] and [her](Ada.md).
            P/Novel/One.md = No links here.
            """)
    }

    func snapshots(_ relative: String) throws -> [JSONValue] {
        try client.result(
            "workspace/executeCommand",
            ["command": "carrel.snapshots", "arguments": [["uri": .string(fx.uri(relative))]]]
        )["snapshots"]?.arrayValue ?? []
    }

    func testTheReplacedTextIsKeptAsASnapshot() throws {
        let r = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Novel/Characters/Ada.md")), "newName": "Ada Lovelace"])
        XCTAssertNil(r["error"])
        let question = try client.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        client.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": "Update Links"]])
        _ = try client.inbox.take("the report") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(fx.read("P/Novel/Characters/Bea.md"), "See [[Ada Lovelace]] and [her](Ada%20Lovelace.md).")
        let kept = try snapshots("P/Novel/Characters/Bea.md")
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(kept.first?["title"], "Before updating links")
        let path = kept.first?["path"]?.stringValue ?? ""
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "See [[Ada]] and [her](Ada.md).")
        XCTAssertEqual(try snapshots("P/Novel/One.md").count, 0, "a file Carrel leaves alone gets none")
    }
}
