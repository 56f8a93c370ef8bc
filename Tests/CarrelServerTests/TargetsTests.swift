import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// `carrel.setTarget`: word targets kept in project.json as settings,
/// carried by Carrel's renames and moves; a project's daily target kept
/// on the device, with today's words.
final class TargetsTests: ServedLibraryTestCase {
    func start() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Cycle/a.md = one two three
            P/Draft/b.md = four five
            plain/x.md = x
            """)
    }

    func set(_ relative: String, _ field: String, _ value: JSONValue) throws -> JSONValue {
        try client.command("carrel.setTarget", ["uri": .string(fx.uri(relative)), .init(stringLiteral: field): value])
    }

    func waitForCounts() throws {
        let deadline = Date().addingTimeInterval(10)
        while try row("")["words"] == nil {
            guard Date() < deadline else { return XCTFail("never counted") }
            usleep(10_000)
        }
    }

    func testTargetsAreKeptInProjectJsonAsSettingsAndShowProgress() throws {
        try start()
        try waitForCounts()
        let file = try set("P/Draft/Cycle/a.md", "words", 1500)["result"]!
        XCTAssertEqual(file["target"], 1500)
        XCTAssertEqual(file["summary"], "3 / 1,500 words")
        _ = try set("P", "words", 80000)
        XCTAssertEqual(try row("P")["summary"], "2 files · 5 / 80,000 words")
        XCTAssertEqual(try targets()["."], 80000)
        XCTAssertEqual(try targets()["Draft/Cycle/a.md"], 1500)
        let json = fx.read("P/.carrel/project.json") ?? ""
        XCTAssertTrue(
            json.contains("\n    \"Draft/Cycle/a.md\": {\n      \"changed\": "), "a setting of its own lines: \(json)")
        _ = try set("P/Draft/Cycle/a.md", "words", .null)
        XCTAssertNil(try row("P/Draft/Cycle/a.md")["target"])
        XCTAssertEqual(try targets()["Draft/Cycle/a.md"], .null, "kept cleared, so a merge does not bring it back")
    }

    /// project.json's targets: each path's value.
    func targets() throws -> [String: JSONValue] { try fx.settings("targets", of: "P") }

    func testRenamesAndMovesThroughCarrelCarryTargets() throws {
        try start()
        _ = try set("P/Draft/Cycle/a.md", "words", 100)
        _ = try set("P/Draft/Cycle", "words", 200)
        _ = try client.command("carrel.rename", ["uri": .string(fx.uri("P/Draft/Cycle")), "newName": "Round"])
        XCTAssertEqual(try row("P/Draft/Round")["target"], 200)
        XCTAssertEqual(try row("P/Draft/Round/a.md")["target"], 100)
        _ = try client.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("P/Draft/Round")), "destinationUri": .string(fx.uri("P/Ready"))])
        XCTAssertEqual(try row("P/Ready/Round/a.md")["target"], 100)
        let targets = try targets()
        XCTAssertEqual(targets["Ready/Round/a.md"], 100)
        XCTAssertEqual(targets["Ready/Round"], 200)
        for old in ["Draft/Cycle", "Draft/Cycle/a.md", "Draft/Round", "Draft/Round/a.md"] {
            XCTAssertEqual(targets[old], .null, old)
        }
    }

    func testADailyTargetCountsTodaysWords() throws {
        try start()
        try waitForCounts()
        let project = try set("P", "session", 500)["result"]!
        XCTAssertEqual(project["sessionTarget"], 500)
        XCTAssertEqual(project["sessionWords"], 0)
        XCTAssertEqual(project["summary"], "2 files · 5 words · today 0 / 500")
        XCTAssertFalse(fx.read("P/.carrel/project.json")!.contains("500"), "the daily target is the device's")
        XCTAssertTrue(
            (try? String(contentsOfFile: home.path + "/state/carrel/sessions.json", encoding: .utf8))?.contains(
                "\"target\": 500") ?? false)
        client.notify("initialized")
        try "four five six seven".write(to: fx.url("P/Draft/b.md"), atomically: false, encoding: .utf8)
        let deadline = Date().addingTimeInterval(10)
        while try row("P")["sessionWords"] != 2 {
            guard Date() < deadline else { return XCTFail("today's words never grew: \(try row("P"))") }
            usleep(10_000)
        }
        XCTAssertEqual(try row("P")["summary"], "2 files · 7 words · today 2 / 500")
    }

    func testTargetsOutsideProjectsOrOutOfRangeAreRefused() throws {
        try start()
        let before = fx.read("P/.carrel/project.json")
        XCTAssertEqual(try set("plain/x.md", "words", 10)["error"]?["data"]?["reason"], "notInProject")
        XCTAssertEqual(try set("P/Draft", "session", 10)["error"]?["data"]?["reason"], "notAProject")
        XCTAssertEqual(try set("P/Draft", "words", 0)["error"]?["data"]?["field"], "words")
        XCTAssertEqual(try set("P/Draft", "words", 100_000_001)["error"]?["data"]?["field"], "words")
        XCTAssertEqual(
            try client.command("carrel.setTarget", ["uri": .string(fx.uri("P")), "words": 5, "session": 5])["error"]?[
                "data"]?["field"], "session")
        XCTAssertEqual(fx.read("P/.carrel/project.json"), before)
    }
}

/// project.json travels with the library: targets in it are untrusted.
final class HostileTargetsTests: ServedLibraryTestCase {
    func testTargetsThatAreNotWholeNumbersInRangeAreIgnored() throws {
        try serve(
            """
            P/.carrel/project.json = {"type":"poetry","targets":{".":500,"Draft":-5,"Draft/a.md":"lots","Ready":1e30,"../x":7}}
            P/Draft/a.md = a
            Q/.carrel/project.json = {"type":"poetry","targets":5}
            """)
        XCTAssertEqual(try row("P")["target"], 500)
        XCTAssertNil(try row("P/Draft")["target"])
        XCTAssertNil(try row("P/Draft/a.md")["target"])
        XCTAssertNil(try row("P/Ready")["target"])
        XCTAssertNil(try row("Q")["target"])
        XCTAssertEqual(try row("Q")["kind"], "project", "a bad targets key leaves the project usable")
    }
}
