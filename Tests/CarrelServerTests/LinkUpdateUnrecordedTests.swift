import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A link update writes no file without its durable record, and when the
/// record cannot be written the writer is told that, not that the file
/// changed or the editor refused.
final class LinkUpdateUnrecordedTests: ServedLibraryTestCase {
    override func setUpWithError() throws {
        try serveStock(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Ada.md = Ada was born.
            P/Novel/One.md = Meet [Ada](Ada.md).
            """)
    }

    func testARecordThatCannotBeWrittenIsNamedAsTheReason() throws {
        // The state folder's `links` is a file: no record can be made in it.
        try FileManager.default.createDirectory(atPath: home.path + "/state/carrel", withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: home.path + "/state/carrel/links"))
        let r = try client.command("carrel.rename", ["uri": .string(fx.uri("P/Novel/Ada.md")), "newName": "Ada L"])
        XCTAssertNil(r["error"])
        let question = try client.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        client.send(["jsonrpc": "2.0", "id": question["id"]!, "result": ["title": "Update Links"]])
        let shown = try client.inbox.take("a message") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(
            shown["params"]?["message"]?.stringValue,
            "The links in “One.md” were not updated and still point to the old place: Carrel could not write "
                + "its record of the update in its state folder on this device, and changes no file without "
                + "one. Nothing in it was overwritten.")
        XCTAssertEqual(try String(contentsOf: fx.url("P/Novel/One.md"), encoding: .utf8), "Meet [Ada](Ada.md).")
        XCTAssertEqual(try String(contentsOf: URL(fileURLWithPath: home.path + "/state/carrel/links")), "not a folder")
    }
}
