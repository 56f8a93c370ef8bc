import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Two machines sharing one library through real git: clone A and clone B
/// of a bare repository each run a Carrel command with the real `carrel`
/// CLI, commit, and sync (A pushes, B pulls and merges, B pushes, A pulls).
/// Afterwards no Carrel file is in conflict, both clones show the same
/// binder, and every Trash item restores to where it came from on both.
/// Conflicts in the writer's own files (a rename/rename) are git's to
/// report; only Carrel's files must merge.
final class GitSyncTests: XCTestCase {
    var root: Fixture!
    var cli: CLIRunner!

    override func tearDown() {
        root = nil
        cli = nil
    }

    // The same folder name on both, as the library's name shows in the binder.
    var a: String { root.path + "/a/library" }
    var b: String { root.path + "/b/library" }

    @discardableResult
    func git(_ args: String, in dir: String, mayFail: Bool = false) -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "git -c user.name=t -c user.email=t@t -c init.defaultBranch=main \(args) 2>&1"]
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": root.path]
        let out = Pipe()
        p.standardOutput = out
        try? p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if !mayFail { XCTAssertEqual(p.terminationStatus, 0, "git \(args) in \(dir): \(text)") }
        return (p.terminationStatus, text)
    }

    func carrel(_ args: [String], in library: String) {
        let r = cli.run(args + ["--library", library], in: library)
        XCTAssertEqual(r.status, 0, "carrel \(args.joined(separator: " ")) in \(library): \(r.stderr)")
    }

    /// A library with projects P and Q (Poetry) holding Draft/p1…p3.md,
    /// `prepare` run on it, committed to a bare repository and cloned twice.
    func setUpClones(prepare: [[String]] = []) throws {
        root = try Fixture("origin/\nseed/\na/\nb/\n")
        cli = try CLIRunner()
        let seed = root.path + "/seed"
        for project in ["P", "Q"] {
            carrel(["init", seed + "/" + project, "--type", "Poetry"], in: seed)
            for i in 1...3 {
                try "poem \(i) of \(project)\n".write(
                    toFile: "\(seed)/\(project)/Draft/p\(i).md", atomically: false, encoding: .utf8)
            }
        }
        for args in prepare { carrel(args.map { $0.replacingOccurrences(of: "SEED", with: seed) }, in: seed) }
        git("init --bare -q", in: root.path + "/origin")
        git("init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm seed", in: seed)
        git("push -q ../origin HEAD:main", in: seed)
        git("clone -q origin a/library && git clone -q origin b/library", in: root.path)
    }

    /// A's commands and B's, each committed, then synced both ways.
    /// Returns the files git left in conflict.
    @discardableResult
    func sync(a aCommands: [[String]], b bCommands: [[String]]) -> [String] {
        for (clone, commands, label) in [(a, aCommands, "A"), (b, bCommands, "B")] {
            for args in commands { carrel(args.map { $0.replacingOccurrences(of: "LIB", with: clone) }, in: clone) }
            git("add -A && git -c user.name=t -c user.email=t@t commit -qm \(label)", in: clone)
        }
        git("push -q origin HEAD:main", in: a)
        git("pull -q --no-rebase --no-edit origin main", in: b, mayFail: true)
        let conflicted = git("diff --name-only --diff-filter=U", in: b).output.split(separator: "\n").map(String.init)
        XCTAssertEqual(conflicted.filter { $0.contains(".carrel") }, [], "no Carrel file is in conflict")
        if !conflicted.isEmpty {
            // The writer's conflict, resolved as git left the files.
            git("add -A && git -c user.name=t -c user.email=t@t commit -qm merge", in: b)
        }
        git("push -q origin HEAD:main", in: b)
        git("pull -q --no-rebase --no-edit origin main", in: a)
        for clone in [a, b] {
            for file in Self.carrelFiles(clone) {
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                XCTAssertFalse(text.contains("<<<<<<<"), "\(file) holds conflict markers")
            }
        }
        return conflicted
    }

    static func carrelFiles(_ clone: String) -> [String] {
        let e = FileManager.default.enumerator(atPath: clone)
        var out: [String] = []
        while let rel = e?.nextObject() as? String {
            if rel.contains(".carrel/") && !rel.hasPrefix(".git") { out.append(clone + "/" + rel) }
        }
        return out
    }

    /// `carrel tree --json`, without what differs by clone: the library's
    /// path in URIs, and times (each checkout writes files anew).
    func tree(_ clone: String) -> JSONValue? {
        let r = cli.run(["tree", "--json", "--library", clone], in: clone)
        XCTAssertEqual(r.status, 0, r.stderr)
        guard let json = try? JSONParser.parse(Array(r.stdout.utf8)) else { return nil }
        func normal(_ v: JSONValue) -> JSONValue {
            switch v {
            case .object(let o):
                var out: [String: JSONValue] = [:]
                for (k, v) in o where k != "created" && k != "modified" { out[k] = normal(v) }
                return .object(out)
            case .array(let items): return .array(items.map(normal))
            case .string(let s): return .string(s.replacingOccurrences(of: clone, with: "LIB"))
            default: return v
            }
        }
        return normal(json)
    }

    /// The binders match, then every Trash item of both projects restores
    /// to where its record says, on each clone.
    func assertSameBinderAndEveryTrashItemRestores(file: StaticString = #filePath, line: UInt = #line) {
        let treeA = tree(a)
        XCTAssertNotNil(treeA, file: file, line: line)
        let treeB = tree(b)
        XCTAssertTrue(treeA == treeB, "both clones show the same binder", file: file, line: line)
        if treeA != treeB { print("A: \(treeA?.text() ?? "")\nB: \(treeB?.text() ?? "")") }
        for clone in [a, b] {
            for project in ["P", "Q"] {
                let items = (try? FileManager.default.contentsOfDirectory(atPath: "\(clone)/\(project)/Trash")) ?? []
                let records = Fixture.trashRecords(atProject: clone + "/" + project)
                XCTAssertEqual(
                    Set(records.keys), Set(items), "\(clone) \(project): one record per item", file: file, line: line)
                for (name, origin) in records.sorted(by: { $0.key < $1.key }) {
                    let before = try? String(contentsOfFile: "\(clone)/\(project)/Trash/\(name)", encoding: .utf8)
                    carrel(["restore", "\(clone)/\(project)/Trash/\(name)"], in: clone)
                    let at = "\(clone)/\(project)/\(origin)"
                    let stem = (origin as NSString).deletingPathExtension
                    let restored = [at, "\(clone)/\(project)/\(stem) 2.md"].first {
                        (try? String(contentsOfFile: $0, encoding: .utf8)) == before
                    }
                    XCTAssertNotNil(
                        restored, "\(clone): \(project)/Trash/\(name) restored to \(origin)", file: file, line: line)
                }
            }
        }
    }

    // MARK: The pairs

    /// Fails before one record per item: both sides rewrote project.json's "trash".
    func testDeleteAndDeleteOfDifferentFiles() throws {
        try setUpClones()
        sync(a: [["rm", "LIB/P/Draft/p1.md", "--yes"]], b: [["rm", "LIB/P/Draft/p2.md", "--yes"]])
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// Fails before: one side added a record, the other dropped one, in one object.
    func testDeleteAndRestore() throws {
        try setUpClonesWithItemInTrash()
        sync(a: [["rm", "LIB/P/Draft/p1.md", "--yes"]], b: [["restore", "LIB/P/Trash/p3.md"]])
        XCTAssertEqual(try String(contentsOfFile: a + "/P/Draft/p3.md", encoding: .utf8), "poem 3 of P\n")
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// The writer's file is git's conflict (both names stay); Carrel's
    /// files are untouched by a rename outside the Trash.
    func testRenameAndRenameOfTheSameFile() throws {
        try setUpClones()
        let conflicted = sync(
            a: [["rename", "LIB/P/Draft/p1.md", "a1.md"]], b: [["rename", "LIB/P/Draft/p1.md", "b1.md"]])
        XCTAssertFalse(conflicted.isEmpty, "git reports the writer's rename/rename")
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// Renamed in Trash on both sides: each wrote a record under its new
    /// name and removed the old one. Fails before: both changed one record.
    func testRenameAndRenameOfTheSameTrashItem() throws {
        try setUpClonesWithItemInTrash()
        sync(a: [["rename", "LIB/P/Trash/p3.md", "x.md"]], b: [["rename", "LIB/P/Trash/p3.md", "y.md"]])
        assertSameBinderAndEveryTrashItemRestores()
    }

    func testMoveAndEdit() throws {
        try setUpClones()
        carrel(["mv", a + "/P/Draft/p1.md", a + "/P/Ready"], in: a)
        try "edited on B\n".write(toFile: b + "/P/Draft/p1.md", atomically: false, encoding: .utf8)
        sync(a: [], b: [])
        XCTAssertEqual(try String(contentsOfFile: a + "/P/Ready/p1.md", encoding: .utf8), "edited on B\n")
        assertSameBinderAndEveryTrashItemRestores()
    }

    func testNewFolderOfTheSameName() throws {
        try setUpClones()
        sync(
            a: [["new-folder", "LIB/P/Draft", "Chapter"], ["new-file", "LIB/P/Draft/Chapter", "from A"]],
            b: [["new-folder", "LIB/P/Draft", "Chapter"], ["new-file", "LIB/P/Draft/Chapter", "from B"]])
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// Each machine sorts a project of its own: two files, no conflict.
    func testSortChangeAndSortChange() throws {
        try setUpClones()
        // By name: an order by time would differ by clone, each checkout
        // writing its files anew.
        sync(a: [["sort", "LIB/P", "name", "--descending"]], b: [["sort", "LIB/Q", "name", "--descending"]])
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// Two settings of one project: different lines of project.json.
    /// Fails before: the deletes each side made in between rewrote "trash".
    func testSortChangeAndConfirmDeleteChange() throws {
        try setUpClones()
        sync(
            a: [["sort", "LIB/P", "name", "--descending"], ["rm", "LIB/P/Draft/p1.md", "--yes"]],
            b: [["ask-before-deleting", "LIB/P", "no"], ["rm", "LIB/P/Draft/p2.md", "--yes"]])
        let text = try String(contentsOfFile: a + "/P/.carrel/project.json", encoding: .utf8)
        XCTAssertTrue(text.contains("\"descending\": true"), text)
        XCTAssertTrue(text.contains("\"confirmDelete\": false"), text)
        assertSameBinderAndEveryTrashItemRestores()
    }

    // MARK: Binder order

    /// The names `carrel tree` shows in a folder, in order.
    func order(_ clone: String, _ folder: String) -> [String] {
        let r = cli.run(["tree", clone + "/" + folder, "--json", "--depth", "1", "--library", clone], in: clone)
        guard let json = try? JSONParser.parse(Array(r.stdout.utf8)) else { return [] }
        let node = json.arrayValue?.first ?? json
        return node["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    /// Different folders: different order files, nothing to merge.
    func testReorderAndReorderOfDifferentFolders() throws {
        try setUpClones()
        sync(
            a: [["reorder", "LIB/P/Draft/p3.md", "--before", "p1.md"]],
            b: [["reorder", "LIB/Q/Draft/p1.md", "--after", "p3.md"]])
        for clone in [a, b] {
            XCTAssertEqual(order(clone, "P/Draft"), ["p3.md", "p1.md", "p2.md"], clone)
            XCTAssertEqual(order(clone, "Q/Draft"), ["p2.md", "p3.md", "p1.md"], clone)
        }
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// One folder reordered on both: git's union merge keeps both sides'
    /// lines and each name its first place. Fails without the
    /// `.gitattributes` line: an add/add conflict with markers.
    func testReorderAndReorderOfTheSameFolder() throws {
        try setUpClones()
        let conflicted = sync(
            a: [["reorder", "LIB/P/Draft/p3.md", "--before", "p1.md"]],
            b: [["reorder", "LIB/P/Draft/p1.md", "--after", "p2.md"]])
        XCTAssertEqual(conflicted, [])
        XCTAssertEqual(
            try String(contentsOfFile: a + "/.gitattributes", encoding: .utf8), ".carrel-order merge=union\n")
        for clone in [a, b] { XCTAssertEqual(order(clone, "P/Draft"), ["p2.md", "p1.md", "p3.md"], clone) }
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// A rename through Carrel writes the new name in the old one's place;
    /// merged with the other side's reorder, it keeps that place.
    func testReorderAndRename() throws {
        try setUpClones(prepare: [["reorder", "SEED/P/Draft/p1.md", "--before", "p2.md"]])
        let conflicted = sync(
            a: [["reorder", "LIB/P/Draft/p3.md", "--before", "p1.md"]],
            b: [["rename", "LIB/P/Draft/p1.md", "First"]])
        XCTAssertEqual(conflicted, [])
        for clone in [a, b] { XCTAssertEqual(order(clone, "P/Draft"), ["First.md", "p3.md", "p2.md"], clone) }
        assertSameBinderAndEveryTrashItemRestores()
    }

    /// A deleted item's name stays listed, skipped; restored, it is back in its place.
    func testReorderAndDelete() throws {
        try setUpClones()
        let conflicted = sync(
            a: [["reorder", "LIB/P/Draft/p3.md", "--before", "p1.md"]], b: [["rm", "LIB/P/Draft/p1.md", "--yes"]])
        XCTAssertEqual(conflicted, [])
        for clone in [a, b] { XCTAssertEqual(order(clone, "P/Draft"), ["p3.md", "p2.md"], clone) }
        let treeA = tree(a)
        XCTAssertTrue(treeA == tree(b), "both clones show the same binder")
        carrel(["restore", a + "/P/Trash/p1.md"], in: a)
        XCTAssertEqual(order(a, "P/Draft"), ["p3.md", "p1.md", "p2.md"])
    }

    func setUpClonesWithItemInTrash() throws {
        try setUpClones(prepare: [["rm", "SEED/P/Draft/p3.md", "--yes"]])
    }
}
