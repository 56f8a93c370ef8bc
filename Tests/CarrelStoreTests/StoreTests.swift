import CCarrelSys
import CarrelJSON
import CarrelModel
import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

final class DirectoryTests: XCTestCase {
    func testMoveNeverReplacesFilesOrFolders() throws {
        let fx = try Fixture(
            """
            a.md = mine
            b.md = theirs
            A/x.md = 1
            B/
            """)
        let d = try Directory.open(fx.bytes())
        XCTAssertThrowsError(try d.move(Array("a.md".utf8), to: d, as: Array("b.md".utf8))) {
            XCTAssertEqual(($0 as? SysError)?.code, EEXIST)
        }
        XCTAssertThrowsError(try d.move(Array("A".utf8), to: d, as: Array("B".utf8))) {
            XCTAssertEqual(($0 as? SysError)?.code, EEXIST)
        }
        XCTAssertEqual(fx.read("a.md"), "mine")
        XCTAssertEqual(fx.read("b.md"), "theirs")
        XCTAssertEqual(fx.read("A/x.md"), "1")
    }

    func testTargetAppearingAfterTheCheckIsStillNotClobbered() throws {
        let fx = try Fixture("a.md = mine")
        let d = try Directory.open(fx.bytes())
        XCTAssertFalse(d.exists(Array("b.md".utf8)))  // the check passes…
        try "theirs".write(toFile: fx.path + "/b.md", atomically: false, encoding: .utf8)  // …then someone writes
        XCTAssertThrowsError(try d.move(Array("a.md".utf8), to: d, as: Array("b.md".utf8)))
        XCTAssertEqual(fx.read("b.md"), "theirs")
        XCTAssertEqual(fx.read("a.md"), "mine")
    }

    func testSymlinkedFolderIsNeverEntered() throws {
        let outside = try Fixture("secret.md = keep")
        let fx = try Fixture("inside -> \(outside.path)")
        XCTAssertThrowsError(try Directory.open(root: fx.bytes(), components: [Array("inside".utf8)]))
    }

    func testAPathOfSeveralFoldersOpensInOneStepAndRefusesEverySymlink() throws {
        let outside = try Fixture("Secret/keep.md = keep")
        let fx = try Fixture(
            """
            A/B/C/x.md = 1
            A/out -> \(outside.path)
            A/up -> ..
            A/B/last -> \(outside.path)/Secret
            """)
        let root = try Directory.open(fx.bytes())
        func open(_ path: String) throws -> Directory {
            try root.subdirectory(path.split(separator: "/").map { Array($0.utf8) })
        }

        let c = try open("A/B/C")
        XCTAssertEqual(c.path, fx.bytes() + Array("/A/B/C".utf8))
        XCTAssertTrue(c.exists(Array("x.md".utf8)))
        // The error names the symlink, found by walking again one step at a time.
        for (path, symlink) in ["A/out/Secret": "/A/out", "A/up/A": "/A/up", "A/B/last": "/A/B/last"] {
            XCTAssertThrowsError(try open(path), path) { error in
                XCTAssertEqual((error as? SysError)?.code, ENOTDIR, path)
                XCTAssertEqual((error as? SysError)?.path, fx.path + symlink, path)
            }
        }
        XCTAssertThrowsError(try open("A/missing/C")) { XCTAssertEqual(($0 as? SysError)?.code, ENOENT) }
        XCTAssertEqual(outside.read("Secret/keep.md"), "keep")
    }

    func testFsyncingAtOnceWaitsForEveryFolderAndReportsAnyFailure() throws {
        let fx = try Fixture("A/\nB/\nC/")
        let dirs = try ["A", "B", "C"].map { try Directory.open(fx.bytes() + Array("/\($0)".utf8)) }
        var fds = dirs.map(\.fd)
        for _ in 0..<2 { XCTAssertEqual(carrel_fsync_all(&fds, 1), 0, "one folder needs no helper") }
        XCTAssertEqual(carrel_fsync_all(&fds, 3), 0)
        // More folders than helpers: the rest are fsynced on the calling thread.
        var many = Array(repeating: fds, count: 4).flatMap { $0 }
        XCTAssertEqual(carrel_fsync_all(&many, Int32(many.count)), 0)
        for bad in 0..<3 {
            var withBad = fds
            withBad[bad] = -1
            XCTAssertEqual(carrel_fsync_all(&withBad, 3), -1, "bad descriptor at \(bad)")
        }
        XCTAssertEqual(carrel_fsync_all(&fds, 3), 0, "a failure leaves the helpers ready")
        withExtendedLifetime(dirs) {}
    }

