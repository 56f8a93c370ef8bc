import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// One submission's status changed on two machines while they were apart,
/// synced by two real Syncthing instances: the later change wins on both,
/// both changes stay in the piece's history, and the conflict copy Syncthing
/// kept goes once a change writes the merge. Skipped when syncthing is
/// missing, except on CI.
final class SubmissionsSyncthingTests: XCTestCase {
    let onA = try! CLIRunner()
    let onB = try! CLIRunner()

    func twoMachines() throws -> Syncthing {
        guard Syncthing.binary != nil else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw XCTSkip("CI without syncthing") }
            throw XCTSkip("syncthing is not installed: apt-get install syncthing")
        }
        return try Syncthing(
            tree: """
                P/.carrel/project.json = {"type":"poetry"}
                P/Draft/Spring.md = sea sea
                P/Magazines/Granta/
                """)
    }

    @discardableResult
    func carrel(_ machine: Syncthing.Machine, _ args: [String], file: StaticString = #filePath, line: UInt = #line)
        -> CLIRunner.Result
    {
        let runner = machine.name == "A" ? onA : onB
        let r = runner.run(args + ["--library", machine.folder], in: machine.folder)
        XCTAssertEqual(
            r.status, 0, "\(machine.name): carrel \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    func conflictCopies(_ machine: Syncthing.Machine) -> [String] {
        let all = FileManager.default.enumerator(atPath: machine.folder)?.allObjects as? [String] ?? []
        return all.filter { $0.contains(".sync-conflict-") }.sorted()
    }

    func listed(_ machine: Syncthing.Machine) throws -> JSONValue {
        try JSONParser.parse(Array(carrel(machine, ["submissions", "--json"]).stdout.utf8))
    }

    func testConcurrentStatusChangesMergeTheLaterWinsOnBothMachines() throws {
        let st = try twoMachines()
        let id = carrel(st.a, ["submit", "P/Draft/Spring.md", "--to", "P/Magazines/Granta", "--date", "2026-11-20"])
            .stdout.trimmingCharacters(in: .newlines)
        try st.waitUntilInSync(timeout: 30)
        try st.pause()
        carrel(st.a, ["submission-status", id, "shortlisted", "--note", "from A"])
        // B's change comes later by the clock both machines share here.
        usleep(20_000)
        carrel(st.b, ["submission-status", id, "accepted", "--fee", "£25"])
        try st.resume()
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(
            conflictCopies(st.a).filter { $0.hasPrefix("P/.carrel/submissions/") }.count, 1,
            "Syncthing kept both versions of the record")
        for machine in [st.a, st.b] {
            let piece = try listed(machine)[0]?["pieces"]?[0]
            XCTAssertEqual(piece?["status"], "accepted", "\(machine.name): the later change wins")
            XCTAssertEqual(piece?["note"], "from A", "\(machine.name): a field only one side changed is kept")
            XCTAssertEqual(try listed(machine)[0]?["fee"], "£25", machine.name)
            XCTAssertEqual(
                piece?["history"]?.arrayValue?.map { $0["status"]?.stringValue },
                ["pending", "shortlisted", "accepted"],
                "\(machine.name): both changes are in the history")
        }
        // The next change writes the merge; the copy goes, on both machines.
        carrel(st.a, ["submission-status", id, "accepted", "--note", "contract sent"])
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(conflictCopies(st.a), [])
        XCTAssertEqual(conflictCopies(st.b), [])
        let record = "/P/.carrel/submissions/\(id).json"
        XCTAssertEqual(
            try String(contentsOfFile: st.a.folder + record, encoding: .utf8),
            try String(contentsOfFile: st.b.folder + record, encoding: .utf8), "one record on both machines")
        XCTAssertEqual(try listed(st.b)[0]?["pieces"]?[0]?["note"], "contract sent")
    }
}
