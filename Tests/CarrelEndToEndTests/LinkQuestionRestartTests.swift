import CarrelJSON
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// A rename through Carrel whose links question was never answered (the
/// editor closed on it, or the server stopped) is asked again by the next
/// server, over stdio; a left question whose move never happened is
/// dropped unasked, and a forged one refused.
final class LinkQuestionRestartTests: XCTestCase {
    var fx: Fixture!
    var home: Fixture!

    override func setUpWithError() throws {
        home = try Fixture()
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/One.md = Meet [Ada](Characters/Ada.md).
            """)
    }

    override func tearDown() {
        fx = nil
        home = nil
    }

    var links: String { home.path + "/state/carrel/links" }

    func questions() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: links)) ?? []).filter { $0.hasPrefix("question-") }
    }

    func server() throws -> ProcessClient {
        let c = try ProcessClient(home: home)
        _ = try c.initialize([fx.uri()])
        return c
    }

    func read(_ relative: String) throws -> String { try String(contentsOf: fx.url(relative), encoding: .utf8) }

    func fnv(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A question as a stopped Carrel (pid long gone) leaves it.
    func plant(from: [String], to: [String]) throws -> String {
        let real = try XCTUnwrap(realpath(fx.path, nil))
        defer { free(real) }
        let library = String(cString: real)
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        let path = links + "/question-\(fnv(Array(library.utf8)))-999999999-5-ab.json"
        let record: [String: Any] = ["carrelLinkQuestion": 1, "library": library, "from": from, "to": to]
        let data = try JSONSerialization.data(withJSONObject: record)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: data))
        return path
    }

    func testAQuestionTheEditorClosedOnIsAskedAgainAfterRestart() throws {
        let first = try server()
        _ = try first.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Novel/Characters/Ada.md")), "newName": "Ada Lovelace.md"])
        let asked = try first.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(asked["params"]?["message"], "1 link in 1 file points to “Ada.md”: update it?")
        XCTAssertEqual(questions().count, 1)
        first.closeInput()
        XCTAssertNotNil(first.waitForExit())

        let second = try server()
        let again = try second.inbox.take("the question again") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(again["params"]?["message"], asked["params"]?["message"])
        second.send(["jsonrpc": "2.0", "id": again["id"]!, "result": ["title": "Update Links"]])
        let said = try second.inbox.take("the report") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(said["params"]?["message"], "Updated 1 link in 1 file.")
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada%20Lovelace.md).")
        // The record goes once the answer is handled whole, before the next request's answer.
        _ = try second.result("carrel/tree", ["depth": 0])
        XCTAssertEqual(questions(), [])
    }

    func testAnAnsweredQuestionLeavesNoRecord() throws {
        let c = try server()
        _ = try c.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Novel/Characters/Ada.md")), "newName": "Ada Lovelace.md"])
        let asked = try c.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        c.send(["jsonrpc": "2.0", "id": asked["id"]!, "result": ["title": "Don't Update"]])
        _ = try c.result("carrel/tree", ["depth": 0])
        XCTAssertEqual(questions(), [])
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md).")
    }

    /// A stop after the update wrote its files and before its question was
    /// dropped: the moved file's links already lead from its new place, and
    /// asking again would rewrite them a second time, breaking them.
    func testAQuestionWhoseUpdateWasMadeLeavesTheMovedFilesLinks() throws {
        try FileManager.default.createDirectory(
            atPath: fx.path + "/P/Novel/Scenes", withIntermediateDirectories: true)
        try "Storm, with [Ada](../Characters/Ada.md).".write(
            to: fx.url("P/Novel/Scenes/Storm.md"), atomically: false, encoding: .utf8)
        let record = try plant(from: ["P", "Novel", "Storm.md"], to: ["P", "Novel", "Scenes", "Storm.md"])
        let c = try server()
        _ = try c.result("carrel/tree", ["depth": 0])
        XCTAssertFalse(c.inbox.pending.contains { $0["method"] == "window/showMessageRequest" })
        XCTAssertEqual(try read("P/Novel/Scenes/Storm.md"), "Storm, with [Ada](../Characters/Ada.md).")
        XCTAssertFalse(FileManager.default.fileExists(atPath: record))
    }

    func testAQuestionWhoseMoveNeverHappenedIsDropped() throws {
        let record = try plant(
            from: ["P", "Novel", "Characters", "Ada.md"], to: ["P", "Novel", "Characters", "Ada Lovelace.md"])
        let c = try server()
        _ = try c.result("carrel/tree", ["depth": 0])
        XCTAssertFalse(c.inbox.pending.contains { $0["method"] == "window/showMessageRequest" })
        XCTAssertFalse(FileManager.default.fileExists(atPath: record))
        XCTAssertEqual(try read("P/Novel/One.md"), "Meet [Ada](Characters/Ada.md).")
    }

    func testAPlantedQuestionWhoseMoveStandsIsAsked() throws {
        try FileManager.default.moveItem(
            atPath: fx.path + "/P/Novel/Characters/Ada.md", toPath: fx.path + "/P/Novel/Characters/Ada Lovelace.md")
        _ = try plant(
            from: ["P", "Novel", "Characters", "Ada.md"], to: ["P", "Novel", "Characters", "Ada Lovelace.md"])
        let c = try server()
        let asked = try c.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(asked["params"]?["message"], "1 link in 1 file points to “Ada.md”: update it?")
    }

    func testASymbolicLinkForAQuestionIsRefusedAndLeft() throws {
        let real = try XCTUnwrap(realpath(fx.path, nil))
        defer { free(real) }
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        let path = links + "/question-\(fnv(Array(String(cString: real).utf8)))-999999999-5-ab.json"
        XCTAssertEqual(symlink(fx.path + "/P/Novel/One.md", path), 0)
        let c = try server()
        let said = try c.inbox.take("the refusal") { $0["method"] == "window/showMessage" }
        XCTAssertEqual(
            said["params"]?["message"],
            .string(
                "Carrel left \(path) as it was and updated no link from it: it is a symbolic link, which Carrel does not follow."
            ))
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: path))
    }

    /// A pipe, an oversized file and a path climbing out are each refused
    /// by name, left where they are, and the server still answers.
    func testForgedQuestionsAreRefusedAndLeft() throws {
        let real = try XCTUnwrap(realpath(fx.path, nil))
        defer { free(real) }
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        let prefix = links + "/question-\(fnv(Array(String(cString: real).utf8)))-99999999"
        XCTAssertEqual(mkfifo(prefix + "1-5-ab.json", 0o600), 0)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: prefix + "2-5-ab.json", contents: Data(repeating: 0x20, count: (64 << 10) + 1)))
        let outside = try plant(from: ["..", "Ada.md"], to: ["P", "Novel", "Characters", "Ada.md"])
        let c = try server()
        _ = try c.result("carrel/tree", ["depth": 0])
        let said = c.inbox.pending.filter { $0["method"] == "window/showMessage" }.compactMap {
            $0["params"]?["message"]?.stringValue
        }
        XCTAssertTrue(said.contains { $0.contains("1-5-ab.json as it was") && $0.contains("named pipe") }, "\(said)")
        XCTAssertTrue(said.contains { $0.contains("2-5-ab.json as it was") && $0.contains("larger than") }, "\(said)")
        XCTAssertTrue(said.contains { $0.contains("it names a file outside the library") }, "\(said)")
        XCTAssertFalse(c.inbox.pending.contains { $0["method"] == "window/showMessageRequest" })
        for name in [prefix + "1-5-ab.json", prefix + "2-5-ab.json", outside] {
            XCTAssertNotNil(try? FileManager.default.attributesOfItem(atPath: name), name)
        }
    }
}
