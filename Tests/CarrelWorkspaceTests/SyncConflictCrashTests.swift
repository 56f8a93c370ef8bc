import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// Every state a crash can leave between the steps of merging the versions
/// of Carrel's files that sync kept, built as a fixture and opened: each
/// ends in one merged project.json holding every version's settings and
/// Trash provenance, no copy left, every Trash item restorable to where
/// it came from.
final class SyncConflictCrashTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    static let copy = "project.sync-conflict-20261123-101500-ABCDEFG.json"

    /// An older project.json, still holding Trash records, as two machines
    /// left it: each deleted one item and changed one setting.
    static let mine =
        #"{"type":"poetry","sort":{"by":{"changed":5,"value":"modified"}},"#
        + #""trash":{"a.md":{"from":"Draft/a.md","deleted":1}}}"#
    static let theirs =
        #"{"type":"poetry","preferences":{"confirmDelete":{"changed":6,"value":false}},"#
        + #""trash":{"b.md":{"from":"Ready/b.md","deleted":2}}}"#

    func open(_ tree: String, projectFile: String, files: [String: String] = [:]) throws {
        fx = try Fixture(tree + "\nP/.carrel/\nP/Trash/a.md = a\nP/Trash/b.md = b\n")
        try projectFile.write(toFile: fx.path + "/P/.carrel/project.json", atomically: false, encoding: .utf8)
        for (name, text) in files { try text.write(toFile: fx.path + "/" + name, atomically: false, encoding: .utf8) }
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    /// One merged file, the copies and temporaries gone, both settings and
    /// both Trash items' provenance kept.
    func assertMergedAndRestorable(file: StaticString = #filePath, line: UInt = #line) throws {
        let carrel = fx.listing("P/.carrel", includeHidden: true).filter { !$0.hasPrefix("trash/") || $0 == "trash/" }
        XCTAssertEqual(carrel, ["project.json", "trash/"], file: file, line: line)
        let meta = try ProjectFile.read(fx.bytes("P"))
        XCTAssertEqual(meta.sort.by, .modified, file: file, line: line)
        XCTAssertEqual(meta.confirmDelete, false, file: file, line: line)
        XCTAssertEqual(fx.listing("P/.carrel/trash").count, 2, file: file, line: line)
        for (name, origin) in [("a.md", "Draft/a.md"), ("b.md", "Ready/b.md")] {
            _ = try ws.restore(try ws.locate(fx.bytes("P/Trash/" + name), uri: name))
            XCTAssertTrue(fx.exists("P/" + origin), origin, file: file, line: line)
        }
    }

    /// Killed before anything was written: the copy beside the file.
    func testCutBeforeTheMergeIsWritten() throws {
        try open("", projectFile: Self.mine, files: ["P/.carrel/" + Self.copy: Self.theirs])
        try assertMergedAndRestorable()
    }

    /// Killed while the merge was being written: a hidden temporary file,
    /// cut short, beside the markers git left.
    func testCutWhileTheMergeIsWritten() throws {
        try open(
            "", projectFile: "<<<<<<< HEAD\n\(Self.mine)\n=======\n\(Self.theirs)\n>>>>>>> 1234567 (B)\n",
            files: ["P/.carrel/.project.json.tmp-99-1": #"{"type":"poe"#])
        try assertMergedAndRestorable()
    }

    /// Killed after the merged file replaced project.json, before the copy
    /// went: merging again changes nothing and the copy goes.
    func testCutAfterTheMergeBeforeTheCopyWent() throws {
        let merged =
            #"{"type":"poetry","sort":{"by":{"changed":5,"value":"modified"}},"#
            + #""preferences":{"confirmDelete":{"changed":6,"value":false}},"#
            + #""trash":{"a.md":{"from":"Draft/a.md","deleted":1},"b.md":{"from":"Ready/b.md","deleted":2}}}"#
        try open("", projectFile: merged, files: ["P/.carrel/" + Self.copy: Self.theirs])
        try assertMergedAndRestorable()
    }

    /// A record's copy, killed before the copy went (the record kept) or
    /// before it was renamed (the copy the item's only record).
    func testCutWhileARecordsCopyIsResolved() throws {
        let record = #"{"name":"a.md","from":"Draft/a.md","deleted":1}"#
        let other = #"{"name":"b.md","from":"Ready/b.md","deleted":2}"#
        try open(
            """
            P/.carrel/trash/1-a.json = \(record)
            P/.carrel/trash/1-a.sync-conflict-20261123-101500-ABCDEFG.json = \(record)
            P/.carrel/trash/2-b.sync-conflict-20261123-101500-ABCDEFG.json = \(other)
            """,
            projectFile: #"{"type":"poetry","sort":{"by":{"changed":5,"value":"modified"}},"#
                + #""preferences":{"confirmDelete":{"changed":6,"value":false}}}"#)
        XCTAssertFalse(fx.listing("P/.carrel/trash").contains { $0.contains("conflict") })
        try assertMergedAndRestorable()
    }
}
