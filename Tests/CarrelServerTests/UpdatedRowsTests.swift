import CarrelJSON
import CarrelTestSupport
import XCTest

/// `carrel/didChange` carries the rows a change alters in place, so a
/// client patches the counts it shows without fetching anything.
final class UpdatedRowsTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    func start() throws {
        fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/Cycle/a.md = a
            Poems/Ready/b.md = b
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()])
    }

    /// The next didChange's `updated` rows, by identity.
    func nextUpdate(_ match: @escaping ([JSONValue]) -> Bool) throws -> [String: JSONValue] {
        let m = try client.inbox.take("carrel/didChange") {
            $0["method"] == "carrel/didChange" && match($0["params"]?["changes"]?.arrayValue ?? [])
        }
        var rows: [String: JSONValue] = [:]
        for row in m["params"]?["updated"]?.arrayValue ?? [] {
            XCTAssertNil(row["children"], "updated rows come without children")
            rows[row["id"]?.stringValue ?? row["uri"]!.stringValue!] = row
        }
        return rows
    }

    func testAnOutsideNewFileUpdatesEveryRowAboveIt() throws {
        try start()
        Fixture.sh("echo x > '\(fx.path)/Poems/Draft/Cycle/new.md'")
        let rows = try nextUpdate { $0.contains { $0["type"] == "created" } }
        XCTAssertEqual(
            Set(rows.keys),
            [
                fx.uri("Poems/Draft/Cycle"), fx.uri("Poems/Draft"), fx.uri("Poems") + "#section-0",
                fx.uri("Poems/.carrel/all"),
                fx.uri("Poems"), fx.uri(),
            ])
        XCTAssertEqual(rows[fx.uri("Poems/Draft/Cycle")]?["fileTotal"], 2)
        XCTAssertEqual(rows[fx.uri("Poems/.carrel/all")]?["fileCount"], 3)
        XCTAssertEqual(rows[fx.uri("Poems")]?["summary"]?.stringValue?.hasPrefix("3 files"), true)
        XCTAssertEqual(rows[fx.uri()]?["fileTotal"], 3)
    }

    /// A delete changes the rows above where the item was and above the
    /// Trash; the project's rows come once.
    func testADeleteUpdatesBothPlacesOnce() throws {
        try start()
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("Poems/Ready/b.md")), "confirmed": true])
        let rows = try nextUpdate { $0.contains { $0["type"] == "moved" } }
        XCTAssertEqual(
            Set(rows.keys),
            [
                fx.uri("Poems/Ready"), fx.uri("Poems") + "#section-0", fx.uri("Poems/.carrel/all"),
                fx.uri("Poems/Trash"), fx.uri("Poems") + "#section-2", fx.uri("Poems"), fx.uri(),
            ])
        XCTAssertEqual(rows[fx.uri("Poems/Trash")]?["fileTotal"], 1)
        XCTAssertEqual(rows[fx.uri("Poems")]?["fileTotal"], 1, "Trash is not in the project's total")
        XCTAssertNil(rows[fx.uri("Poems/Ready")]?["summary"], "Ready is empty now")
    }

    /// A project's own `changed` (a setting) updates the project row itself.
    func testASettingUpdatesItsProjectRow() throws {
        try start()
        _ = try client.command("carrel.setConfirmDelete", ["uri": .string(fx.uri("Poems")), "confirm": false])
        let rows = try nextUpdate { $0.contains { $0["type"] == "changed" } }
        XCTAssertEqual(rows[fx.uri("Poems")]?["confirmDelete"], false)
    }
}
