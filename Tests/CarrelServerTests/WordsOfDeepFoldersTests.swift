import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Counting starts with what the model holds at the first tree answer;
/// folders the background scan reads after that are counted as they arrive,
/// and a row still being read shows no words, since they would be partial.
final class WordsOfDeepFoldersTests: XCTestCase {
    private var home: Fixture?

    override func tearDown() {
        unsetenv("CARREL_HOLD_SCAN")
        unsetenv("XDG_STATE_HOME")
        home = nil
    }

    /// A project whose deeper folders the scan holds back until a request
    /// needs everything, with a fresh state folder.
    private func startWithDeepFoldersHeld() throws -> (Fixture, InProcessClient) {
        let home = try Fixture()
        self.home = home
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        let fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/a.md = one
            Poems/Draft/Cycle/b.md = two words
            Poems/Draft/Cycle/Deeper/c.md = three more words
            """)
        setenv("CARREL_HOLD_SCAN", "1", 1)
        let client = InProcessClient()
        _ = try client.initialize([fx.uri()])
        return (fx, client)
    }

    func testFoldersReadAfterCountingBeganAreCountedToo() throws {
        let (fx, client) = try startWithDeepFoldersHeld()
        func row(_ relative: String) throws -> JSONValue {
            try client.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 0]).arrayValue![0]
        }
        _ = try client.result("carrel/tree", ["depth": 1])
        let cycle = try row("Poems/Draft/Cycle")
        XCTAssertEqual(cycle["counting"], true, "Deeper is still being read")
        XCTAssertNil(cycle["words"], "words below a row still being read would be partial")

        _ = try client.result("workspace/symbol", ["query": "c"])
        let deadline = Date().addingTimeInterval(10)
        while try row("")["words"] == nil, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(try row("")["words"], 6)
        XCTAssertEqual(try row("Poems/Draft/Cycle/Deeper/c.md")["words"], 3)
        XCTAssertNil(try row("Poems/Draft/Cycle")["counting"])
    }

    func testTheFirstCountEndsOnlyOnceEveryFolderIsRead() throws {
        let (fx, client) = try startWithDeepFoldersHeld()
        // Reads Poems and Draft; Cycle waits for the scan: counting begins with a.md alone.
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems")), "depth": 2])
        // It is counted well within this.
        XCTAssertThrowsError(
            try client.waitForChange(timeout: 1) { $0.contains { $0["uri"]?.stringValue == fx.uri() } },
            "the library's first count must wait for the folders still being read")

        _ = try client.result("workspace/symbol", ["query": "c"])
        let changes = try client.waitForChange { $0.contains { $0["uri"]?.stringValue == fx.uri() } }
        XCTAssertEqual(changes.first?["type"], "changed")
        let root = try client.result("carrel/tree", ["uri": .string(fx.uri()), "depth": 0]).arrayValue![0]
        XCTAssertEqual(root["words"], 6)
    }

    func testTodaysWordsStartFromTheWholeProject() throws {
        let (fx, client) = try startWithDeepFoldersHeld()
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems")), "depth": 2])
        usleep(300_000)
        _ = try client.result("workspace/symbol", ["query": "c"])
        _ = try client.waitForChange { $0.contains { $0["uri"]?.stringValue == fx.uri() } }
        let project = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems")), "depth": 0]).arrayValue![0]
        XCTAssertEqual(project["words"], 6)
        XCTAssertEqual(project["sessionWords"], 0, "files read after counting began were not written today")
    }
}
