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
            fx.listing("P/.carrel", includeHidden: true), [".project.json.previous", "lock", "project.json"])
    }

    /// Only the records that changed are rebuilt; the others keep every key.
    func testTrashRecordsKeepUnknownKeysWhenOthersChange() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","trash":{"a.md":{"from":"Draft/a.md","deleted":1,"by":"phone"},"b.md":{"from":"Draft/b.md","deleted":2,"by":"laptop"}}}
            """)
        try ProjectFile.update(fx.bytes("P")) {
            $0.trash["c.md"] = .init(originalPath: "Ready/c.md", deleted: 3)
            $0.trash["b.md"] = .init(originalPath: "Ready/b.md", deleted: 4)
        }
        var json = try JSONParser.parse(fx.read("P/.carrel/project.json")!)
        XCTAssertEqual(json["trash"]?["a.md"], ["from": "Draft/a.md", "deleted": 1, "by": "phone"])
        XCTAssertEqual(json["trash"]?["b.md"], ["from": "Ready/b.md", "deleted": 4, "by": "laptop"])
        XCTAssertEqual(json["trash"]?["c.md"], ["from": "Ready/c.md", "deleted": 3])
        try ProjectFile.update(fx.bytes("P")) { $0.trash["a.md"] = nil }
        json = try JSONParser.parse(fx.read("P/.carrel/project.json")!)
        XCTAssertNil(json["trash"]?["a.md"])
        XCTAssertEqual(json["trash"]?["b.md"]?["by"], "laptop")
    }

    /// A rewrite fills the spare copy and swaps it in: project.json is never
    /// written in place, and the version before stays as the spare.
    func testARewriteSwapsInTheSpareAndKeepsThePreviousVersion() throws {
        let fx = try Fixture(#"P/.carrel/project.json = {"type":"poetry","version":1}"#)
        try ProjectFile.update(fx.bytes("P")) { $0.confirmDelete = false }
        let first = try XCTUnwrap(fx.read("P/.carrel/project.json"))
        XCTAssertEqual(fx.read("P/.carrel/.project.json.previous"), #"{"type":"poetry","version":1}"#)
        try ProjectFile.update(fx.bytes("P")) { $0.sort = SortSetting(by: .created, descending: false) }
        XCTAssertEqual(
            fx.read("P/.carrel/.project.json.previous"), first, "the spare is the version before, cut to its length")
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).sort.by, .created)
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).confirmDelete, false)
    }

    /// A staged version is fsynced into the spare and nothing a reader sees
    /// changes; the commit swaps it in. A change that changes nothing
    /// stages nothing.
    func testAStagedVersionWaitsInTheSpareUntilCommitted() throws {
        let fx = try Fixture(#"P/.carrel/project.json = {"type":"poetry","version":1}"#)
        try ProjectFile.locked(fx.bytes("P")) { lock throws(ProjectFile.Problem) in
            XCTAssertNil(try lock.stage { $0.confirmDelete = true }, "already true")
            guard let staged = try lock.stage({ $0.trash["a.md"] = .init(originalPath: "Draft/a.md", deleted: 5) })
            else {
                return XCTFail("a new record is a change")
            }
            XCTAssertEqual(fx.read("P/.carrel/project.json"), #"{"type":"poetry","version":1}"#, "not yet in place")
            XCTAssertEqual(ProjectFile.readSpare(fx.bytes("P"))?.trash["a.md"]?.originalPath, "Draft/a.md")
            let meta = try lock.commit(staged)
            XCTAssertEqual(meta.trash["a.md"]?.originalPath, "Draft/a.md")
        }
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).trash["a.md"]?.deleted, 5)
        XCTAssertEqual(fx.read("P/.carrel/.project.json.previous"), #"{"type":"poetry","version":1}"#)
        XCTAssertNil(ProjectFile.readSpare(fx.bytes("Q")), "no project, no spare")
    }

    /// Another Carrel was killed between moving an item into Trash and its
    /// swap, so only the spare, newer than project.json, holds the record.
    /// The next writer takes it over before it rewrites the spare. A spare
    /// older than project.json is the version before, and is not used.
    func testAWriterTakesOverARecordStagedByAKilledOne() throws {
        let spare =
            #"{"type":"poetry","trash":{"x.md":{"from":"Draft/x.md","deleted":1},"gone.md":{"from":"Draft/gone.md","deleted":2}}}"#
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/.project.json.previous = \(spare)
            P/Trash/x.md = x
            Q/.carrel/project.json = {"type":"poetry"}
            Q/.carrel/.project.json.previous = \(spare)
            Q/Trash/x.md = x
            """)
        let hourAgo = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes(
            [.modificationDate: hourAgo], ofItemAtPath: fx.path + "/P/.carrel/project.json")
        try FileManager.default.setAttributes(
            [.modificationDate: hourAgo], ofItemAtPath: fx.path + "/Q/.carrel/.project.json.previous")
        for p in ["P", "Q"] {
            try ProjectFile.update(fx.bytes(p)) { $0.sort = SortSetting(by: .created, descending: false) }
        }
        let taken = try ProjectFile.read(fx.bytes("P")).trash
        XCTAssertEqual(taken["x.md"]?.originalPath, "Draft/x.md", "the killed writer's record survives the rewrite")
        XCTAssertNil(taken["gone.md"], "no item in Trash, no record")
        XCTAssertEqual(try ProjectFile.read(fx.bytes("Q")).trash, [:], "an older spare is the version before")
    }

    /// A spare that is a hard link of project.json, or a symlink, would turn
    /// the rewrite into an in-place write of something else. Neither is used.
    func testASpareThatIsALinkIsNeverWrittenThrough() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            Q/.carrel/project.json = {"type":"poetry"}
            outside.txt = keep
            """)
        XCTAssertEqual(link(fx.path + "/P/.carrel/project.json", fx.path + "/P/.carrel/.project.json.previous"), 0)
        XCTAssertEqual(symlink(fx.path + "/outside.txt", fx.path + "/Q/.carrel/.project.json.previous"), 0)
        for p in ["P", "Q"] { try ProjectFile.update(fx.bytes(p)) { $0.confirmDelete = false } }
        XCTAssertEqual(fx.read("P/.carrel/.project.json.previous"), #"{"type":"poetry"}"#, "the old inode is untouched")
        XCTAssertEqual(fx.read("outside.txt"), "keep")
        for p in ["P", "Q"] { XCTAssertEqual(try ProjectFile.read(fx.bytes(p)).confirmDelete, false, p) }
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

    /// project.json keeps its Trash records rendered between writes. After
    /// every one of a few hundred random changes, the file must be exactly
    /// what rendering the whole document from scratch gives.
    func testEachRewriteIsTheSameBytesAsAFullRender() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","zzz":[1,{"b":2}],"trash":{"Old.md":{"from":"Draft/Old.md","deleted":1,"by":"phone"},"bad.md":{"deleted":3}}}
            """)
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let stems = [
            "a", "B", "Été", "e\u{301}te", "z", "Chapter", "chapter", "\"q\"", "back\\slash", "tab\t", "日本", "10", "9",
            "-",
        ]
        var names: [String] = []
        var expected: [String: JSONValue] = ["Old.md": ["from": "Draft/Old.md", "deleted": 1, "by": "phone"]]
        for step in 0..<300 {
            let roll = next(10)
            // One change of a Trash record, as the generic update makes it
            // or as delete and restore do (`stage(trash:)`), alternately.
            var name: String?
            var record: ProjectMetadata.TrashRecord?
            if roll < 5 || names.isEmpty {
                name = "\(stems[next(stems.count)]) \(next(40)).md"
                record = .init(originalPath: "Draft/\(name!)", deleted: Int64(step))
                if !names.contains(name!) { names.append(name!) }
            } else if roll < 8 {
                name = names.remove(at: next(names.count))
            } else if roll < 9 {
                name = names[next(names.count)]
                record = .init(originalPath: "Draft/\(name!)", deleted: Int64(1000 + step))
            }
            if let name {
                expected[name] = record.map { ["from": .string($0.originalPath), "deleted": .int(Int($0.deleted))] }
            }
            if let name, step % 2 == 0 {
                try ProjectFile.locked(fx.bytes("P")) { lock throws(ProjectFile.Problem) in
                    if let staged = try lock.stage(trash: name, record) { _ = try lock.commit(staged) }
                }
            } else {
                try ProjectFile.update(fx.bytes("P")) { meta in
                    if let name { meta.trash[name] = record } else { meta.sort.descending.toggle() }
                }
            }
            let bytes = try XCTUnwrap(fx.read("P/.carrel/project.json"))
            let json = try JSONParser.parse(Array(bytes.utf8))
            XCTAssertEqual(bytes, json.text(pretty: true) + "\n", "after step \(step)")
            XCTAssertEqual(json["trash"], .object(expected), "after step \(step)")
            if bytes != json.text(pretty: true) + "\n" || json["trash"] != .object(expected) { return }
        }
        let json = try JSONParser.parse(Array(try XCTUnwrap(fx.read("P/.carrel/project.json")).utf8))
        XCTAssertEqual(json["zzz"], [1, ["b": 2]])
        XCTAssertGreaterThan(expected.count, 20)
    }

    func testKeysAreWrittenSortedForSmallDiffs() throws {
        let fx = try Fixture("P/")
        try ProjectFile.create(
            in: try Directory.open(fx.bytes("P")), ProjectMetadata(type: ProjectType.named("novel")!, created: 5))
        let text = try XCTUnwrap(fx.read("P/.carrel/project.json"))
        let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        XCTAssertEqual(keys, ["created", "folders", "preferences", "sort", "trash", "type", "version"])
    }
}
