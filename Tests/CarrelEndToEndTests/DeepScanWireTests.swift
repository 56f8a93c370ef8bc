import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// The real `carrel lsp` over pipes answers its first tree before the deep
/// folders are read, then sends their counts as `updated` rows.
final class DeepScanWireTests: XCTestCase {
    var home: Fixture!
    var fx: Fixture!
    var client: ProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
        home = nil
    }

    func testTheFirstTreeSaysCountingAndTheUpdatedRowsBringTheTotals() throws {
        home = try Fixture()
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/Sea/b.md = b
            P/Draft/Sea/Deep/c.md = c
            """)
        client = try ProcessClient(environment: [
            "CARREL_HOLD_SCAN": "1", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path,
        ])
        _ = try client.initialize([fx.uri()])
        let library = try client.result("carrel/tree", ["depth": 1]).arrayValue![0]
        XCTAssertEqual(library["counting"], true)
        XCTAssertEqual(library["summary"], "counting…")

        let found = try client.result("workspace/symbol", ["query": "c.md"]).arrayValue ?? []
        XCTAssertEqual(found.first?["location"]?["uri"]?.stringValue, fx.uri("P/Draft/Sea/Deep/c.md"))
        let update = try client.inbox.take("updated rows") {
            $0["method"] == "carrel/didChange" && $0["params"]?["changes"]?.arrayValue?.isEmpty == true
        }
        let rows = update["params"]?["updated"]?.arrayValue ?? []
        let top = rows.first { $0["uri"]?.stringValue == fx.uri() }
        XCTAssertTrue(top?["summary"]?.stringValue?.hasPrefix("3 files") == true)
        XCTAssertNil(top?["counting"])
    }
}
