import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Everything Carrel keeps on disk travels with a cloned or synced library,
/// so each of those names is replaced here by what an attacker (or a sync
/// tool) could put there, and the real `carrel lsp` opens the library,
/// shows it, deletes, restores and empties the Trash. Every case asserts
/// that a folder outside the workspace, and one inside it that a link
/// points at, are unchanged; that the server answers `carrel/tree` within
/// 1 s after each step; and that every refusal names what is wrong.
/// Tests/Robustness/REPORT.md ("Untrusted disk") has the figures.
final class UntrustedDiskTests: XCTestCase {
    /// Where a kept name lives below the project, and whether it is a folder.
    struct Kept: Sendable {
        let path: String
        let isFolder: Bool
        /// Named in every refusal that concerns it.
        var name: String { String(path.split(separator: "/").last!) }
    }

    enum Form: String, CaseIterable, Sendable {
        case linkInside, linkOutside, danglingLink, fifo, wrongType, emptyFile, hugeFile, noPermission
    }

    /// What each step does: "o" succeeds, "r" is refused naming the kept
    /// name, "?" either (the step does not depend on it).
    struct Row {
        let type: String
        let kept: Kept
        let form: Form
        let expect: String
    }

    static let carrelItems: [(Kept, @Sendable (Form) -> String)] = [
        (Kept(path: ".carrel", isFolder: true), { _ in "rrr" }),
        (Kept(path: ".carrel/project.json", isFolder: false), { _ in "rrr" }),
        // Trash records cannot be written into anything but a real folder:
        // a delete is refused. Restoring and emptying need no record.
        (Kept(path: ".carrel/trash", isFolder: true), { _ in "roo" }),
        // A record that is not a plain file holding a record is skipped:
        // its item restores to the project's root.
        (Kept(path: ".carrel/trash/1-t.json", isFolder: false), { _ in "ooo" }),
        (Kept(path: ".carrel/purge", isFolder: true), { _ in "oor" }),
        // Submission records are read for every row of a poetry project:
        // a folder or a record that is not what Carrel keeps there is
        // never followed, and changes nothing the Trash does.
        (Kept(path: ".carrel/submissions", isFolder: true), { _ in "ooo" }),
        (Kept(path: ".carrel/submissions/1-s.json", isFolder: false), { _ in "ooo" }),
    ]

    /// Each type's permanent folders, as `carrel lsp` makes them
    /// (`testPermanentFoldersTableMatchesTheServer` keeps this true).
    static let permanentFolders: [String: [String]] = [
        "blank": ["Trash"],
        "poetry": [
            "Draft", "Ready", "Set Aside", "Published", "Collections", "Submissions", "Research", "Magazines",
            "Competitions", "Commissions", "Other", "Trash",
        ],
        "shortStory": [
            "Draft", "Ready", "Set Aside", "Published", "Collections", "Submissions", "Research",
            "Magazines", "Competitions", "Commissions", "Other", "Trash",
        ],
        "novel": [
            "Novel", "Chapters", "Scenes", "Characters", "Locations", "Set Aside", "Research", "Competitions",
            "Commissions", "Other", "Trash",
        ],
        "script": [
            "Script", "Acts", "Scenes", "Characters", "Locations", "Set Aside", "Research", "Competitions",
            "Commissions", "Other", "Trash",
        ],
    ]

    static func forms(_ kept: Kept) -> [Form] {
        kept.isFolder ? Form.allCases.filter { $0 != .emptyFile } : Form.allCases
    }

    static var rows: [Row] {
        var rows: [Row] = []
        for (kept, expect) in carrelItems {
            for form in forms(kept) { rows.append(Row(type: "poetry", kept: kept, form: form, expect: expect(form))) }
        }
        for (type, folders) in permanentFolders.sorted(by: { $0.key < $1.key }) {
            for folder in folders {
                let kept = Kept(path: folder, isFolder: true)
                for form in forms(kept) {
                    // A broken Trash refuses all three; any other folder
                    // only what goes into it: the restore of an item from it.
                    rows.append(Row(type: type, kept: kept, form: form, expect: folder == "Trash" ? "rrr" : "oro"))
                }
            }
        }
        return rows
    }

