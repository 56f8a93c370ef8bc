import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Words in the binder: every row carries its words once counted, summed
/// like `fileTotal` (Trash apart), counted in the background after the
/// first tree answer, and again when a file changes on disk.
final class WordsTests: ServedLibraryTestCase {
    static let tree = """
        Poems/.carrel/project.json = {"type":"poetry"}
        Poems/Draft/a.md = one two three
        Poems/Draft/Cycle/b.md = don't stop well-known words
        Poems/Ready/c.fountain = INT. HOUSE - DAY
        Poems/loose.txt = <!-- kept in plain text --> five
        Poems/Trash/gone.md = never counted in the project
        plain/p.md = 日本語 and more
        top.md = ---
        """

    func start(_ tree: String = WordsTests.tree, locale: String = "en") throws {
        try serve(tree, locale: locale)
    }

    /// The first tree answer starts counting; the library's row says when it is done.
    func waitForCounts() throws {
        _ = try client.result("carrel/tree", ["depth": 1])
        let deadline = Date().addingTimeInterval(10)
        while try row("")["words"] == nil {
            guard Date() < deadline else { return XCTFail("the library was never counted") }
            usleep(10_000)
        }
    }

    func testEveryRowCarriesItsWords() throws {
        try start()
        try waitForCounts()
        XCTAssertEqual(try row("Poems/Draft/a.md")["words"], 3)
        XCTAssertEqual(try row("Poems/Draft/Cycle/b.md")["words"], 4)
        XCTAssertEqual(try row("Poems/Ready/c.fountain")["words"], 3)
        XCTAssertEqual(try row("Poems/loose.txt")["words"], 5, "plain text: markup is punctuation")
        XCTAssertEqual(try row("Poems/Draft")["words"], 7)
        XCTAssertEqual(try row("Poems/Trash")["words"], 5)
        XCTAssertEqual(try row("Poems")["words"], 15, "Trash is not in the project's words")
        XCTAssertEqual(try row("plain/p.md")["words"], 5, "each Han or kana character is a word")
        XCTAssertEqual(try row("top.md")["words"], 0)
        XCTAssertEqual(try row("")["words"], 20)
        let project = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems")), "depth": 2]).arrayValue![0]
        let sections = project["children"]!.arrayValue!
        XCTAssertEqual(sections[0]["words"], 15, "the first section: its folders and the root's own files")
        let all = sections[0]["children"]!.arrayValue!.first { $0["role"] == "all" }!
        XCTAssertEqual(all["words"], 10, "All: Draft, Ready, Set Aside and Published")
        XCTAssertEqual(
            sections.last!["words"], try row("Poems/Trash")["words"],
            "the TRASH section says what its Trash holds, as its file count does; only the project leaves it out")
        XCTAssertEqual(sections.last!["summary"], "1 file · 5 words")
        XCTAssertEqual(try row("Poems")["summary"], "4 files · 15 words")
        XCTAssertEqual(try row("Poems/Draft/a.md")["summary"], "3 words")
    }

    func testSummariesInFrench() throws {
        try start(locale: "fr")
        try waitForCounts()
        XCTAssertEqual(try row("Poems")["summary"], "4 fichiers · 15 mots")
        XCTAssertEqual(try row("Poems/Draft/Cycle")["summary"], "1 fichier · 4 mots")
    }

    func testWordsAreAbsentUntilCounted() throws {
        try start()
        // Before any tree answer nothing was read.
        let first = try client.result("carrel/tree", ["uri": .string(fx.uri("Poems/Draft/a.md")), "depth": 0])
        XCTAssertNil(first.arrayValue![0]["words"])
    }

    func testAFileWrittenByAnotherProgramIsCountedAgain() throws {
        try start()
        try waitForCounts()
        client.notify("initialized")
        try "one two three four five six".write(
            to: fx.url("Poems/Draft/a.md"), atomically: false, encoding: .utf8)
        let uri = fx.uri("Poems/Draft/a.md")
        let change = try client.inbox.take("the new words", timeout: 10) { m in
            m["method"] == "carrel/didChange"
                && (m["params"]?["updated"]?.arrayValue ?? []).contains {
                    $0["uri"]?.stringValue == uri && $0["words"] == 6
                }
        }
        let updated = change["params"]!["updated"]!.arrayValue!
        XCTAssertTrue(updated.contains { $0["uri"]?.stringValue == fx.uri("Poems") && $0["words"] == 18 })
        XCTAssertTrue(updated.contains { $0["uri"]?.stringValue == fx.uri("Poems/Draft") && $0["words"] == 10 })
        XCTAssertTrue(updated.contains { $0["uri"]?.stringValue == fx.uri("") && $0["words"] == 23 })
    }

    func testANamedPipeIsNeverWaitedFor() throws {
        try start("Poems/.carrel/project.json = {\"type\":\"poetry\"}\nPoems/Draft/a.md = one two\n")
        XCTAssertEqual(mkfifo(fx.path + "/Poems/Draft/pipe.md", 0o644), 0)
        try waitForCounts()
        XCTAssertEqual(try row("Poems")["words"], 2)
    }
}

/// A library added while the server runs is counted like the first ones.
final class WordsOfAddedLibrariesTests: ServedLibraryTestCase {
    func testALibraryAddedLaterIsCounted() throws {
        try serve("a.md = one")
        let second = try Fixture("b.md = two words")
        _ = try client.result("carrel/tree", ["depth": 1])
        client.notify(
            "workspace/didChangeWorkspaceFolders",
            ["event": ["added": [["uri": .string(second.uri()), "name": "Second"]], "removed": []]])
        let deadline = Date().addingTimeInterval(10)
        var words: JSONValue?
        repeat {
            words = try client.result("carrel/tree", ["uri": .string(second.uri()), "depth": 0]).arrayValue?[0]["words"]
            if words != nil { break }
            usleep(10_000)
        } while Date() < deadline
        XCTAssertEqual(words, 2)
    }
}
