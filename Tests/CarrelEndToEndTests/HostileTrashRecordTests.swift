import CarrelJSON
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Restoring from Trash records that came from elsewhere (another machine,
/// a sync engine, a hand): an origin too deep to recreate, an origin inside
/// the Trash, and two deletions of one name whose items sync kept apart.
/// Each through the real binary, over stdio or as a command.
final class HostileTrashRecordTests: XCTestCase {
    var home: Fixture!

    override func tearDown() { home = nil }

    func spawn() throws -> ProcessClient {
        if home == nil { home = try Fixture() }
        return try ProcessClient(environment: [
            "HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_DATA_HOME": home.path + "/data",
        ])
    }

    func record(_ name: String, from: String, deleted: Int) -> String {
        let json: JSONValue = ["name": .string(name), "from": .string(from), "deleted": .int(deleted)]
        return String(decoding: json.encoded(pretty: false), as: UTF8.self)
    }

    /// The `window/showMessage` texts sent so far: a request is answered
    /// after everything sent before it, so the tree request flushes them.
    func reports(_ c: ProcessClient, _ fx: Fixture) throws -> [String] {
        _ = try c.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 0])
        var shown: [String] = []
        while let m = try? c.inbox.take("showMessage", timeout: 0, { $0["method"] == "window/showMessage" }) {
            shown.append(m["params"]?["message"]?.stringValue ?? "")
        }
        return shown
    }

    // MARK: An origin too deep

    func testAnOriginDeeperThanCarrelRecreatesIsRefusedAtOnce() throws {
        // A record at the size limit: some 30,000 folders, each a name of one letter.
        let deep = String(repeating: "d/", count: 30_000) + "x.md"
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/1-x.json = \(record("x.md", from: deep, deleted: 1))
            P/Draft/
            P/Trash/x.md = x
            """)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let before = fingerprint(fx.path)
        // Answered at all within the client's generous wait; the old restore made every folder first.
        let r = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/x.md"))])
        XCTAssertEqual(r["error"]?["data"]?["reason"]?.stringValue, "io", r.text())
        XCTAssertEqual(
            r["error"]?["message"]?.stringValue,
            "The Trash record of “x.md” names an origin 30000 folders deep, deeper than the 64 Carrel recreates: "
                + "the record is unusable, and nothing was changed. "
                + "Move “x.md” out of the Trash into the folder where it belongs.")
        XCTAssertEqual(fingerprint(fx.path), before, "no folder was made")
        let tree = try c.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 1])
        XCTAssertNotNil(tree[0], "the next request is answered")
    }

    func testAnOriginAtTheDepthLimitIsRecreated() throws {
        let origin = (1...64).map { "f\($0)" }.joined(separator: "/") + "/x.md"
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/1-x.json = \(record("x.md", from: origin, deleted: 1))
            P/Trash/x.md = x
            """)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let r = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/x.md"))])
        XCTAssertEqual(r["result"]?["name"], "x.md", r.text())
        XCTAssertEqual(fx.read("P/" + origin), "x")
        XCTAssertEqual(try reports(c, fx), ["Restored “x.md” to “f64”."])
    }

    // MARK: An origin inside the Trash

    func testAnOriginInsideTheTrashRestoresToTheProjectAndSaysSo() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/1-x.json = \(record("x.md", from: "Trash/Inner/x.md", deleted: 1))
            P/.carrel/trash/2-y.json = \(record("y.md", from: "trash/y.md", deleted: 1))
            P/Trash/x.md = x
            P/Trash/y.md = y
            """)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        for (name, origin) in [("x.md", "Trash/Inner/x.md"), ("y.md", "trash/y.md")] {
            let r = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/" + name))])
            XCTAssertEqual(r["result"]?["uri"]?.stringValue, fx.uri("P/" + name), r.text())
            XCTAssertEqual(
                try reports(c, fx),
                [
                    "Restored “\(name)” to “P”: its Trash record names a place inside the Trash (“\(origin)”), "
                        + "which is no origin, so it went where an item without a record goes."
                ])
        }
        XCTAssertEqual(fx.read("P/x.md"), "x")
        XCTAssertEqual(fx.read("P/y.md"), "y")
        XCTAssertEqual(fx.listing("P/Trash"), [], "nothing is left in the Trash for Empty Trash to destroy")
        XCTAssertEqual(Fixture.trashRecords(atProject: fx.path + "/P"), [:])
    }

    func testAnItemWithoutARecordRestoresToTheProjectAndSaysSo() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Trash/x.md = x
            """)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let r = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/x.md"))])
        XCTAssertEqual(r["result"]?["uri"]?.stringValue, fx.uri("P/x.md"), r.text())
        XCTAssertEqual(
            try reports(c, fx),
            ["Restored “x.md” to “P”: Carrel has no record of where it was, so it went to the project’s top."])
    }

    // MARK: One name deleted on two machines

    /// A deleted Draft/Untitled.md, B deleted Ready/Untitled.md; sync kept
    /// one item under the name and renamed the other to a conflict copy.
    func twoMachinesFixture() throws -> Fixture {
        try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/1000-a.json = \(record("Untitled.md", from: "Draft/Untitled.md", deleted: 1000))
            P/.carrel/trash/2000-b.json = \(record("Untitled.md", from: "Ready/Untitled.md", deleted: 2000))
            P/Draft/
            P/Ready/
            P/Trash/Untitled.md = b
            P/Trash/Untitled.sync-conflict-20260101-101500-ABCDEFG.md = a
            """)
    }

    func testTheConflictCopyOfATrashItemKeepsTheOlderDeletionsOrigin() throws {
        let fx = try twoMachinesFixture()
        let cli = try CLIRunner()
        let copy = fx.path + "/P/Trash/Untitled.sync-conflict-20260101-101500-ABCDEFG.md"
        let r = cli.run(["restore", copy, "--library", fx.path], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, fx.path + "/P/Draft/Untitled.md\n")
        XCTAssertEqual(
            r.stderr,
            "Restored “Untitled.md” to “Draft”: two deletions of "
                + "“Untitled.md” met in the Trash, and sync renamed one; Carrel guessed it is the earlier deletion, "
                + "from “Draft/Untitled.md”.\n")
        XCTAssertEqual(fx.read("P/Draft/Untitled.md"), "a")
        XCTAssertEqual(
            Fixture.trashRecords(atProject: fx.path + "/P"), ["Untitled.md": "Ready/Untitled.md"],
            "the other item keeps its own record")
        let other = cli.run(["restore", fx.path + "/P/Trash/Untitled.md", "--library", fx.path], in: fx.path)
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(fx.read("P/Ready/Untitled.md"), "b")
        XCTAssertEqual(fx.listing("P/Trash"), [])
    }

    func testTheServerSaysARestoreOfATwinWasAGuess() throws {
        let fx = try twoMachinesFixture()
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let name = "Untitled.sync-conflict-20260101-101500-ABCDEFG.md"
        let r = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/" + name))])
        XCTAssertEqual(r["result"]?["uri"]?.stringValue, fx.uri("P/Draft/Untitled.md"), r.text())
        XCTAssertEqual(
            try reports(c, fx),
            [
                "Restored “Untitled.md” to “Draft”: two deletions of “Untitled.md” met in the Trash, and sync "
                    + "renamed one; Carrel guessed it is the earlier deletion, from “Draft/Untitled.md”."
            ])
    }
}