    func testEveryKeptNameInEveryHostileForm() throws {
        guard let launcher = unprivilegedLauncher() else { throw XCTSkip("running as root without setpriv") }
        var passed = 0
        var byClass: [String: (tried: Int, passed: Int)] = [:]
        for row in Self.rows {
            let failuresBefore = testRun?.failureCount ?? 0
            try run(row, launcher: launcher)
            let ok = (testRun?.failureCount ?? 0) == failuresBefore
            if ok { passed += 1 }
            let key = row.kept.path.hasPrefix(".carrel") ? row.kept.path : "permanent folders"
            byClass[key, default: (0, 0)].tried += 1
            if ok { byClass[key, default: (0, 0)].passed += 1 }
        }
        // The figures for Tests/Robustness/REPORT.md.
        for (key, figures) in byClass.sorted(by: { $0.key < $1.key }) {
            print("untrusted disk: \(key): \(figures.passed)/\(figures.tried) cases passed")
        }
        print("untrusted disk: \(passed)/\(Self.rows.count) cases passed")
    }

    func testPermanentFoldersTableMatchesTheServer() throws {
        for (type, folders) in Self.permanentFolders {
            let fx = try Fixture("P/.carrel/project.json = {\"type\":\"\(type)\"}")
            let c = try ProcessClient(environment: ["HOME": fx.path, "XDG_STATE_HOME": fx.path + "/state"])
            _ = try c.initialize([fx.uri("P")])
            let made = fx.listing("P").filter { !$0.contains("/.") && $0.hasSuffix("/") }.map { String($0.dropLast()) }
            XCTAssertEqual(Set(made), Set(folders), type)
        }
    }

    // MARK: One case

    func run(_ row: Row, launcher: [String]) throws {
        let what = "\(row.type) \(row.kept.path) as \(row.form)"
        let outside = try Fixture(
            """
            a.md = outside
            sub/b.md = outside too
            keep.md = outside keep
            project.json = {"type":"poetry"}
            """)
        let folders = Self.permanentFolders[row.type]!
        // The item in Trash comes from the folder under test, so its restore goes there.
        let intoKept = row.kept.isFolder && !row.kept.path.hasPrefix(".") && row.kept.path != "Trash"
        let origin = intoKept ? row.kept.path : "Notes"
        let fx = try Fixture(
            """
            lib/P/.carrel/project.json = {"type":"\(row.type)"}
            lib/P/.carrel/trash/1-t.json = {"name":"t.md","from":"\(origin)/t.md","deleted":1}
            lib/P/.carrel/submissions/
            lib/P/root.md = root
            lib/P/Trash/t.md = t
            lib/P/Trash/u.md = u
            lib/Inside/keep.md = inside
            lib/Inside/project.json = {"type":"poetry"}
            home/
            """)
        for folder in folders where folder != "Trash" { try fx.add("lib/P/\(folder)/") }
        try breakKept(row, in: fx.path + "/lib/P", inside: fx.path + "/lib/Inside", outside: outside.path)
        let insideBefore = fingerprint(fx.path + "/lib/Inside")
        let outsideBefore = fingerprint(outside.path)

        let c = try ProcessClient(
            environment: [
                "HOME": fx.path + "/home", "XDG_DATA_HOME": fx.path + "/home/data",
                "XDG_STATE_HOME": fx.path + "/home/state",
            ], launcher: launcher)
        let folder: JSONValue = ["uri": .string(fx.uri("lib")), "name": "lib"]
        let opened = try? c.request(
            "initialize", ["processId": .null, "capabilities": [:], "workspaceFolders": [folder]],
            timeout: 5)
        guard opened?["result"] != nil else { return XCTFail("\(what): initialize did not answer within 5 s") }
        c.notify("initialized")
        func answersTree(_ step: String) {
            let r = try? c.request("carrel/tree", ["uri": .string(fx.uri("lib/P")), "depth": 1], timeout: 1)
            XCTAssertNotNil(r?["result"], "\(what): carrel/tree within 1 s after \(step)")
        }
        func check(_ step: String, _ expect: Character, _ r: JSONValue?) {
            guard let r else { return XCTFail("\(what): \(step) did not answer") }
            let message = r["error"]?["message"]?.stringValue
            if let message {
                XCTAssertTrue(message.contains(row.kept.name), "\(what): \(step) refusal names it: \(message)")
            }
            if expect == "o" { XCTAssertNil(message, "\(what): \(step) works") }
            if expect == "r" { XCTAssertNotNil(message, "\(what): \(step) is refused") }
        }
        answersTree("open")
        let expect = Array(row.expect)
        let steps: [(String, JSONValue)] = [
            ("delete", ["uri": .string(fx.uri("lib/P/root.md")), "confirmed": true]),
            ("restore", ["uri": .string(fx.uri("lib/P/Trash/t.md"))]),
            ("empty Trash", ["projectUri": .string(fx.uri("lib/P")), "confirmed": true]),
        ]
        let commands = ["carrel.delete", "carrel.restore", "carrel.emptyTrash"]
        for (i, (step, args)) in steps.enumerated() {
            let r = try? c.command(commands[i], args, timeout: 5)
            check(step, expect[i], r)
            // A permanent folder that is not a folder is said to be what it is, not taken for a name clash.
            if step == "restore" && origin == row.kept.path && row.form != .noPermission {
                let message = r?["error"]?["message"]?.stringValue ?? ""
                XCTAssertTrue(
                    message.contains("/P/\(origin) is a") && message.contains("where Carrel keeps a folder"),
                    "\(what): \(message)")
            }
            answersTree(step)
        }
        // Through the name itself, where it is a folder a writer can address.
        if row.kept.isFolder && !row.kept.path.hasPrefix(".") {
            let inner: JSONValue = ["uri": .string(fx.uri("lib/P/\(row.kept.path)/keep.md")), "confirmed": true]
            check("delete inside it", "?", try? c.command("carrel.delete", inner, timeout: 5))
            answersTree("delete inside it")
        }
        XCTAssertEqual(fingerprint(outside.path), outsideBefore, "\(what): nothing outside the workspace changed")
        XCTAssertEqual(fingerprint(fx.path + "/lib/Inside"), insideBefore, "\(what): nothing a link points at changed")
        XCTAssertTrue(c.process.isRunning, "\(what): the server is still running")
        _ = Fixture.sh("chmod -R u+rwX '\(fx.path)' 2>/dev/null")
    }

