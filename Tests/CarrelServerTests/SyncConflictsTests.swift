import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Sync engines keep both versions of a file two machines changed at once:
/// git as conflict markers, Syncthing and Dropbox as a copy beside it. For
/// Carrel's own files the server merges them on open and when they
/// appear, removes the copies, and tells the writer once.
final class SyncConflictsTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    static let syncthingCopy = "project.sync-conflict-20261123-101500-ABCDEFG.json"
    static let dropboxCopy = "project (Ada's conflicted copy 2026-11-23).json"

    /// project.json's text with each setting's value and when it changed.
    static func project(by: (String, Int), descending: (Bool, Int), confirm: (Bool, Int), ext: (String, Int))
        -> String
    {
        func setting(_ value: String, _ changed: Int) -> String { #"{"changed":\#(changed),"value":\#(value)}"# }
        return #"{"type":"poetry","version":1,"created":1,"folders":{"draft":"Draft","ready":"Ready","trash":"Trash"},"#
            + #""sort":{"by":\#(setting("\"\(by.0)\"", by.1)),"descending":\#(setting("\(descending.0)", descending.1))},"#
            + #""preferences":{"confirmDelete":\#(setting("\(confirm.0)", confirm.1)),"#
            + #""defaultExtension":\#(setting("\"\(ext.0)\"", ext.1))}}"#
    }

    func settings() throws -> [String: String] {
        let json = try JSONParser.parse(Array(XCTUnwrap(fx.read("P/.carrel/project.json")).utf8))
        var out: [String: String] = [:]
        for group in ["sort", "preferences"] {
            for (key, stored) in json[group]?.objectValue ?? [:] {
                let value = stored["value"] ?? stored
                out[key] = value.stringValue ?? value.text()
            }
        }
        return out
    }

    func start(locale: String = "en") throws -> [String] {
        client = InProcessClient()
        _ = try client.initialize([fx.uri()], locale: locale)
        return try messages()
    }

    /// Every `window/showMessage` so far; a request flushes what came before it.
    func messages() throws -> [String] {
        _ = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 0])
        var taken: [String] = []
        while let m = try? client.inbox.take("showMessage", timeout: 0, { $0["method"] == "window/showMessage" }) {
            taken.append(m["params"]?["message"]?.stringValue ?? "")
        }
        return taken
    }

    /// Each setting takes its latest change, whichever file holds it.
    func testConflictCopiesOfTheProjectFileAreMergedOnOpenAndSaidOnce() throws {
        fx = try Fixture("P/Draft/a.md = a\nP/.carrel/trash/\n")
        try Self.project(by: ("name", 5), descending: (false, 0), confirm: (true, 0), ext: ("md", 0))
            .write(toFile: fx.path + "/P/.carrel/project.json", atomically: false, encoding: .utf8)
        try Self.project(by: ("modified", 9), descending: (false, 0), confirm: (false, 3), ext: ("md", 0))
            .write(toFile: fx.path + "/P/.carrel/" + Self.syncthingCopy, atomically: false, encoding: .utf8)
        try Self.project(by: ("created", 2), descending: (true, 1), confirm: (true, 0), ext: ("txt", 4))
            .write(toFile: fx.path + "/P/.carrel/" + Self.dropboxCopy, atomically: false, encoding: .utf8)
        let said = try start()
        XCTAssertEqual(
            said,
            [
                "Two machines changed “P” at once and sync kept both versions of Carrel’s own files (2 copies merged): "
                    + "nothing was lost, each setting keeps its latest change."
            ])
        let expected = ["by": "modified", "descending": "true", "confirmDelete": "false", "defaultExtension": "txt"]
        XCTAssertEqual(try settings(), expected)
        XCTAssertEqual(fx.listing("P/.carrel", includeHidden: true), ["project.json", "trash/"])
        let row = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 0])
        XCTAssertEqual(row[0]?["confirmDelete"], false, "the model holds the merged settings")
        XCTAssertEqual(try messages(), [], "said once")
    }

    /// git's markers: both sides parsed, each setting from the newer one;
    /// an older file's bare value counts as never changed.
    func testConflictMarkersInTheProjectFileAreMergedOnOpen() throws {
        fx = try Fixture("P/Draft/a.md = a\nP/.carrel/\n")
        let ours = Self.project(by: ("modified", 10), descending: (true, 30), confirm: (true, 0), ext: ("md", 0))
        let theirs = Self.project(by: ("created", 20), descending: (false, 0), confirm: (true, 0), ext: ("md", 0))
            .replacingOccurrences(of: #"{"changed":0,"value":false}"#, with: "false")
        try "<<<<<<< HEAD\n\(ours)\n=======\n\(theirs)\n>>>>>>> 0123abc (A)\n"
            .write(toFile: fx.path + "/P/.carrel/project.json", atomically: false, encoding: .utf8)
        let said = try start(locale: "fr")
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(said.first?.hasPrefix("Deux machines ont modifié « P » en même temps") ?? false, "\(said)")
        XCTAssertEqual(try settings()["by"], "created")
        XCTAssertEqual(try settings()["descending"], "true")
        XCTAssertFalse(fx.read("P/.carrel/project.json")?.contains("<<<<<<<") ?? true)
        let node = try client.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 0])[0]
        XCTAssertNil(node?["locked"], "the project is not locked: \(String(describing: node))")
    }

    /// A version that does not parse is never guessed at: everything is
    /// left as it is, and the project works on its own file.
    func testACopyThatDoesNotParseIsLeftAlone() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/\(Self.syncthingCopy) = {"type":
            P/Draft/a.md = a
            """)
        XCTAssertEqual(try start(), [])
        XCTAssertEqual(fx.read("P/.carrel/" + Self.syncthingCopy), #"{"type":"#)
        XCTAssertEqual(fx.read("P/.carrel/project.json"), #"{"type":"poetry"}"#)
    }

    /// A record is written once, so a copy of it is the same deletion: one
    /// record stays per item, under a record's own name, and restores it.
    func testConflictCopiesOfTrashRecordsLeaveOneRecordPerItem() throws {
        let record = #"{"name":"x.md","from":"Ready/x.md","deleted":7}"#
        let lone = #"{"name":"y.md","from":"Ready/y.md","deleted":8}"#
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/7-a.json = \(record)
            P/.carrel/trash/7-a.sync-conflict-20261123-101500-ABCDEFG.json = \(record)
            P/.carrel/trash/8-b (Ada's conflicted copy 2026-11-23).json = \(lone)
            P/Trash/x.md = x
            P/Trash/y.md = y
            """)
        let said = try start()
        XCTAssertEqual(said.count, 1, "\(said)")
        let records = fx.listing("P/.carrel/trash", includeHidden: true)
        XCTAssertEqual(records.count, 2, "\(records)")
        XCTAssertTrue(records.contains("7-a.json"), "the record, not its copy: \(records)")
        XCTAssertFalse(records.contains { $0.contains("conflict") }, "\(records)")
        for name in ["x.md", "y.md"] {
            XCTAssertNil(try client.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/" + name))])["error"])
            XCTAssertTrue(fx.exists("P/Ready/" + name), name)
        }
    }

    /// A copy that sync brings while the server runs is merged then.
    func testACopyThatAppearsWhileOpenIsMerged() throws {
        fx = try Fixture("P/Draft/a.md = a\nP/.carrel/\n")
        try Self.project(by: ("name", 5), descending: (false, 0), confirm: (true, 0), ext: ("md", 0))
            .write(toFile: fx.path + "/P/.carrel/project.json", atomically: false, encoding: .utf8)
        XCTAssertEqual(try start(), [])
        try Self.project(by: ("name", 5), descending: (false, 0), confirm: (false, 9), ext: ("md", 0))
            .write(toFile: fx.path + "/P/.carrel/" + Self.syncthingCopy, atomically: false, encoding: .utf8)
        let shown = try client.inbox.take("showMessage", timeout: 10) { $0["method"] == "window/showMessage" }
        XCTAssertTrue(shown["params"]?["message"]?.stringValue?.contains("1 copy merged") ?? false, "\(shown)")
        XCTAssertEqual(try settings()["confirmDelete"], "false")
        XCTAssertEqual(fx.listing("P/.carrel", includeHidden: true), ["project.json"])
    }
}