    func testRemoveTreeHandlesTwoThousandLevelsWithoutRecursion() throws {
        let fx = try Fixture("deep/")
        var path = fx.path + "/deep"
        for i in 0..<2000 {
            path += "/d"
            XCTAssertEqual(mkdir(path, 0o755), 0, "mkdir level \(i)")
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: path + "/leaf.md", contents: Data("x".utf8)))
        let d = try Directory.open(fx.bytes())
        try d.removeTree(Array("deep".utf8))
        XCTAssertEqual(fx.listing(includeHidden: true), [])
    }
}

final class ScannerTests: XCTestCase {
    func testScanSkipsHiddenShowsLinksAndSurvivesLoops() throws {
        let fx = try Fixture(
            """
            Draft/Spring.md = s
            .git/config = x
            loop -> loop
            up -> ..
            out -> /etc
            """)
        let root = Entry(name: EntryName(bytes: fx.bytes()), kind: .directory)
        Scanner.scan(root, path: fx.bytes())
        XCTAssertEqual(Set(root.children.keys.map(\.string)), ["Draft", "loop", "up", "out"])
        XCTAssertEqual(root.child("up")?.kind, .symlink)
        XCTAssertTrue(root.child("up")!.linksToDirectory)
        XCTAssertTrue(root.child("up")!.children.isEmpty)
        XCTAssertEqual(root.fileTotal, 1)
        XCTAssertGreaterThan(root.child("Draft")!.child("Spring.md")!.modified, 0)
    }

    func testNamesThatAreNotUTF8AreKeptAsBytes() throws {
        let fx = try Fixture()
        let name: [UInt8] = [0x62, 0x61, 0x64, 0xFF, 0x2E, 0x6D, 0x64]
        _ = BytePath.withCString(fx.bytes() + [0x2F] + name) { creat($0, 0o644) }
        let root = Entry(name: EntryName(bytes: fx.bytes()), kind: .directory)
        Scanner.scan(root, path: fx.bytes())
        let e = try XCTUnwrap(root.children.values.first)
        XCTAssertEqual(e.name.bytes, name)
        XCTAssertEqual(e.path, fx.bytes() + [0x2F] + name)
    }

    // An unreadable folder is marked, not fatal: root reads every folder, so
    // HostileInputTests.testUnreadableFolderIsShownAsUnreadable checks it
    // with the real server run as nobody, the way CI runs as root.
}