    /// Replaces the kept name by `row.form`, as the user `nobody` would find it.
    func breakKept(_ row: Row, in project: String, inside: String, outside: String) throws {
        let path = project + "/" + row.kept.path
        _ = Fixture.sh("rm -rf '\(path)'")
        switch row.form {
        case .linkInside: XCTAssertEqual(symlink(row.kept.isFolder ? inside : inside + "/project.json", path), 0)
        case .linkOutside: XCTAssertEqual(symlink(row.kept.isFolder ? outside : outside + "/project.json", path), 0)
        case .danglingLink: XCTAssertEqual(symlink(outside + "/made-by-carrel", path), 0)
        case .fifo: XCTAssertEqual(mkfifo(path, 0o644), 0)
        case .wrongType:
            if row.kept.isFolder {
                XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
            } else {
                XCTAssertEqual(mkdir(path, 0o755), 0)
            }
        case .emptyFile: XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        case .hugeFile:
            let fd = open(path, O_CREAT | O_WRONLY, 0o644)
            XCTAssertEqual(ftruncate(fd, 17 << 20), 0, "a sparse file over 16 MiB")
            close(fd)
        case .noPermission:
            if row.kept.isFolder {
                XCTAssertEqual(mkdir(path, 0o755), 0)
                if row.kept.path == ".carrel" {
                    _ = Fixture.sh("printf '{\"type\":\"poetry\"}' > '\(path)/project.json'")
                }
            } else {
                XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(#"{"type":"poetry"}"#.utf8)))
            }
        }
        let root = URL(fileURLWithPath: project).deletingLastPathComponent().deletingLastPathComponent().path
        if getuid() == 0 {
            XCTAssertEqual(Fixture.sh("chown -R -h 65534:65534 '\(root)' '\(outside)'"), 0)
            chmod(root, 0o755)
            chmod(outside, 0o755)
        }
        if row.form == .noPermission { XCTAssertEqual(chmod(path, 0), 0) }
    }
}

extension LSPTestClient {
    func command(_ name: String, _ args: JSONValue, timeout: TimeInterval) throws -> JSONValue {
        try request("workspace/executeCommand", ["command": .string(name), "arguments": [args]], timeout: timeout)
    }
}
