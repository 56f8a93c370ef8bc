import CarrelJSON
import CarrelTestSupport
import XCTest

/// `carrel/compileOptions` offers a project's recipes (its type's from the
/// catalog, then its own files', read when asked) and its byline.
final class CompileOptionsTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    func start(locale: String = "en") throws {
        fx = try Fixture(
            """
            Story/.carrel/project.json = {"type":"shortStory","byline":{"author":"Ada Lovelace","contact":["12 Any Street","ada@example.com"]}}
            Story/.carrel/recipes/beta.json = {"title":"Beta readers","format":"markdown"}
            Story/.carrel/recipes/broken.json = {"folders":["../../etc"]}
            Story/.carrel/recipes/beta.sync-conflict-20250101-000000-ABCDEFG.json = {"title":"Old"}
            Story/.carrel/recipes/notes.txt = not a recipe
            Story/Draft/a.md = a
            Poems/.carrel/project.json = {"type":"poetry"}
            plain/
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri("")], locale: locale)
    }

    func testARecipeFileThatIsAPipeOrALinkIsOfferedByNameAndNeverFollowed() throws {
        try start()
        let recipes = fx.path + "/Story/.carrel/recipes"
        XCTAssertEqual(Fixture.sh("mkfifo '\(recipes)/pipe.json' && ln -s beta.json '\(recipes)/link.json'"), 0)
        XCTAssertEqual(
            rows(try options("Story")),
            [
                "manuscript|Standard manuscript|docx", "beta|Beta readers|markdown", "broken|broken|-", "link|link|-",
                "pipe|pipe|-",
            ])
    }

    func options(_ relative: String) throws -> JSONValue {
        try client.result("carrel/compileOptions", ["projectUri": .string(fx.uri(relative))])
    }

    func rows(_ options: JSONValue) -> [String] {
        (options["recipes"]?.arrayValue ?? []).map { r in
            [r["name"]?.stringValue, r["title"]?.stringValue, r["format"]?.stringValue ?? "-"]
                .compactMap { $0 }.joined(separator: "|")
        }
    }

    func testTheTypesRecipesThenTheProjectsOwnWithTheByline() throws {
        try start()
        let found = try options("Story")
        XCTAssertEqual(
            rows(found),
            ["manuscript|Standard manuscript|docx", "beta|Beta readers|markdown", "broken|broken|-"],
            "the catalog's first, then each usable file's title and format; an unusable one by name, without a format")
        XCTAssertEqual(found["byline"]?["author"], "Ada Lovelace")
        XCTAssertEqual(found["byline"]?["contact"], ["12 Any Street", "ada@example.com"])
        XCTAssertEqual(rows(try options("Poems")), ["packet|Submission packet|docx"])
        XCTAssertEqual(try options("Poems")["byline"], ["author": nil, "contact": []])
    }

    func testARecipeFileAddedLaterIsOfferedAtOnce() throws {
        try start()
        XCTAssertEqual(rows(try options("Story")).count, 3)
        Fixture.sh("printf '{\"format\":\"html\"}' > '\(fx.path)/Story/.carrel/recipes/web.json'")
        XCTAssertEqual(rows(try options("Story")).last, "web|web|html")
    }

    func testTheCatalogsTitlesInTheClientsLanguage() throws {
        try start(locale: "fr")
        XCTAssertEqual(rows(try options("Poems")).first?.hasPrefix("packet|"), true)
        XCTAssertNotEqual(rows(try options("Poems")), ["packet|Submission packet|docx"], "French titles")
    }

    func testOnlyAProjectHasCompileOptions() throws {
        try start()
        for relative in ["Story/Draft", "plain", ""] {
            XCTAssertThrowsError(try options(relative), relative) {
                XCTAssertEqual(($0 as? ResponseFailure)?.reason, "notAProject", relative)
            }
        }
        let missing = try client.request("carrel/compileOptions", [:])
        XCTAssertEqual(missing["error"]?["code"], -32602)
    }
}
