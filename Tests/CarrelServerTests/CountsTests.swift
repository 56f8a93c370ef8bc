import CarrelJSON
import CarrelTestSupport
import XCTest

/// Every row's `fileTotal` is what the rows under it add up to, counting
/// each file once: "All" repeats files and is left out of its section's
/// sum, and a project's Trash is left out of the project's.
final class CountsTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    func start(locale: String = "en") throws {
        fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/a.md = a
            Poems/Draft/Cycle/b.md = b
            Poems/Draft/Cycle/Deeper/c.md = c
            Poems/Ready/d.md = d
            Poems/Magazines/e.md = e
            Poems/loose.md = l
            Poems/Own folder/f.md = f
            Poems/Trash/gone.md = g
            Poems/Trash/Old/h.md = h
            Notes/.carrel/project.json = {"type":"blank"}
            Notes/n.md = n
            Notes/Trash/t.md = t
            plain/p.md = p
            plain/empty/
            top.md = t
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()], locale: locale)
    }

    func row(_ relative: String) throws -> JSONValue {
        try client.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 0]).arrayValue![0]
    }

    func testEachRowCountsWhatItsRowsAddUpTo() throws {
        try start()
        let tree = try client.result("carrel/tree", [:]).arrayValue![0]
        var checked = 0
        func check(_ node: JSONValue) {
            let children = node["children"]?.arrayValue ?? []
            defer { children.forEach(check) }
            guard node["kind"] != "file" else {
                XCTAssertNil(node["fileTotal"], "files carry no total")
                return
            }
            var sum = 0
            for child in children {
                if child["kind"] == "file" { sum += 1; continue }
                if child["role"] == "all" && node["kind"] == "section" { continue }
                if node["kind"] == "project" && child["name"] == "TRASH" { continue }
                sum += child["fileTotal"]?.intValue ?? -1_000
            }
            XCTAssertEqual(node["fileTotal"]?.intValue, sum, "\(node["title"]!)")
            checked += 1
        }
        check(tree)
        XCTAssertGreaterThan(checked, 20)
        XCTAssertEqual(tree["fileTotal"], 10, "every file but the three in Trash")
        XCTAssertEqual(try row("Poems")["fileTotal"], 7)
        // Words follow once counted in the background (WordsTests).
        XCTAssertEqual(try row("Poems")["summary"]?.stringValue?.hasPrefix("7 files"), true)
        XCTAssertEqual(try row("Poems/Trash")["summary"]?.stringValue?.hasPrefix("2 files"), true)
        XCTAssertEqual(try row("Poems/Draft/Cycle")["fileTotal"], 2)
        XCTAssertNil(try row("plain/empty")["summary"], "nothing to say of an empty folder")
        XCTAssertEqual(try row("plain/empty")["fileTotal"], 0)
    }

    func testSummariesAreInTheClientsLanguage() throws {
        try start(locale: "fr")
        XCTAssertEqual(try row("Poems")["summary"]?.stringValue?.hasPrefix("7 fichiers"), true)
        XCTAssertEqual(try row("plain")["summary"]?.stringValue?.hasPrefix("1 fichier"), true)
    }

    /// A file another program adds changes the totals of every row above it.
    func testTotalsFollowTheDisk() throws {
        try start()
        Fixture.sh("echo x > '\(fx.path)/Poems/Draft/Cycle/new.md'")
        _ = try client.waitForChange { $0.contains { $0["type"] == "created" } }
        XCTAssertEqual(try row("Poems/Draft/Cycle")["fileTotal"], 3)
        XCTAssertEqual(try row("Poems")["fileTotal"], 8)
        XCTAssertEqual(try row("")["fileTotal"], 11)
    }
}
