import CarrelJSON
import CarrelTestSupport
import XCTest

/// A compile's `$/progress` speaks the writer's language, title and every
/// step, from `begin` to `end`, as every other word the server sends does.
final class CompileProgressLanguageTests: XCTestCase {
    func progress(locale: String) throws -> [JSONValue] {
        let fx = try Fixture(
            """
            N/.carrel/project.json = {"type":"novel"}
            N/Chapters/One/a.md = Alpha scene here.
            N/Chapters/One/b.md = Beta scene here.
            """)
        let client = try ProcessClient()
        _ = try client.initialize([fx.uri()], locale: locale)
        _ = try client.result(
            "workspace/executeCommand",
            [
                "command": "carrel.compile", "workDoneToken": "t1",
                "arguments": [["projectUri": .string(fx.uri("N")), "format": "markdown"]],
            ])
        var values: [JSONValue] = []
        while values.last?["kind"] != "end" {
            let sent = try client.inbox.take("progress", timeout: 10) { $0["method"] == "$/progress" }
            values.append(try XCTUnwrap(sent["params"]?["value"]))
        }
        return values
    }

    func testFrenchProgressHasNoEnglishWord() throws {
        let values = try progress(locale: "fr")
        XCTAssertEqual(values.first?["title"], "Compilation")
        XCTAssertEqual(values.first?["message"], "Lecture")
        XCTAssertEqual(values.last?["message"], "Terminé")
        let english: Set<String> = ["Compiling", "Reading", "Assembling", "Writing", "Done"]
        for value in values {
            for key in ["title", "message"] {
                if let word = value[key]?.stringValue { XCTAssertFalse(english.contains(word), "\(key): \(word)") }
            }
        }
    }

    func testEnglishProgressSaysEachStep() throws {
        let values = try progress(locale: "en")
        XCTAssertEqual(values.first?["title"], "Compiling")
        XCTAssertEqual(values.compactMap { $0["message"]?.stringValue }.first, "Reading")
        XCTAssertEqual(values.last?["message"], "Done")
    }
}
