import CarrelJSON
import CarrelModel
import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// One record file per submission in `.carrel/submissions`: untrusted when
/// read, merged with the versions sync kept when changed.
final class SubmissionRecordsTests: XCTestCase {
    static let good = #"""
        {"id":"ID","sent":"2026-11-20",
         "market":{"changed":1,"value":{"path":"Magazines/Granta","name":"Granta"}},
         "pieces":{"1":{"path":"Draft/Spring.md","status":{"changed":1,"value":{"status":"pending","day":"2026-11-20"}}}}}
        """#.replacingOccurrences(of: "\n", with: "")

    func record(id: String, _ body: String = good) -> String {
        body.replacingOccurrences(of: "\"ID\"", with: "\"\(id)\"")
    }

    func folder(_ fx: Fixture) throws -> Directory {
        try XCTUnwrap(SubmissionRecords.folder(in: ProjectFile.carrelFolder(fx.bytes("P")), create: true))
    }

    func testARecordReadsWithItsMarketPiecesAndStatus() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/submissions/1-a.json = \(record(id: "1-a"))
            """)
        let scan = SubmissionRecords.scan(try folder(fx))
        XCTAssertEqual(scan.skipped.count, 0)
        let r = try XCTUnwrap(scan.records.first)
        XCTAssertEqual(r.marketPath, "Magazines/Granta")
        XCTAssertEqual(r.sent.description, "2026-11-20")
        XCTAssertEqual(r.pieces.map(\.path), ["Draft/Spring.md"])
        XCTAssertEqual(r.pieces.first?.status, .pending)
    }

    /// Links, pipes, huge files, forged records and pieces outside the
    /// project are skipped with their reason, never followed, never removed.
    func testHostileRecordsAreSkippedWithTheirReasonAndLeftAlone() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/submissions/1-good.json = \(record(id: "1-good"))
            P/.carrel/submissions/2-notjson.json = {{{
            P/.carrel/submissions/3-forged.json = \(record(id: "someone-else"))
            P/.carrel/submissions/4-up.json = \(record(id: "4-up").replacingOccurrences(of: "Draft/Spring.md", with: "../../etc/passwd"))
            P/.carrel/submissions/5-abs.json = \(record(id: "5-abs").replacingOccurrences(of: "Draft/Spring.md", with: "/etc/passwd"))
            P/.carrel/submissions/6-nosent.json = \(record(id: "6-nosent").replacingOccurrences(of: "2026-11-20", with: "2026-02-30"))
            P/.carrel/submissions/7-market.json = \(record(id: "7-market").replacingOccurrences(of: "Magazines/Granta", with: "../Other/Granta"))
            P/.carrel/submissions/8-copy.json = \(record(id: "8-copy").replacingOccurrences(of: #""path":"Draft/Spring.md""#, with: #""path":"Draft/Spring.md","copy":"8-copy/../../../x""#))
            P/.carrel/submissions/12-snapshot.json = \(record(id: "12-snapshot").replacingOccurrences(of: #""path":"Draft/Spring.md""#, with: #""path":"Draft/Spring.md","snapshot":"../../../x""#))
            outside.json = \(record(id: "9-link"))
            """)
        let dir = fx.path + "/P/.carrel/submissions/"
        XCTAssertEqual(symlink(fx.path + "/outside.json", dir + "9-link.json"), 0)
        XCTAssertEqual(mkfifo(dir + "10-pipe.json", 0o644), 0)
        let huge = String(repeating: " ", count: SubmissionRecords.sizeLimit + 1) + record(id: "11-huge")
        try huge.write(toFile: dir + "11-huge.json", atomically: false, encoding: .utf8)
        let before = fingerprint(fx.path)
        let scan = SubmissionRecords.scan(try folder(fx))
        XCTAssertEqual(scan.records.map(\.id), ["1-good"])
        let why = Dictionary(uniqueKeysWithValues: scan.skipped.map { ($0.name, $0.why) })
        XCTAssertEqual(why["2-notjson.json"], .file(.notJSON))
        XCTAssertEqual(why["3-forged.json"], .notARecord("its id is not its file’s name"))
        XCTAssertEqual(why["4-up.json"], .pieceOutside("../../etc/passwd"))
        XCTAssertEqual(why["5-abs.json"], .pieceOutside("/etc/passwd"))
        XCTAssertEqual(why["6-nosent.json"], .notARecord("no day sent"))
        XCTAssertEqual(why["7-market.json"], .notARecord("no market, or a market outside the project"))
        XCTAssertEqual(why["8-copy.json"], .pieceOutside("8-copy/../../../x"))
        XCTAssertEqual(why["9-link.json"], .file(.notAFile(.link)))
        XCTAssertEqual(why["10-pipe.json"], .file(.notAFile(.pipe)))
        XCTAssertEqual(why["11-huge.json"], .file(.tooLarge(SubmissionRecords.sizeLimit)))
        XCTAssertEqual(why["12-snapshot.json"], .pieceOutside("../../../x"))
        XCTAssertEqual(scan.skipped.count, 11)
        XCTAssertEqual(fingerprint(fx.path), before, "reading changes nothing")
    }

    /// A status change rewrites only its own record, stamped, and keeps
    /// the change in the piece's history.
    func testAStatusChangeIsStampedAndKeptInTheHistory() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/submissions/1-a.json = \(record(id: "1-a"))
            """)
        let dir = try folder(fx)
        let day = try XCTUnwrap(SubmissionDay("2026-12-01"))
        let r = try SubmissionRecords.update("1-a", pieces: ["1"], .init(status: .rejected, day: day), in: dir, now: 50)
        XCTAssertEqual(r.pieces.first?.status, .rejected)
        XCTAssertEqual(r.pieces.first?.statusDay, day)
        XCTAssertEqual(r.pieces.first?.history.map(\.status), [.rejected])
        XCTAssertEqual(fx.listing("P/.carrel/submissions", includeHidden: true), ["1-a.json"], "no temporary left")
    }

    /// Two machines changed one record at once and Syncthing kept both: the
    /// next change merges them, each field taking its latest change, both
    /// histories kept, and the copy goes once the merge is written.
    func testTwoMachinesChangesMergeTheLaterWinsAndNothingIsLost() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/submissions/1-a.json = \(record(id: "1-a"))
            """)
        let dir = try folder(fx)
        let path = fx.path + "/P/.carrel/submissions/"
        let shortlisted = try XCTUnwrap(SubmissionDay("2026-12-01"))
        let accepted = try XCTUnwrap(SubmissionDay("2026-12-05"))
        // This machine: shortlisted at 100. The other: accepted at 200, with a note.
        let original = try String(contentsOfFile: path + "1-a.json", encoding: .utf8)
        _ = try SubmissionRecords.update(
            "1-a", pieces: ["1"], .init(status: .accepted, day: accepted, note: "yes!"), in: dir, now: 200)
        let theirs = try String(contentsOfFile: path + "1-a.json", encoding: .utf8)
        try FileManager.default.removeItem(atPath: path + "1-a.json")
        try original.write(toFile: path + "1-a.json", atomically: false, encoding: .utf8)
        _ = try SubmissionRecords.update(
            "1-a", pieces: ["1"], .init(status: .shortlisted, day: shortlisted), in: dir, now: 100)
        try theirs.write(
            toFile: path + "1-a.sync-conflict-20261205-101500-ABCDEFG.json", atomically: false, encoding: .utf8)

        let merged = try XCTUnwrap(SubmissionRecords.scan(dir).records.first)
        XCTAssertEqual(merged.pieces.first?.status, .accepted, "the later change wins, on this machine too")
        XCTAssertEqual(merged.pieces.first?.note, "yes!")
        XCTAssertEqual(merged.pieces.first?.history.map(\.status), [.shortlisted, .accepted], "both changes kept")

        let noted = try XCTUnwrap(SubmissionDay("2026-12-06"))
        let after = try SubmissionRecords.update(
            "1-a", pieces: ["1"], .init(status: .accepted, day: noted, note: "contract"), in: dir, now: 300)
        XCTAssertEqual(after.pieces.first?.history.map(\.status), [.shortlisted, .accepted, .accepted])
        XCTAssertEqual(after.pieces.first?.note, "contract")
        XCTAssertEqual(
            fx.listing("P/.carrel/submissions", includeHidden: true), ["1-a.json"], "the copy is merged in, then goes")
    }

    /// git's conflict markers read as both sides, merged by the same rule.
    func testGitConflictMarkersMergeLikeACopy() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            """)
        let ours = record(id: "1-a")
        let theirs = ours.replacingOccurrences(
            of: #""status":{"changed":1,"value":{"status":"pending""#,
            with: #""status":{"changed":9,"value":{"status":"rejected""#)
        let dir = try folder(fx)
        try "<<<<<<< HEAD\n\(ours)\n=======\n\(theirs)\n>>>>>>> other\n".write(
            toFile: fx.path + "/P/.carrel/submissions/1-a.json", atomically: false, encoding: .utf8)
        let r = try XCTUnwrap(SubmissionRecords.scan(dir).records.first)
        XCTAssertEqual(r.pieces.first?.status, .rejected)
    }

    /// A record is never written over an existing file.
    func testANewRecordNeverReplacesAFile() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/submissions/1-a.json = mine
            """)
        let new = SubmissionRecords.NewRecord(
            id: "1-a", marketPath: "Magazines/G", marketName: "G", marketID: nil,
            sent: SubmissionDay("2026-01-01")!, pieces: [("Draft/a.md", nil, nil)])
        XCTAssertThrowsError(try SubmissionRecords.create(new, in: try folder(fx)))
        XCTAssertEqual(fx.read("P/.carrel/submissions/1-a.json"), "mine")
    }
}
