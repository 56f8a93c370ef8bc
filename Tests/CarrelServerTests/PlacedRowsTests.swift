import CarrelJSON
import CarrelTestSupport
import Glibc
import XCTest

/// `carrel/didChange` says where each row a change added or moved now
/// stands, so a client inserts it in the listing it shows, in display order,
/// without fetching that listing again.
final class PlacedRowsTests: XCTestCase {
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
            Poems/Draft/Letters/b.md = b
            Poems/Draft/Letters/d.md = d
            Poems/Ready/r.md = r
            Poems/Loose.md = l
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()])
        // What a client shows: the project's sections with their rows, and Letters open.
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems")), "depth": 2])
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems/Draft/Letters")), "depth": 1])
    }

    /// The next didChange whose changes match.
    func next(_ match: @escaping ([JSONValue]) -> Bool) throws -> JSONValue {
        let m = try client.inbox.take("carrel/didChange") {
            $0["method"] == "carrel/didChange" && match($0["params"]?["changes"]?.arrayValue ?? [])
        }
        return m["params"] ?? .null
    }

    func placed(_ params: JSONValue) -> [[String?]] {
        (params["placed"]?.arrayValue ?? []).map {
            [$0["parent"]?.stringValue, $0["after"]?.stringValue, $0["node"]?["uri"]?.stringValue]
        }
    }

    func testAnOutsideNewFileIsPlacedAfterTheRowBeforeIt() throws {
        try start()
        Fixture.sh("echo x > '\(fx.path)/Poems/Draft/Letters/c.md'")
        let params = try next { $0.contains { $0["type"] == "created" } }
        XCTAssertEqual(
            placed(params),
            [[fx.uri("Poems/Draft/Letters"), fx.uri("Poems/Draft/Letters/b.md"), fx.uri("Poems/Draft/Letters/c.md")]])
        let node = params["placed"]?[0]?["node"]
        XCTAssertEqual(node?["kind"], "file")
        XCTAssertNil(node?["children"])
    }

    func testTheFirstRowOfAListingHasNoAfter() throws {
        try start()
        Fixture.sh("echo x > '\(fx.path)/Poems/Draft/Letters/a.md'")
        let params = try next { $0.contains { $0["type"] == "created" } }
        XCTAssertEqual(placed(params), [[fx.uri("Poems/Draft/Letters"), nil, fx.uri("Poems/Draft/Letters/a.md")]])
    }

    /// A project root's own items are listed by its first section.
    func testAProjectRootsItemIsPlacedInItsSection() throws {
        try start()
        Fixture.sh("echo x > '\(fx.path)/Poems/More.md'")
        let params = try next { $0.contains { $0["type"] == "created" } }
        XCTAssertEqual(
            placed(params), [[fx.uri("Poems") + "#section-0", fx.uri("Poems/Loose.md"), fx.uri("Poems/More.md")]])
    }

    /// A rename is placed at its new name; several rows of one listing come
    /// in display order, each after a row already there or placed before it.
    func testMovesAndSeveralRowsComeInDisplayOrder() throws {
        try start()
        _ = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("Poems/Draft/Letters/d.md")), "newName": "a.md"])
        let renamed = try next { $0.contains { $0["type"] == "moved" } }
        XCTAssertEqual(placed(renamed), [[fx.uri("Poems/Draft/Letters"), nil, fx.uri("Poems/Draft/Letters/a.md")]])
        Fixture.sh("cd '\(fx.path)/Poems/Draft/Letters' && touch f.md e.md c.md")
        var rows: [[String?]] = []
        while rows.count < 3 {
            rows += placed(try next { $0.contains { $0["type"] == "created" } })
        }
        let l = fx.uri("Poems/Draft/Letters")
        // However the watcher split them, each comes after the row before it.
        let before = [l + "/c.md": l + "/b.md", l + "/e.md": l + "/c.md", l + "/f.md": l + "/e.md"]
        XCTAssertEqual(Set(rows.map { $0[2] ?? "" }), Set(before.keys))
        for row in rows { XCTAssertEqual(row[0], l); XCTAssertEqual(row[1], before[row[2] ?? ""]) }
    }

    /// A burst past the limit carries no placements: clients fetch the listing.
    /// The real server is stopped while the files are made, so the kernel
    /// queues their events and the watcher reads them as one batch, however
    /// loaded the machine: the limit is what is tested, not the timing.
    func testABurstPastTheLimitIsNotPlaced() throws {
        try start()
        let server = try ProcessClient()
        _ = try server.initialize([fx.uri()])
        _ = try server.result("carrel/tree", ["uri": .string(fx.uri("Poems")), "depth": 2])
        _ = try server.result("carrel/tree", ["uri": .string(fx.uri("Poems/Draft/Letters")), "depth": 1])
        server.process.kill(SIGSTOP)
        Fixture.sh("cd '\(fx.path)/Poems/Draft/Letters' && for i in $(seq 1 400); do : > \"n$i.md\"; done")
        server.process.kill(SIGCONT)
        let m = try server.inbox.take("carrel/didChange", timeout: 30) {
            $0["method"] == "carrel/didChange"
                && ($0["params"]?["changes"]?.arrayValue ?? []).contains { $0["type"] == "created" }
        }
        let created = m["params"]?["changes"]?.arrayValue?.filter { $0["type"] == "created" }.count ?? 0
        XCTAssertEqual(created, 400, "the 400 files in one notification")
        XCTAssertNil(m["params"]?["placed"], "more rows than the limit are left to a fetch")
    }

    /// A folder no client was sent the children of is not sorted for a
    /// change in it: its row has nowhere to go, and its counts come in `updated`.
    func testARowInAListingNeverSentIsNotPlaced() throws {
        try start()
        Fixture.sh("echo x > '\(fx.path)/Poems/Ready/s.md'")
        let params = try next { $0.contains { $0["type"] == "created" } }
        XCTAssertEqual(params["placed"]?.arrayValue?.count, 0)
    }

    /// A deleted row needs no placement: the client removes it.
    func testADeleteCarriesAnEmptyPlacement() throws {
        try start()
        Fixture.sh("rm '\(fx.path)/Poems/Draft/Letters/b.md'")
        let params = try next { $0.contains { $0["type"] == "deleted" } }
        XCTAssertEqual(params["placed"]?.arrayValue?.count, 0)
    }
}