final class ProjectFileTests: XCTestCase {
    func testUnknownKeysSurviveARewrite() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","version":1,"future":{"x":1},"preferences":{"theme":"dark"}}
            """)
        try ProjectFile.update(fx.bytes("P")) { $0.sort = SortSetting(by: .modified, descending: true) }
        let json = try JSONParser.parse(fx.read("P/.carrel/project.json")!)
        XCTAssertEqual(json["future"], ["x": 1])
        XCTAssertEqual(json["preferences"]?["theme"], "dark")
        XCTAssertEqual(json["sort"], ["by": "modified", "descending": true])
        XCTAssertEqual(
            fx.listing("P/.carrel", includeHidden: true), ["project.json"])
    }

    /// A setting is written by a temporary file renamed over project.json,
    /// and only when it changes: a file that changes rarely, one key per
    /// line, merges. Nothing else is left in `.carrel`.
    func testASettingIsWrittenByRenameOnlyWhenItChanges() throws {
        let fx = try Fixture(#"P/.carrel/project.json = {"type":"poetry","version":1}"#)
        func inode() -> ino_t {
            var st = stat()
            return stat(fx.path + "/P/.carrel/project.json", &st) == 0 ? st.st_ino : 0
        }
        let first = inode()
        try ProjectFile.update(fx.bytes("P")) { $0.confirmDelete = true }
        XCTAssertEqual(inode(), first, "no setting changed: not rewritten")
        XCTAssertEqual(fx.read("P/.carrel/project.json"), #"{"type":"poetry","version":1}"#)
        try ProjectFile.update(fx.bytes("P")) { $0.confirmDelete = false }
        XCTAssertNotEqual(inode(), first, "replaced whole, never written in place")
        let text = try XCTUnwrap(fx.read("P/.carrel/project.json"))
        XCTAssertTrue(text.contains("\n    \"confirmDelete\": false,\n"), text)
        XCTAssertEqual(fx.listing("P/.carrel", includeHidden: true), ["project.json"])
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).confirmDelete, false)
    }

    /// Trash records are not settings: a settings update neither writes
    /// them into project.json nor drops the ones an older version left there.
    func testASettingsUpdateLeavesTrashRecordsAlone() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","trash":{"a.md":{"from":"Draft/a.md","deleted":1,"by":"phone"}}}
            """)
        try ProjectFile.update(fx.bytes("P")) {
            $0.trash["c.md"] = .init(originalPath: "Ready/c.md", deleted: 3)
            $0.sort.descending = true
        }
        let json = try JSONParser.parse(fx.read("P/.carrel/project.json")!)
        XCTAssertEqual(json["trash"], ["a.md": ["from": "Draft/a.md", "deleted": 1, "by": "phone"]])
        XCTAssertEqual(json["sort"]?["descending"], true)
        XCTAssertFalse(fx.exists("P/.carrel/trash"))
    }

    /// The lock lives in the user's state folder, named by a hash of the
    /// project's real path: the same for every path to the project,
    /// different for another project, and nothing of it in the library.
    func testTheLockIsKeptOutsideTheLibraryByRealPath() throws {
        let fx = try Fixture(
            """
            lib/P/.carrel/project.json = {"type":"poetry"}
            lib/Q/.carrel/project.json = {"type":"poetry"}
            state/
            alias -> lib/P
            """)
        let saved = getenv("XDG_STATE_HOME").map { String(cString: $0) }
        setenv("XDG_STATE_HOME", fx.path + "/state", 1)
        defer { if let saved { setenv("XDG_STATE_HOME", saved, 1) } else { unsetenv("XDG_STATE_HOME") } }
        for p in ["lib/P", "alias", "lib/Q"] {
            try ProjectFile.locked(fx.bytes(p)) { _ throws(ProjectFile.Problem) in }
        }
        let locks = fx.listing("state/carrel/locks", includeHidden: true)
        XCTAssertEqual(locks.count, 2, "\(locks)")
        XCTAssertTrue(locks.allSatisfy { $0.hasPrefix("project-") && $0.hasSuffix(".lock") }, "\(locks)")
        XCTAssertEqual(fx.listing("lib/P/.carrel", includeHidden: true), ["project.json"])
    }

    /// The process remembers the version it wrote, to skip re-reading it; a
    /// change by anyone else must still be read before the next rewrite.
    func testAnotherWritersChangeIsReadBeforeTheNextRewrite() throws {
        let fx = try Fixture(#"P/.carrel/project.json = {"type":"poetry"}"#)
        try ProjectFile.update(fx.bytes("P")) { $0.confirmDelete = false }
        // In place, same inode, as an editor might; then by rename, as another Carrel does.
        let text = try XCTUnwrap(fx.read("P/.carrel/project.json"))
        let edited = text.replacingOccurrences(of: #""type""#, with: "\"theirs\": 1,\n  \"type\"")
        let fd = open(fx.path + "/P/.carrel/project.json", O_WRONLY | O_TRUNC)
        XCTAssertEqual(write(fd, edited, edited.utf8.count), edited.utf8.count)
        close(fd)
        try ProjectFile.update(fx.bytes("P")) { $0.sort = SortSetting(by: .created, descending: false) }
        XCTAssertTrue(
            fx.read("P/.carrel/project.json")?.contains(#""theirs": 1"#) ?? false, "an in-place change survives")
        let replaced = try XCTUnwrap(fx.read("P/.carrel/project.json")).replacingOccurrences(
            of: #""theirs": 1"#, with: #""again": 2"#)
        try replaced.write(toFile: fx.path + "/P/.carrel/project.json", atomically: true, encoding: .utf8)
        try ProjectFile.update(fx.bytes("P")) { $0.confirmDelete = true }
        XCTAssertTrue(fx.read("P/.carrel/project.json")?.contains(#""again": 2"#) ?? false, "a replacement survives")
    }

    func testNewerVersionIsRefusedAndNeverOverwritten() throws {
        let text = #"{"type":"poetry","version":99}"#
        let fx = try Fixture("P/.carrel/project.json = \(text)")
        XCTAssertThrowsError(try ProjectFile.update(fx.bytes("P")) { $0.confirmDelete = false }) {
            XCTAssertEqual($0 as? ProjectFile.Problem, .unsupportedVersion(99))
        }
        XCTAssertEqual(fx.read("P/.carrel/project.json"), text)
    }

    func testCorruptAndEmptyFilesAreReportedNotRewritten() throws {
        let fx = try Fixture(
            """
            A/.carrel/project.json = {"type":
            B/.carrel/project.json
            C/.carrel/project.json = {"type":"sonnet"}
            """)
        for p in ["A", "B", "C"] {
            XCTAssertThrowsError(try ProjectFile.read(fx.bytes(p))) {
                guard case .corrupt = $0 as? ProjectFile.Problem else { return XCTFail("\(p): \($0)") }
            }
        }
        XCTAssertEqual(fx.read("B/.carrel/project.json"), "")
    }

    func testKeysAreWrittenSortedForSmallDiffs() throws {
        let fx = try Fixture("P/")
        try ProjectFile.create(
            in: try Directory.open(fx.bytes("P")), ProjectMetadata(type: ProjectType.named("novel")!, created: 5))
        let text = try XCTUnwrap(fx.read("P/.carrel/project.json"))
        let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        XCTAssertEqual(keys, ["created", "folderSorts", "folders", "preferences", "sort", "type", "version"])
    }
}
