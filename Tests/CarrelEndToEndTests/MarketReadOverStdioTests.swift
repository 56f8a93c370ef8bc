import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// `carrel/market` through the real `carrel lsp` over pipes: what a
/// client prefills its Market details… prompts with, so a writer sees each
/// field and can clear it.
final class MarketReadOverStdioTests: XCTestCase {
    func testTheDetailsSetAreReadBackAndAClearedFieldIsAbsent() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea
            P/Magazines/Granta/
            P/Magazines/Review/
            """)
        let home = try Fixture("state/")
        let c = try ProcessClient(environment: ["XDG_STATE_HOME": home.path + "/state"])
        _ = try c.initialize([fx.uri()])
        let granta = JSONValue.string(fx.uri("P/Magazines/Granta"))

        XCTAssertEqual(try c.result("carrel/market", ["uri": granta]), [:], "a market without details")
        let set = try c.command(
            "carrel.setMarket",
            [
                "uri": granta,
                "fields": [
                    "name": "Granta", "url": "https://granta.com", "deadline": "2026-12-31",
                    "readingPeriod": "March", "fee": "£3", "simultaneous": false, "notes": "No rhyme",
                ],
            ])
        XCTAssertNotNil(set["result"], set.text())
        XCTAssertEqual(
            try c.result("carrel/market", ["uri": granta]),
            [
                "name": "Granta", "url": "https://granta.com", "deadline": "2026-12-31", "readingPeriod": "March",
                "fee": "£3", "simultaneous": false, "notes": "No rhyme",
            ])
        _ = try c.command("carrel.setMarket", ["uri": granta, "fields": ["fee": nil, "simultaneous": true]])
        XCTAssertEqual(
            try c.result("carrel/market", ["uri": granta]),
            [
                "name": "Granta", "url": "https://granta.com", "deadline": "2026-12-31", "readingPeriod": "March",
                "simultaneous": true, "notes": "No rhyme",
            ], "a cleared field is absent")
        XCTAssertEqual(try c.result("carrel/market", ["uri": .string(fx.uri("P/Magazines/Review"))]), [:])
        c.closeInput()
        _ = c.waitForExit()
    }

    func testAFolderThatIsNoMarketIsRefusedAndNothingChanges() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea
            P/Magazines/Granta/
            """)
        let home = try Fixture("state/")
        let c = try ProcessClient(environment: ["XDG_STATE_HOME": home.path + "/state"])
        _ = try c.initialize([fx.uri()])
        let before = try FileManager.default.subpathsOfDirectory(atPath: fx.path).sorted()
        for relative in ["P/Draft", "P/Draft/Spring.md", "P/Magazines"] {
            let r = try c.request("carrel/market", ["uri": .string(fx.uri(relative))])
            XCTAssertEqual(r["error"]?["data"]?["reason"], "notAMarket", "\(relative): \(r.text())")
            XCTAssertEqual(r["error"]?["code"], -32803, relative)
        }
        let message = try c.request("carrel/market", ["uri": .string(fx.uri("P/Draft"))])["error"]?["message"]
        XCTAssertEqual(
            message,
            "“Draft” is not a market: a market is a folder in Magazines, Competitions, Commissions or Other. Nothing was changed."
        )
        let outside = try c.request("carrel/market", ["uri": "file:///etc"])
        XCTAssertEqual(outside["error"]?["data"]?["reason"], "outsideWorkspace", outside.text())
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: fx.path).sorted(), before)
        c.closeInput()
        _ = c.waitForExit()
    }

    /// A `.carrel-market` is untrusted: a field of the wrong type reads as
    /// unset, and one that is not a plain file reads as no details.
    func testAForgedMarketFileReadsAsWhatItCanVouchFor() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Magazines/Granta/.carrel-market = {"fields":{"fee":{"changed":1,"value":7},"url":{"changed":1,"value":"https://g.example"},"simultaneous":{"changed":1,"value":"yes"}},"id":"1-a"}
            P/Magazines/Pipe/
            """)
        XCTAssertEqual(mkfifo(fx.path + "/P/Magazines/Pipe/.carrel-market", 0o644), 0)
        let home = try Fixture("state/")
        let c = try ProcessClient(environment: ["XDG_STATE_HOME": home.path + "/state"])
        _ = try c.initialize([fx.uri()])
        XCTAssertEqual(
            try c.result("carrel/market", ["uri": .string(fx.uri("P/Magazines/Granta"))]),
            ["url": "https://g.example"])
        XCTAssertEqual(try c.result("carrel/market", ["uri": .string(fx.uri("P/Magazines/Pipe"))]), [:])
        c.closeInput()
        _ = c.waitForExit()
    }
}
