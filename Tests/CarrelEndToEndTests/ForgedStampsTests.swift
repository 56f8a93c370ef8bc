import CarrelJSON
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Each setting in project.json carries `changed`, a number any synced or
/// cloned file can set to anything. The real server over stdio and the
/// real CLI: no stamp stops them, and a writer's change always takes
/// effect, here and after sync merges it with the file it replaced.
final class ForgedStampsTests: XCTestCase {
    var home: Fixture!

    override func tearDown() { home = nil }

    func spawn() throws -> ProcessClient {
        if home == nil { home = try Fixture() }
        chmod(home.path, 0o777)
        return try ProcessClient(environment: [
            "HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_DATA_HOME": home.path + "/data",
        ])
    }

    static let largest = "9223372036854775807"
    /// Far in the future, yet a number a clock could read (year 8307).
    static let farFuture = "200000000000000"

    /// A poetry project whose project.json holds `extra` beside its type.
    func project(_ extra: String) throws -> Fixture {
        try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry",\(extra)}
            P/Draft/a.md = a
            """)
    }

    func json(_ fx: Fixture) throws -> JSONValue {
        try JSONParser.parse(Array(XCTUnwrap(fx.read("P/.carrel/project.json")).utf8))
    }

    func stillAnswers(_ server: ProcessClient, _ fx: Fixture) throws {
        let row = try server.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 0])
        XCTAssertEqual(row.arrayValue?.first?["kind"], "project", "the server still answers")
    }

    func testClearingATargetStampedAtTheLargestNumber() throws {
        let fx = try project(#""targets":{"Draft/a.md":{"changed":\#(Self.largest),"value":500}}"#)
        let server = try spawn()
        _ = try server.initialize([fx.uri()])
        let r = try server.command("carrel.setTarget", ["uri": .string(fx.uri("P/Draft/a.md")), "words": .null])
        XCTAssertNil(r["error"], "\(r)")
        XCTAssertNil(r["result"]?["target"])
        try stillAnswers(server, fx)
        XCTAssertEqual(try fx.settings("targets", of: "P")["Draft/a.md"], .null)
    }

    /// Entries the reader drops (a target that is no number, a sort that
    /// does not exist) are cleared by the next write of any setting.
    func testDroppedEntriesStampedAtTheLargestNumberLetEveryWriteThrough() throws {
        let fx = try project(
            #""targets":{"Draft/a.md":{"changed":\#(Self.largest),"value":"abc"}},"#
                + #""folderSorts":{"Draft":{"changed":\#(Self.largest),"value":{"by":"bogus"}}}"#)
        let server = try spawn()
        _ = try server.initialize([fx.uri()])
        let r = try server.command("carrel.setSort", ["uri": .string(fx.uri("P")), "by": "modified"])
        XCTAssertNil(r["error"], "\(r)")
        try stillAnswers(server, fx)
        XCTAssertEqual(try json(fx)["sort"]?["by"]?["value"], "modified")
        XCTAssertEqual(try fx.settings("targets", of: "P")["Draft/a.md"], .null)
        XCTAssertEqual(try fx.settings("folderSorts", of: "P")["Draft"], .null)
    }

    func testTheCLIClearsAndWritesOverTheLargestStamp() throws {
        let fx = try project(
            #""targets":{"Draft/a.md":{"changed":\#(Self.largest),"value":500},"#
                + #""Draft":{"changed":\#(Self.largest),"value":"abc"}}"#)
        let cli = try CLIRunner()
        var r = cli.run(["target", "P/Draft/a.md", "none"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try fx.settings("targets", of: "P")["Draft/a.md"], .null)
        r = cli.run(["sort", "P", "created"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try json(fx)["sort"]?["by"]?["value"], "created")
    }

    /// The writer changes a setting the file says was changed far in the
    /// future (or at a number no clock reads); another machine's version
    /// of the file from before the change comes back as a Syncthing
    /// conflict copy. The merge keeps the writer's change.
    func testAWritersChangeOutlivesAFutureStampThroughAMerge() throws {
        for stamp in [Self.farFuture, Self.largest] {
            let before =
                #"{"type":"poetry","sort":{"by":{"changed":\#(stamp),"value":"name"}},"#
                + #""targets":{"Draft/a.md":{"changed":\#(stamp),"value":500}}}"#
            let fx = try Fixture("P/.carrel/project.json = \(before)\nP/Draft/a.md = a")
            let server = try spawn()
            _ = try server.initialize([fx.uri()])
            _ = try server.command("carrel.setSort", ["uri": .string(fx.uri("P")), "by": "created"])
            _ = try server.command("carrel.setTarget", ["uri": .string(fx.uri("P/Draft/a.md")), "words": 700])
            _ = try server.request("shutdown")
            server.notify("exit")
            XCTAssertEqual(server.waitForExit(), 0, stamp)
            try before.write(
                toFile: fx.path + "/P/.carrel/project.sync-conflict-20261123-101500-ABCDEFG.json", atomically: false,
                encoding: .utf8)
            let r = try CLIRunner().run(["tree", "P"], in: fx.path)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(fx.listing("P/.carrel").contains { $0.contains("sync-conflict") }, "merged")
            XCTAssertEqual(try json(fx)["sort"]?["by"]?["value"], "created", stamp)
            XCTAssertEqual(try fx.settings("targets", of: "P")["Draft/a.md"], 700, stamp)
        }
    }
}
