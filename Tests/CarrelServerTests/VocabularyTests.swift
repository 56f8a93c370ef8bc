import CarrelJSON
import CarrelTestSupport
import XCTest

/// `initialize` hands clients the catalog's words in their language, and
/// every choice it offers is one the commands accept.
final class VocabularyTests: XCTestCase {
    var fx: Fixture!

    override func tearDown() { fx = nil }

    func vocabulary(_ client: InProcessClient, locale: String) throws -> JSONValue {
        fx = try Fixture("")
        let result = try client.initialize([fx.uri()], locale: locale)
        return try XCTUnwrap(result["capabilities"]?["experimental"]?["carrel"])
    }

    func testEveryProjectTypeAndSortOfferedIsAccepted() throws {
        let client = InProcessClient()
        let words = try vocabulary(client, locale: "en")
        let types = try XCTUnwrap(words["projectTypes"]?.arrayValue)
        XCTAssertEqual(
            types.compactMap { $0["title"]?.stringValue }, ["Blank", "Poetry", "Short Story", "Novel", "Script"])
        for type in types {
            let made = try client.command(
                "carrel.newProject", ["parentUri": .string(fx.uri()), "name": type["title"]!, "type": type["id"]!])
            XCTAssertEqual(made["result"]?["projectType"], type["id"])
        }
        let sorts = try XCTUnwrap(words["sorts"]?.arrayValue)
        XCTAssertEqual(sorts.count, 7)
        XCTAssertEqual(sorts.first?["title"], "Binder order")
        for sort in sorts {
            let sorted = try client.command(
                "carrel.setSort",
                ["uri": .string(fx.uri("Poetry")), "by": sort["by"]!, "descending": sort["descending"]!])
            XCTAssertNotNil(sorted["result"], "\(sort)")
        }
        XCTAssertEqual(words["names"], ["maxBytes": 255, "defaultExtension": "md"])
    }

    func testTheWordsAreInTheClientsLanguage() throws {
        let words = try vocabulary(InProcessClient(), locale: "fr-FR")
        XCTAssertEqual(
            words["projectTypes"]?.arrayValue?.compactMap { $0["title"]?.stringValue },
            ["Vierge", "Poésie", "Nouvelle", "Roman", "Scénario"])
        XCTAssertEqual(words["sorts"]?.arrayValue?.first?["title"], "Ordre du classeur")
        XCTAssertEqual(words["sorts"]?.arrayValue?.dropFirst().first?["title"], "Nom, de A à Z")
    }
}
