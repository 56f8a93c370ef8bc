import CarrelJSON
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// project.json's `folders` says which folder of the project plays each
/// permanent role. It travels with the library, so a role is taken only
/// from a name the catalog could have written there (its own name, or that
/// name in another case or Unicode spelling, as `init` keeps a writer's
/// "trash"), never from a writer's folder, never by two roles at once and
/// never from another machine's copy of the file. Emptying the Trash never
/// reaches a writer's folder.
final class RoleFoldersTests: XCTestCase {
    var home: Fixture!

    override func tearDown() { home = nil }

    func spawn() throws -> ProcessClient {
        if home == nil { home = try Fixture() }
        chmod(home.path, 0o777)
        return try ProcessClient(environment: [
            "HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_DATA_HOME": home.path + "/data",
        ])
    }

    func row(_ server: ProcessClient, _ fx: Fixture, _ relative: String) throws -> JSONValue {
        try server.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 0]).arrayValue![0]
    }

    /// A poetry project with a draft, an item in its Trash, and `folders`.
    func project(folders: String) throws -> Fixture {
        try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","folders":\(folders)}
            P/Draft/a.md = a draft
            P/Trash/old.md = deleted
            P/Weekly/w.md = a writer's folder
            """)
    }

    func testAFolderTheCatalogNeverNamedIsNoTrashAndEmptyingLeavesIt() throws {
        for folders in [
            #"{"trash":"Draft"}"#, #"{"draft":"Draft","trash":"Draft"}"#, #"{"trash":"Weekly"}"#,
            #"{"trash":"Draft/.."}"#, #"{"trash":"."}"#,
        ] {
            let fx = try project(folders: folders)
            let server = try spawn()
            _ = try server.initialize([fx.uri()])
            XCTAssertNil(try row(server, fx, "P/Draft/a.md")["inTrash"], folders)
            XCTAssertNil(try row(server, fx, "P/Weekly/w.md")["inTrash"], folders)
            XCTAssertEqual(try row(server, fx, "P/Trash/old.md")["inTrash"], true, folders)
            XCTAssertEqual(try row(server, fx, "P/Draft")["role"], "draft", folders)
            XCTAssertNil(try row(server, fx, "P/Weekly")["role"], folders)
            let r = try server.command("carrel.emptyTrash", ["projectUri": .string(fx.uri("P")), "confirmed": true])
            XCTAssertEqual(r["result"]?["deleted"], 1, folders)
            XCTAssertEqual(fx.listing("P/Draft"), ["a.md"], folders)
            XCTAssertEqual(fx.listing("P/Weekly"), ["w.md"], folders)
            XCTAssertEqual(fx.listing("P/Trash"), [], folders)
        }
    }

    func testTheCLIEmptiesOnlyTheTrash() throws {
        let fx = try project(folders: #"{"trash":"Draft"}"#)
        let r = try CLIRunner().run(["empty-trash", "P", "--yes"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fx.listing("P/Draft"), ["a.md"])
        XCTAssertEqual(fx.listing("P/Trash"), [])
    }

    /// "trash" for "Trash" is what `init` writes when the writer's folder
    /// is spelled so: it is the project's Trash.
    func testTheCatalogsNameInAnotherCaseIsTheRole() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","folders":{"trash":"trash"}}
            P/Draft/a.md = a
            P/trash/old.md = deleted
            """)
        let server = try spawn()
        _ = try server.initialize([fx.uri()])
        XCTAssertEqual(try row(server, fx, "P/trash")["role"], "trash")
        XCTAssertEqual(try row(server, fx, "P/trash/old.md")["inTrash"], true)
    }

    static let copy = "project.sync-conflict-20261123-101500-ABCDEFG.json"

    /// Another machine's copy whose `folders` would win the merge (its JSON
    /// sorts last) changes no role: the project keeps its own.
    func testAConflictCopyChangesNoRole() throws {
        for (theirs, expected) in [("Weekly", "Trash"), ("trash", "Trash")] {
            let fx = try Fixture(
                """
                P/.carrel/project.json = {"type":"poetry","folders":{"trash":"Trash"}}
                P/.carrel/\(Self.copy) = {"type":"poetry","folders":{"trash":"\(theirs)"}}
                P/Draft/a.md = a
                P/Trash/old.md = deleted
                P/trash/kept.md = a writer's folder spelled like the Trash
                P/Weekly/w.md = a writer's folder
                """)
            let server = try spawn()
            _ = try server.initialize([fx.uri()])
            XCTAssertFalse(fx.listing("P/.carrel").contains(Self.copy), "merged")
            let merged = try JSONParser.parse(Array(XCTUnwrap(fx.read("P/.carrel/project.json")).utf8))
            XCTAssertEqual(merged["folders"]?["trash"]?.stringValue, expected, theirs)
            XCTAssertEqual(try row(server, fx, "P/Trash/old.md")["inTrash"], true, theirs)
            XCTAssertNil(try row(server, fx, "P/trash/kept.md")["inTrash"], theirs)
            XCTAssertNil(try row(server, fx, "P/Weekly/w.md")["inTrash"], theirs)
            _ = try server.command("carrel.emptyTrash", ["projectUri": .string(fx.uri("P")), "confirmed": true])
            XCTAssertEqual(fx.listing("P/trash"), ["kept.md"], theirs)
            XCTAssertEqual(fx.listing("P/Weekly"), ["w.md"], theirs)
        }
    }
}
