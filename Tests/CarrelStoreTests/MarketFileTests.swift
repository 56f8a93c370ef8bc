import CarrelJSON
import CarrelModel
import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// `.carrel-market`: a market's details, a setting per field, untrusted.
final class MarketFileTests: XCTestCase {
    func dir(_ fx: Fixture) throws -> Directory { try Directory.open(fx.bytes("P/Magazines/Granta")) }

    func testFieldsAreTypedAndEachIsStamped() throws {
        let fx = try Fixture("P/Magazines/Granta/")
        let found = try MarketFile.write(
            [.url: .text("https://granta.example"), .deadline: .text("2026-12-31"), .simultaneous: .flag(false)],
            in: try dir(fx), now: 10)
        XCTAssertEqual(found.details.url, "https://granta.example")
        XCTAssertEqual(found.details.deadline?.description, "2026-12-31")
        XCTAssertEqual(found.details.simultaneous, false)
        XCTAssertNotNil(found.id, "a market gets an id, so records find it after a rename")
        let text = try XCTUnwrap(fx.read("P/Magazines/Granta/.carrel-market"))
        XCTAssertTrue(text.contains("\"changed\": 10"), text)
        // Cleared: the field keeps a stamped null, so a merge does not bring it back.
        let cleared = try MarketFile.write([.url: .clear], in: try dir(fx), now: 20)
        XCTAssertNil(cleared.details.url)
        XCTAssertEqual(cleared.id, found.id)
    }

    /// Forged fields read as unset; the rest of the file still reads.
    func testForgedFieldsReadAsUnset() throws {
        let fx = try Fixture(
            #"""
            P/Magazines/Granta/.carrel-market = {"id":"x","fields":{"deadline":{"changed":1,"value":"2026-13-45"},"simultaneous":{"changed":1,"value":"yes"},"fee":{"changed":-9,"value":3},"name":{"changed":1e300,"value":"Granta"}}}
            """#)
        let found = MarketFile.read(in: try dir(fx))
        XCTAssertNil(found.details.deadline)
        XCTAssertNil(found.details.simultaneous)
        XCTAssertNil(found.details.fee)
        XCTAssertEqual(found.details.name, "Granta")
        XCTAssertNil(found.id, "“x” is no id Carrel writes")
    }

    /// A link, a pipe or a huge file in its place is never read through,
    /// and never replaced.
    func testALinkAPipeOrAHugeFileIsRefusedAndLeftAlone() throws {
        for hostile in ["link", "pipe", "huge", "folder"] {
            let fx = try Fixture(
                """
                P/Magazines/Granta/
                secret = {"id":"1234567890123456","fields":{"name":{"changed":1,"value":"secret"}}}
                """)
            let path = fx.path + "/P/Magazines/Granta/.carrel-market"
            switch hostile {
            case "link": XCTAssertEqual(symlink(fx.path + "/secret", path), 0)
            case "pipe": XCTAssertEqual(mkfifo(path, 0o644), 0)
            case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            default:
                try String(repeating: " ", count: MarketFile.sizeLimit + 1).appending("{}").write(
                    toFile: path, atomically: false, encoding: .utf8)
            }
            let before = fingerprint(fx.path)
            let found = MarketFile.read(in: try dir(fx))
            XCTAssertNil(found.details.name, hostile)
            XCTAssertNotNil(found.problem, hostile)
            XCTAssertThrowsError(try MarketFile.write([.name: .text("G")], in: try dir(fx)), hostile)
            XCTAssertEqual(fingerprint(fx.path), before, hostile)
        }
    }

    /// Two machines edited the market at once: each field takes its latest
    /// change, and the copy goes once the merge is written.
    func testAConflictCopyMergesFieldByField() throws {
        let fx = try Fixture(
            #"""
            P/Magazines/Granta/.carrel-market = {"id":"1000-00000000000000aa","fields":{"fee":{"changed":5,"value":"£3"},"url":{"changed":9,"value":"https://new.example"}}}
            P/Magazines/Granta/.carrel-market.sync-conflict-20261123-101500-ABCDEFG = {"id":"1000-00000000000000aa","fields":{"fee":{"changed":7,"value":"£5"},"url":{"changed":2,"value":"https://old.example"},"notes":{"changed":3,"value":"themed issue"}}}
            """#)
        let found = MarketFile.read(in: try dir(fx))
        XCTAssertEqual(found.details.fee, "£5")
        XCTAssertEqual(found.details.url, "https://new.example")
        XCTAssertEqual(found.details.notes, "themed issue")
        _ = try MarketFile.write([.name: .text("Granta")], in: try dir(fx))
        XCTAssertEqual(fx.listing("P/Magazines/Granta", includeHidden: true), [".carrel-market"])
        let after = MarketFile.read(in: try dir(fx))
        XCTAssertEqual(after.details.fee, "£5")
        XCTAssertEqual(after.details.notes, "themed issue")
    }
}
