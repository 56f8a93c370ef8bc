import CarrelJSON
import CarrelModel
import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// One record file per Trash item in `.carrel/trash`.
final class TrashRecordsTests: XCTestCase {
    /// Each deletion gets a file of its own, never reused, one key per line.
    func testEachRecordIsAFileOfItsOwnOneKeyPerLine() throws {
        let fx = try Fixture(#"P/.carrel/project.json = {"type":"poetry"}"#)
        let carrel = try ProjectFile.carrelFolder(fx.bytes("P"))
        let records = try XCTUnwrap(TrashRecords.folder(in: carrel, create: true))
        let a = try TrashRecords.write("a.md", .init(originalPath: "Draft/a.md", deleted: 7), in: records)
        let b = try TrashRecords.write("a.md", .init(originalPath: "Draft/a.md", deleted: 7), in: records)
        XCTAssertNotEqual(a.id, b.id)
        XCTAssertEqual(
            fx.read("P/.carrel/trash/\(a.id)"),
            "{\n  \"deleted\": 7,\n  \"from\": \"Draft/a.md\",\n  \"id\": \"\(a.id.dropLast(5))\",\n  \"name\": \"a.md\"\n}\n"
        )
        XCTAssertEqual(fx.listing("P/.carrel/trash", includeHidden: true), [a.id, b.id].sorted())
    }

    /// Two records naming one item (two machines deleted under the same
    /// name): the newest deletion is kept, the other listed as superseded.
    func testTheNewestDeletionOfANameWins() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/1-a.json = {"name":"x.md","from":"Draft/x.md","deleted":1}
            P/.carrel/trash/2-b.json = {"name":"x.md","from":"Ready/x.md","deleted":2}
            P/.carrel/trash/3-c.json = {"name":"y.md","from":"Draft/y.md","deleted":3}
            """)
        let records = try XCTUnwrap(TrashRecords.folder(in: ProjectFile.carrelFolder(fx.bytes("P")), create: false))
        let scan = TrashRecords.scan(records)
        XCTAssertEqual(scan.kept["x.md"]?.record.originalPath, "Ready/x.md")
        XCTAssertEqual(scan.kept["y.md"]?.id, "3-c.json")
        XCTAssertEqual(scan.superseded.map(\.id), ["1-a.json"])
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).trash["x.md"]?.originalPath, "Ready/x.md")
    }

    /// Anything in `.carrel/trash` that is not a plain file holding a
    /// record is skipped, and nothing is read or removed through a link.
    func testWhatIsNotARecordIsSkippedAndNeverRemovedThroughALink() throws {
        let fx = try Fixture(
            """
            outside.json = {"name":"o.md","from":"Draft/o.md","deleted":1}
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/bad.json = {"name":
            P/.carrel/trash/noname.json = {"from":"Draft/a.md"}
            P/.carrel/trash/slash.json = {"name":"a/b.md","from":"Draft/a.md"}
            P/.carrel/trash/dir.json/
            P/.carrel/trash/link.json -> ../../../outside.json
            P/.carrel/trash/ok.json = {"name":"ok.md","from":"Draft/ok.md","deleted":1}
            """)
        XCTAssertEqual(mkfifo(fx.path + "/P/.carrel/trash/fifo.json", 0o644), 0)
        let records = try XCTUnwrap(TrashRecords.folder(in: ProjectFile.carrelFolder(fx.bytes("P")), create: false))
        let scan = TrashRecords.scan(records)
        XCTAssertEqual(Array(scan.kept.keys), ["ok.md"])
        XCTAssertEqual(scan.superseded, [])
        XCTAssertFalse(TrashRecords.remove("link.json", in: records))
        XCTAssertFalse(TrashRecords.remove("fifo.json", in: records))
        XCTAssertTrue(fx.exists("P/.carrel/trash/link.json"))
        XCTAssertNotNil(fx.read("outside.json"))
    }

    /// A `.carrel/trash` that is a link or a named pipe is refused by what
    /// it is, never followed or opened.
    func testARecordsFolderThatIsNotARealFolderIsRefused() throws {
        let fx = try Fixture(
            """
            elsewhere/
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash -> ../../elsewhere
            Q/.carrel/project.json = {"type":"poetry"}
            """)
        XCTAssertEqual(mkfifo(fx.path + "/Q/.carrel/trash", 0o644), 0)
        for p in ["P", "Q"] {
            let carrel = try ProjectFile.carrelFolder(fx.bytes(p))
            XCTAssertThrowsError(try TrashRecords.folder(in: carrel, create: true), p)
            XCTAssertEqual(try ProjectFile.read(fx.bytes(p)).trash, [:], p)
        }
        XCTAssertEqual(fx.listing("elsewhere", includeHidden: true), [])
    }
}
