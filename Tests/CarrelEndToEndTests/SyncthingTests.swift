import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Two machines share a library through real Syncthing instances on
/// 127.0.0.1: a `carrel lsp` on one hears the other's commands, and pairs of
/// operations made while the machines were apart merge into one binder with
/// no conflict copy of Carrel's own files. Skipped when syncthing is
/// missing, except on CI.
final class SyncthingTests: XCTestCase {
    static let project = """
        P/.carrel/project.json = {"type":"poetry"}
        P/Draft/p1.md = first poem
        P/Draft/p2.md = second poem
        P/Ready/
        P/Trash/
        """

    struct SyncthingMissingOnCI: Error, CustomStringConvertible {
        var description: String { "syncthing is not installed, and CI=true: apt-get install syncthing; .ci/run does" }
    }

    func twoMachines(_ tree: String = project) throws -> Syncthing {
        guard Syncthing.binary != nil else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw SyncthingMissingOnCI() }
            throw XCTSkip("syncthing is not installed: apt-get install syncthing")
        }
        return try Syncthing(tree: tree)
    }

    /// Each machine its own HOME and state, as two computers have.
    let onA = try! CLIRunner()
    let onB = try! CLIRunner()

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

    // MARK: - A's changes reach B's server

    /// Every one of A's commands reaches B's server as a `carrel/didChange`.
    /// The latency is printed, with Syncthing's own share (until the file is
    /// on B's disk) apart, and never asserted: speed is measured, not timed.
    func testMachineBsServerReportsEachOfMachineAsChanges() throws {
        let st = try twoMachines()
        let server = try ProcessClient(environment: onB.environment)
        _ = try server.initialize([FileURI.uri(Array(st.b.folder.utf8))])
        // Each round: a new folder, a file in it, renamed, then moved.
        var steps: [(args: [String], expect: String)] = []
        for i in 1...5 {
            steps += [
                (["new-folder", "P/Draft", "Part \(i)"], "P/Draft/Part \(i)"),
                (["new-file", "P/Draft/Part \(i)", "Scene \(i)"], "P/Draft/Part \(i)/Scene \(i).md"),
                (
                    ["rename", "P/Draft/Part \(i)/Scene \(i).md", "Chapter \(i).md"],
                    "P/Draft/Part \(i)/Chapter \(i).md"
                ),
                (["mv", "P/Draft/Part \(i)/Chapter \(i).md", "P/Ready"], "P/Ready/Chapter \(i).md"),
            ]
        }
        var onDisk: [TimeInterval] = []
        var notified: [TimeInterval] = []
        for step in steps {
            carrel(st.a, step.args)
            let returned = Date()
            let path = st.b.folder + "/" + step.expect
            let uri = JSONValue.string(FileURI.uri(Array(path.utf8)))
            var diskAt: Date?
            var notifiedAt: Date?
            let deadline = returned.addingTimeInterval(30)
            while notifiedAt == nil || diskAt == nil, Date() < deadline {
                var st = stat()
                if diskAt == nil, lstat(path, &st) == 0 { diskAt = Date() }
                if notifiedAt == nil,
                    (try? server.inbox.take("", timeout: 0.005) {
                        $0["method"] == "carrel/didChange"
                            && ($0["params"]?["changes"]?.arrayValue ?? []).contains { $0["uri"] == uri }
                    }) != nil
                {
                    notifiedAt = Date()
                    if diskAt == nil, lstat(path, &st) == 0 { diskAt = notifiedAt }
                }
            }
            let what = "carrel \(step.args.joined(separator: " ")) on A"
            guard let diskAt else { return XCTFail("\(what): \(step.expect) never reached B's disk within 30 s") }
            guard let notifiedAt else { return XCTFail("\(what): B's server sent no carrel/didChange within 30 s") }
            onDisk.append(diskAt.timeIntervalSince(returned))
            notified.append(notifiedAt.timeIntervalSince(returned))
        }
        print(
            "Syncthing latency over \(steps.count) changes, from A's command returning: "
                + "B's carrel/didChange median \(ms(percentile(notified, 50))) p99 \(ms(percentile(notified, 99))); "
                + "Syncthing alone (file on B's disk) median \(ms(percentile(onDisk, 50))) "
                + "p99 \(ms(percentile(onDisk, 99)))")
    }

    /// The changes of every `carrel/didChange` B's server sends until one
    /// names `uri` (within 30 s), in the order they came.
    func changes(until uri: String, from server: ProcessClient) throws -> [JSONValue] {
        var seen: [JSONValue] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let message = try server.inbox.take("carrel/didChange naming \(uri)", timeout: 30) {
                $0["method"] == "carrel/didChange"
            }
            seen += message["params"]?["changes"]?.arrayValue ?? []
            if seen.contains(where: { $0["uri"] == .string(uri) }) { return seen }
        }
        return seen
    }

    /// A rename, a move and a delete into the Trash made on A reach B's
    /// client as moves, which an open buffer follows, never as a deletion
    /// and a creation: Syncthing renames the old file to the new name's
    /// temporary, then the temporary to the new name, and B pairs the two.
    func testMachineAsRenamesReachMachineBsClientAsMoves() throws {
        let st = try twoMachines()
        let server = try ProcessClient(environment: onB.environment)
        _ = try server.initialize([FileURI.uri(Array(st.b.folder.utf8))])
        let uri = { (path: String) in FileURI.uri(Array((st.b.folder + "/" + path).utf8)) }
        let steps: [(args: [String], from: String, to: String, inTrash: Bool)] = [
            (["rename", "P/Draft/p1.md", "First"], "P/Draft/p1.md", "P/Draft/First.md", false),
            (["mv", "P/Draft/First.md", "P/Ready"], "P/Draft/First.md", "P/Ready/First.md", false),
            (["rm", "P/Draft/p2.md"], "P/Draft/p2.md", "P/Trash/p2.md", true),
        ]
        for step in steps {
            carrel(st.a, step.args)
            let seen = try changes(until: uri(step.to), from: server)
            let what = "carrel \(step.args.joined(separator: " ")) on A: B's server sent \(seen)"
            let move = seen.first { $0["uri"] == .string(uri(step.to)) }
            XCTAssertEqual(move?["type"], "moved", what)
            XCTAssertEqual(move?["oldUri"], .string(uri(step.from)), what)
            XCTAssertEqual(move?["inTrash"]?.boolValue ?? false, step.inTrash, what)
            XCTAssertFalse(seen.contains { $0["type"] == "deleted" }, what)
        }
    }

    /// A folder renamed on A reaches B's client as a move of each file in
    /// it, which open buffers follow: Syncthing makes the new folder on B,
    /// renames each file into it through its temporary, often before B's
    /// server watches the new folder, then removes the old folder. B pairs
    /// each file's leaving and arriving by its identity (device and inode).
    func testAFolderRenamedOnMachineAReachesMachineBsClientAsMovesOfItsFiles() throws {
        let st = try twoMachines(Self.project + "\nP/Draft/Part/c.md = third poem\nP/Draft/Part/d.md = fourth poem")
        let server = try ProcessClient(environment: onB.environment)
        _ = try server.initialize([FileURI.uri(Array(st.b.folder.utf8))])
        _ = try server.result("carrel/tree", ["depth": 0])  // waits for the first scan: B's model holds the files
        let uri = { (path: String) in FileURI.uri(Array((st.b.folder + "/" + path).utf8)) }
        carrel(st.a, ["rename", "P/Draft/Part", "New"])
        var seen: [JSONValue] = []
        let deadline = Date().addingTimeInterval(30)
        let wanted = ["c.md", "d.md"].map { JSONValue.string(uri("P/Draft/New/" + $0)) }
        // Until both files are named, or the old folder is gone (on its own, a deletion of everything in it).
        let oldFolder = JSONValue.string(uri("P/Draft/Part"))
        while !wanted.allSatisfy({ w in seen.contains { $0["uri"] == w } }),
            !seen.contains(where: { $0["uri"] == oldFolder }),
            Date() < deadline
        {
            let message = try server.inbox.take("carrel/didChange", timeout: 30) { $0["method"] == "carrel/didChange" }
            seen += message["params"]?["changes"]?.arrayValue ?? []
        }
        let what = "B's server sent \(seen)"
        for name in ["c.md", "d.md"] {
            let move = seen.first { $0["uri"] == .string(uri("P/Draft/New/" + name)) }
            XCTAssertEqual(move?["type"], "moved", what)
            XCTAssertEqual(move?["oldUri"], .string(uri("P/Draft/Part/" + name)), what)
        }
        XCTAssertFalse(seen.contains { $0["type"] == "deleted" && $0["uri"] != oldFolder }, what)
    }

    /// While A renames and reorders, B only receives: its server never
    /// writes an order file (Carrel writes one through a temporary named
    /// `.carrel-order.tmp-…`, which B's Draft never sees made), even when
    /// A's rename reaches B before A's order file does.
    func testAMachineThatOnlyReceivesNeverWritesAnOrderFile() throws {
        let st = try twoMachines(Self.manuscript)
        let server = try ProcessClient(environment: onB.environment)
        _ = try server.initialize([FileURI.uri(Array(st.b.folder.utf8))])
        let writes = try CreatedNames(in: st.b.folder + "/P/Draft")
        carrel(st.a, ["reorder", "P/Draft/p3.md", "--before", "p1.md"])
        try st.waitUntilInSync(timeout: 30)
        // One rename at a time: Syncthing pulls the renamed file and the
        // order file in random order, so some renames reach B first.
        var names = ["p1", "p2", "p3"]
        for round in 1...8 {
            let i = round % names.count
            let new = "\(names[i].prefix(2))-\(round)"
            carrel(st.a, ["rename", "P/Draft/\(names[i]).md", new])
            names[i] = new
            try st.waitUntilInSync(timeout: 30)
        }
        carrel(st.a, ["reorder", "P/Draft/\(names[0]).md", "--after", "\(names[2]).md"])
        try st.waitUntilInSync(timeout: 30)
        let last = FileURI.uri(Array((st.b.folder + "/P/Draft/\(names[2]).md").utf8))
        _ = try changes(until: last, from: server)
        XCTAssertEqual(order(st.b, "P/Draft"), order(st.a, "P/Draft"))
        XCTAssertEqual(writes.names.filter { $0.hasPrefix(".carrel-order.tmp") }, [], "B wrote Draft's order file")
        XCTAssertEqual(orderConflictCopies(st.a), [])
        XCTAssertEqual(orderConflictCopies(st.b), [])
    }

    func percentile(_ values: [TimeInterval], _ p: Double) -> TimeInterval {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
    }

    func ms(_ t: TimeInterval) -> String { "\(Int((t * 1000).rounded())) ms" }

    // MARK: - Pairs of operations made apart

    /// Pauses sync, runs `a` on machine A and `b` on machine B, resumes,
    /// waits until they agree, and checks the binder and Carrel's files.
    func apart(_ tree: String = project, a: [[String]], b: [[String]]) throws -> Syncthing {
        let st = try twoMachines(tree)
        try st.pause()
        for args in a { carrel(st.a, args) }
        for args in b { carrel(st.b, args) }
        try st.resume()
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(binder(st.a), binder(st.b), "both machines show the same binder")
        XCTAssertEqual(carrelConflictCopies(st.a), [], "no conflict copy of a Carrel file on A")
        XCTAssertEqual(carrelConflictCopies(st.b), [], "no conflict copy of a Carrel file on B")
        return st
    }

    func testNewFoldersOfDifferentNames() throws {
        let st = try apart(a: [["new-folder", "P/Draft", "North"]], b: [["new-folder", "P/Draft", "South"]])
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Draft"), ["North/", "South/", "p1.md", "p2.md"], machine.name)
        }
    }

    func testNewFoldersOfTheSameName() throws {
        let st = try apart(a: [["new-folder", "P/Draft", "Both"]], b: [["new-folder", "P/Draft", "Both"]])
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Draft"), ["Both/", "p1.md", "p2.md"], machine.name)
        }
    }

    func testRenamesOfDifferentFiles() throws {
        let st = try apart(
            a: [["rename", "P/Draft/p1.md", "one.md"]], b: [["rename", "P/Draft/p2.md", "two.md"]])
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Draft"), ["one.md", "two.md"], machine.name)
            XCTAssertEqual(read(machine, "P/Draft/one.md"), "first poem", machine.name)
            XCTAssertEqual(read(machine, "P/Draft/two.md"), "second poem", machine.name)
        }
    }

    /// A moves a poem while B edits it where it was: Syncthing keeps the edit
    /// where B made it and the move where A made it, so both texts survive.
    func testMoveAndEditOfOneFile() throws {
        let st = try twoMachines()
        try st.pause()
        carrel(st.a, ["mv", "P/Draft/p1.md", "P/Ready"])
        try Data("first poem, revised".utf8).write(to: URL(fileURLWithPath: st.b.folder + "/P/Draft/p1.md"))
        try st.resume()
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(binder(st.a), binder(st.b), "both machines show the same binder")
        for machine in [st.a, st.b] {
            XCTAssertEqual(carrelConflictCopies(machine), [], machine.name)
            let texts = allTexts(machine, "P")
            XCTAssertTrue(texts.contains("first poem, revised"), "\(machine.name) lost B's edit: \(texts)")
            XCTAssertEqual(read(machine, "P/Ready/p1.md"), "first poem", "\(machine.name) lost A's move")
        }
    }

    /// Both machines change the same poem: Syncthing keeps one and puts the
    /// other beside it as a conflict copy, which stays for the writer.
    func testEditsOfOneFileOnBothMachinesKeepBothTexts() throws {
        let st = try twoMachines()
        try st.pause()
        try Data("A's version".utf8).write(to: URL(fileURLWithPath: st.a.folder + "/P/Draft/p1.md"))
        try Data("B's version".utf8).write(to: URL(fileURLWithPath: st.b.folder + "/P/Draft/p1.md"))
        try st.resume()
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(binder(st.a), binder(st.b), "both machines show the same binder")
        for machine in [st.a, st.b] {
            XCTAssertEqual(carrelConflictCopies(machine), [], machine.name)
            let copies = listing(machine, "P/Draft").filter { $0.contains(".sync-conflict-") }
            XCTAssertEqual(copies.count, 1, "\(machine.name): one conflict copy beside p1.md: \(copies)")
            let listed = carrel(machine, ["conflicts"]).stdout
            XCTAssertEqual(
                listed, copies.map { "\(machine.folder)/P/Draft/p1.md\t\(machine.folder)/P/Draft/\($0)\n" }.joined(),
                "\(machine.name): carrel conflicts lists it with its original")
            XCTAssertEqual(
                Set(["A's version", "B's version"]).subtracting(allTexts(machine, "P/Draft")), [],
                "\(machine.name) lost a version")
        }
    }

    /// Each machine deletes a different poem. Both Trash items must come back
    /// to where they came from, on either machine: each delete writes a
    /// record of its own, so the two never touch one file.
    func testDeletesOfDifferentFilesKeepEveryTrashItemRestorable() throws {
        let st = try apart(a: [["rm", "P/Draft/p1.md"]], b: [["rm", "P/Draft/p2.md"]])
        // Each machine restores both on its own, so one's restore is not
        // mistaken for the other's.
        try st.pause()
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Trash"), ["p1.md", "p2.md"], machine.name)
            carrel(machine, ["restore", "P/Trash/p1.md"])
            carrel(machine, ["restore", "P/Trash/p2.md"])
            XCTAssertEqual(listing(machine, "P/Draft"), ["p1.md", "p2.md"], "\(machine.name): restored to Draft")
        }
    }

    /// One machine deletes a poem while the other restores one from the
    /// Trash: a record written on one side, another removed on the other.
    func testDeleteAndRestore() throws {
        let tree =
            Self.project + "\nP/Trash/p3.md = third poem\n"
            + #"P/.carrel/trash/1-0000000000000003.json = {"name":"p3.md","from":"Draft/p3.md","deleted":1}"#
        let st = try apart(tree, a: [["rm", "P/Draft/p1.md"]], b: [["restore", "P/Trash/p3.md"]])
        try st.pause()
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Trash"), ["p1.md"], machine.name)
            XCTAssertEqual(listing(machine, "P/Draft"), ["p2.md", "p3.md"], machine.name)
            carrel(machine, ["restore", "P/Trash/p1.md"])
            XCTAssertEqual(listing(machine, "P/Draft"), ["p1.md", "p2.md", "p3.md"], "\(machine.name): restored")
        }
    }

    /// Both machines rename one Trash item, differently: each wrote a record
    /// under its new name and removed the old one, so both items keep one.
    func testRenamesOfTheSameTrashItem() throws {
        let tree =
            Self.project + "\nP/Trash/p3.md = third poem\n"
            + #"P/.carrel/trash/1-0000000000000003.json = {"name":"p3.md","from":"Draft/p3.md","deleted":1}"#
        let st = try apart(tree, a: [["rename", "P/Trash/p3.md", "x.md"]], b: [["rename", "P/Trash/p3.md", "y.md"]])
        try st.pause()
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Trash"), ["x.md", "y.md"], machine.name)
            carrel(machine, ["restore", "P/Trash/x.md"])
            carrel(machine, ["restore", "P/Trash/y.md"])
            XCTAssertEqual(listing(machine, "P/Draft"), ["p1.md", "p2.md", "p3 2.md", "p3.md"], machine.name)
        }
    }

    /// Both machines delete the same poem: two records for one Trash item,
    /// of which both machines keep the same one.
    func testDeletesOfTheSameFile() throws {
        let st = try apart(a: [["rm", "P/Draft/p1.md"]], b: [["rm", "P/Draft/p1.md"]])
        try settle(st)
        try st.pause()
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Trash"), ["p1.md"], machine.name)
            carrel(machine, ["restore", "P/Trash/p1.md"])
            XCTAssertEqual(listing(machine, "P/Draft"), ["p1.md", "p2.md"], "\(machine.name): restored to Draft")
        }
    }

    /// Both machines rename the same poem, differently: Syncthing keeps
    /// both names, each with the text, and nothing of Carrel's conflicts.
    func testRenamesOfTheSameFile() throws {
        let st = try apart(a: [["rename", "P/Draft/p1.md", "one.md"]], b: [["rename", "P/Draft/p1.md", "uno.md"]])
        for machine in [st.a, st.b] {
            XCTAssertEqual(listing(machine, "P/Draft"), ["one.md", "p2.md", "uno.md"], machine.name)
            XCTAssertEqual(read(machine, "P/Draft/one.md"), "first poem", machine.name)
        }
    }

    /// Both machines change a setting of one project: Syncthing keeps one
    /// project.json and puts the other beside it as a conflict copy, which
    /// the next Carrel to open the project merges (each setting its latest
    /// change) and removes, on both machines alike.
    func testSettingChangesOfOneProjectMerge() throws {
        let st = try twoMachines()
        try st.pause()
        carrel(st.a, ["sort", "P", "name", "--descending"])
        carrel(st.b, ["ask-before-deleting", "P", "no"])
        try st.resume()
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(carrelConflictCopies(st.a).count, 1, "Syncthing kept both versions of project.json")
        XCTAssertTrue(carrel(st.a, ["tree"]).stderr.contains("sync kept both versions"), "said on opening")
        try settle(st)
        for machine in [st.a, st.b] {
            let json = try JSONParser.parse(Array((read(machine, "P/.carrel/project.json") ?? "").utf8))
            XCTAssertEqual(json["sort"]?["descending"]?["value"], true, machine.name)
            XCTAssertEqual(json["preferences"]?["confirmDelete"]?["value"], false, machine.name)
        }
    }

    /// Once more: each machine opens the library after the other's merge
    /// arrived, and sync settles again with nothing of Carrel's in conflict.
    func settle(_ st: Syncthing, file: StaticString = #filePath, line: UInt = #line) throws {
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(binder(st.a), binder(st.b), "both machines show the same binder", file: file, line: line)
        try st.waitUntilInSync(timeout: 30)
        XCTAssertEqual(carrelConflictCopies(st.a), [], file: file, line: line)
        XCTAssertEqual(carrelConflictCopies(st.b), [], file: file, line: line)
        XCTAssertEqual(binder(st.a), binder(st.b), "both machines show the same binder", file: file, line: line)
    }

    // MARK: - Binder order

    /// A project as Carrel makes it: Draft (and here Ready) in binder order.
    static let manuscript = """
        P/.carrel/project.json = {"type":"poetry","folderSorts":{"Draft":{"by":"manual"},"Ready":{"by":"manual"}}}
        P/Draft/p1.md = first poem
        P/Draft/p2.md = second poem
        P/Draft/p3.md = third poem
        P/Ready/r1.md = one
        P/Ready/r2.md = two
        P/Trash/
        """

    /// The names `carrel tree` shows in a folder, in order.
    func order(_ machine: Syncthing.Machine, _ folder: String) -> [String] {
        let r = carrel(machine, ["tree", folder, "--json", "--depth", "1"])
        guard let json = try? JSONParser.parse(Array(r.stdout.utf8)) else { return [] }
        let node = json.arrayValue?.first ?? json
        return node["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    /// Conflict copies of order files anywhere in the library.
    func orderConflictCopies(_ machine: Syncthing.Machine) -> [String] {
        let all = FileManager.default.enumerator(atPath: machine.folder)?.allObjects as? [String] ?? []
        return all.filter { $0.contains("sync-conflict") && $0.contains("carrel-order") }.sorted()
    }

    func testReordersOfDifferentFolders() throws {
        let st = try apart(
            Self.manuscript, a: [["reorder", "P/Draft/p3.md", "--before", "p1.md"]],
            b: [["reorder", "P/Ready/r2.md", "--before", "r1.md"]])
        for machine in [st.a, st.b] {
            XCTAssertEqual(orderConflictCopies(machine), [], machine.name)
            XCTAssertEqual(order(machine, "P/Draft"), ["p3.md", "p1.md", "p2.md"], machine.name)
            XCTAssertEqual(order(machine, "P/Ready"), ["r2.md", "r1.md"], machine.name)
        }
    }

    /// One folder reordered on both: Syncthing keeps one order file and a
    /// conflict copy of the other; opening the library merges the copy in
    /// and removes it, to the same order on both machines.
    func testReordersOfTheSameFolder() throws {
        let st = try apart(
            Self.manuscript, a: [["reorder", "P/Draft/p3.md", "--before", "p1.md"]],
            b: [["reorder", "P/Draft/p1.md", "--after", "p2.md"]])
        let first = order(st.a, "P/Draft")
        XCTAssertEqual(Set(first), ["p1.md", "p2.md", "p3.md"])
        try st.waitUntilInSync(timeout: 30)
        for machine in [st.a, st.b] {
            XCTAssertEqual(order(machine, "P/Draft"), first, machine.name)
        }
        try st.waitUntilInSync(timeout: 30)
        for machine in [st.a, st.b] {
            XCTAssertEqual(
                orderConflictCopies(machine), [], "\(machine.name): the conflict copy was merged and removed")
            XCTAssertEqual(carrelConflictCopies(machine), [], machine.name)
        }
        XCTAssertEqual(binder(st.a), binder(st.b))
    }

    /// A rename on one machine, a reorder of its folder on the other.
    func testReorderAndRename() throws {
        let st = try apart(
            Self.manuscript, a: [["reorder", "P/Draft/p3.md", "--before", "p1.md"]],
            b: [["rename", "P/Draft/p1.md", "First"]])
        for machine in [st.a, st.b] {
            XCTAssertEqual(orderConflictCopies(machine), [], machine.name)
            XCTAssertEqual(order(machine, "P/Draft"), ["p3.md", "p2.md", "First.md"], machine.name)
        }
    }

    /// A delete on one machine, a reorder of its folder on the other; the
    /// item restored comes back to its place.
    func testReorderAndDelete() throws {
        let st = try apart(
            Self.manuscript, a: [["reorder", "P/Draft/p3.md", "--before", "p1.md"]], b: [["rm", "P/Draft/p1.md"]])
        for machine in [st.a, st.b] {
            XCTAssertEqual(orderConflictCopies(machine), [], machine.name)
            XCTAssertEqual(order(machine, "P/Draft"), ["p3.md", "p2.md"], machine.name)
        }
        try st.pause()
        carrel(st.a, ["restore", "P/Trash/p1.md"])
        XCTAssertEqual(order(st.a, "P/Draft"), ["p3.md", "p1.md", "p2.md"])
    }

    // MARK: - Looking at a machine

    /// `carrel tree --json` of the whole library, with what differs between
    /// two computers for the same files taken out: the library's own path,
    /// and the times each disk keeps for itself (creation, a folder's
    /// modification), which Syncthing does not carry.
    func binder(_ machine: Syncthing.Machine) -> String {
        let r = carrel(machine, ["tree", "--json"])
        let uri = FileURI.uri(Array(machine.folder.utf8))
        let text = r.stdout.replacingOccurrences(of: uri, with: "file:///LIBRARY")
            .replacingOccurrences(of: machine.folder, with: "/LIBRARY")
        guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return text }
        func strip(_ value: Any) -> Any {
            if let list = value as? [Any] { return list.map(strip) }
            guard var node = value as? [String: Any] else { return value }
            node["created"] = nil
            node["modified"] = nil
            return node.mapValues(strip)
        }
        let data = try? JSONSerialization.data(withJSONObject: strip(json), options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    /// Syncthing's conflict copies of anything under a `.carrel/` folder.
    func carrelConflictCopies(_ machine: Syncthing.Machine) -> [String] {
        let all = FileManager.default.enumerator(atPath: machine.folder)?.allObjects as? [String] ?? []
        return all.filter { $0.contains(".sync-conflict-") && $0.split(separator: "/").contains(".carrel") }.sorted()
    }

    func listing(_ machine: Syncthing.Machine, _ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: machine.folder + "/" + folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.map { name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: machine.folder + "/" + folder + "/" + name, isDirectory: &isFolder)
            return isFolder.boolValue ? name + "/" : name
        }.sorted()
    }

    func read(_ machine: Syncthing.Machine, _ path: String) -> String? {
        try? String(contentsOfFile: machine.folder + "/" + path, encoding: .utf8)
    }

    /// The text of every file below `folder`.
    func allTexts(_ machine: Syncthing.Machine, _ folder: String) -> Set<String> {
        let base = machine.folder + "/" + folder
        let all = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []
        return Set(all.compactMap { try? String(contentsOfFile: base + "/" + $0, encoding: .utf8) })
    }
}

/// The names made in one folder (created or renamed into it) from now on,
/// read through inotify of its own: what a program did there, seen without
/// asking it.
final class CreatedNames {
    private let fd: Int32

    init(in folder: String) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            throw NoWatch(folder: folder, errno: errno)
        }
    }

    struct NoWatch: Error {
        let folder: String
        let errno: Int32
    }

    deinit { close(fd) }

    private var seen: [String] = []

    /// Every name made so far.
    var names: [String] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            var at = 0
            while at + MemoryLayout<inotify_event>.size <= n {
                let length = buffer.withUnsafeBytes {
                    Int($0.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
                }
                let start = at + MemoryLayout<inotify_event>.size
                let name = buffer[start..<min(n, start + length)].prefix { $0 != 0 }
                seen.append(String(decoding: name, as: UTF8.self))
                at = start + length
            }
        }
        return seen
    }
}
