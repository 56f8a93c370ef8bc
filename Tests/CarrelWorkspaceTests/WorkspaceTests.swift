import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Glibc
import XCTest

/// Operations on real temporary libraries, without the protocol.
final class WorkspaceTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    // XCTest keeps every test case object until the run ends, so a
    // fixture held here is removed only when let go of.
    override func tearDown() {
        ws = nil
        fx = nil
    }

    func open(_ tree: String) throws {
        fx = try Fixture(tree)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func t(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    func reason(_ body: () throws -> Any) -> Reason? {
        do { _ = try body(); return nil } catch let f as Failure { return f.reason } catch { return nil }
    }

    func titles(_ item: Item) -> [String] { ws.children(item).map { ws.describe($0, .english).title } }

    func testNewProjectOfEveryTypeHasItsTemplate() throws {
        try open("")
        for type in ProjectType.all {
            _ = try ws.newProject(in: try t(""), name: type.title.en, type: type)
            for folder in type.directories {
                XCTAssertTrue(fx.exists("\(type.title.en)/\(folder.diskName!)"), "\(type.id): \(folder.role)")
            }
            XCTAssertTrue(fx.exists("\(type.title.en)/.carrel/project.json"))
        }
        XCTAssertEqual(fx.listing(includeHidden: true).filter { $0.contains(".carrel-new") }, [])
        guard case .entry(let poetry, let lib) = try t("Poetry") else { return XCTFail() }
        XCTAssertEqual(titles(.entry(poetry, lib)), ["YOUR POETRY", "PUBLICATIONS", "TRASH"])
        XCTAssertEqual(
            titles(ws.children(.entry(poetry, lib))[0]),
            ["All", "Draft", "Ready", "Set Aside", "Published", "Collections", "Submissions", "Research"])
    }

    func testNewFileInAllGoesToDraftOrTheBlankRoot() throws {
        try open(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Notes/.carrel/project.json = {"type":"blank"}
            """)
        _ = try ws.newFile(in: try t("Poems/.carrel/all"), name: "Spring")
        _ = try ws.newFile(in: try t("Notes/.carrel/all"), name: "Idea.txt")
        XCTAssertEqual(fx.read("Poems/Draft/Spring.md"), "")
        XCTAssertTrue(fx.exists("Notes/Idea.txt"))
        XCTAssertEqual(
            reason { try self.ws.newFolder(in: try self.t("Poems/.carrel/all"), name: "X") }, .permanentFolder)
    }

    func testAllListsTheWritingFoldersFlatAndBlankAllSkipsTrash() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md
            P/Draft/Sub/b.md
            P/Ready/c.md
            P/Research/r.md
            P/Trash/t.md
            B/.carrel/project.json = {"type":"blank"}
            B/x.md
            B/F/y.md
            B/Trash/z.md
            """)
        guard case .all(let p, let l) = try t("P/.carrel/all"), case .all(let b, let bl) = try t("B/.carrel/all") else {
            return XCTFail()
        }
        XCTAssertEqual(titles(.all(p, l)), ["a.md", "b.md", "c.md"])
        XCTAssertEqual(ws.describe(.all(p, l), .english).fileCount, 3)
        XCTAssertEqual(titles(.all(b, bl)), ["x.md", "y.md"])
        XCTAssertEqual(ws.describe(.all(b, bl), .english).fileCount, 2)

        // The list is kept between requests; every kind of change shows.
        _ = try ws.newFile(in: try t("P/Ready"), name: "0 first.md")
        _ = try ws.delete(try t("P/Draft/a.md"))
        _ = try ws.rename(try t("P/Ready/c.md"), to: "z.md")
        XCTAssertEqual(titles(.all(p, l)), ["0 first.md", "b.md", "z.md"])
        _ = try ws.restore(try t("P/Trash/a.md"))
        _ = try ws.setSort(try t("P"), SortSetting(by: .name, descending: true))
        XCTAssertEqual(titles(.all(p, l)), ["z.md", "b.md", "a.md", "0 first.md"])
    }

    /// Files of one name in several folders appear in "All" in their
    /// folders' order, the same from one start to the next.
    func testAllListsFilesOfOneNameInTheirFoldersOrder() throws {
        let parts = (1...9).map { "Part \($0)" }
        try open(
            (["P/.carrel/project.json = {\"type\":\"blank\"}"] + parts.reversed().map { "P/\($0)/Page.md" }).joined(
                separator: "\n"))
        guard case .all(let p, let l) = try t("P/.carrel/all") else { return XCTFail() }
        let folders = ws.children(.all(p, l)).map { item -> String in
            guard case .entry(let e, _) = item, let parent = e.parent else { return "?" }
            return parent.name.string
        }
        XCTAssertEqual(folders, parts)
    }

    func testRenameRulesCaseOnlyAndNoClobber() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = s
            P/Draft/Summer.md = m
            """)
        XCTAssertEqual(reason { try self.ws.rename(try self.t("P/Draft/Spring.md"), to: "SUMMER.md") }, .nameTaken)
        XCTAssertEqual(reason { try self.ws.rename(try self.t("P/Draft/Spring.md"), to: "a/b") }, .invalidName)
        XCTAssertEqual(reason { try self.ws.rename(try self.t("P/Draft"), to: "Drafts") }, .permanentFolder)
        _ = try ws.rename(try t("P/Draft/Spring.md"), to: "spring.md")
        XCTAssertEqual(fx.read("P/Draft/spring.md"), "s")
        XCTAssertFalse(fx.exists("P/Draft/Spring.md"))
        XCTAssertEqual(fx.read("P/Draft/Summer.md"), "m")
    }

    func testPrecomposedAndDecomposedNamesClash() throws {
        try open("D/Caf\u{E9}.md = nfc")
        XCTAssertEqual(reason { try self.ws.newFile(in: try self.t("D"), name: "Cafe\u{301}.md") }, .nameTaken)
    }

    func testTargetAppearingBehindTheModelsBackIsAConflict() throws {
        try open(
            """
            D/a.md = mine
            E/
            """)
        // The model has not seen it.
        try "theirs".write(toFile: fx.path + "/E/a.md", atomically: false, encoding: .utf8)
        XCTAssertEqual(reason { try self.ws.move(try self.t("D/a.md"), to: try self.t("E")) }, .conflict)
        XCTAssertEqual(fx.read("D/a.md"), "mine")
        XCTAssertEqual(fx.read("E/a.md"), "theirs")
    }

    func testMoveRules() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Chapters/Act 1/Scene.md = s
            P/Chapters/Act 2/
            P/Scenes/Scene.md = other
            """)
        XCTAssertEqual(
            reason { try self.ws.move(try self.t("P/Chapters/Act 1"), to: try self.t("P/Chapters/Act 1")) }, .intoItself
        )
        XCTAssertEqual(
            reason { try self.ws.move(try self.t("P/Chapters"), to: try self.t("P/Scenes")) }, .permanentFolder)
        XCTAssertEqual(
            reason { try self.ws.move(try self.t("P/Chapters/Act 1/Scene.md"), to: try self.t("P/Scenes")) }, .nameTaken
        )
        _ = try ws.move(try t("P/Chapters/Act 1"), to: try t("P/Chapters/Act 2"))
        XCTAssertEqual(fx.read("P/Chapters/Act 2/Act 1/Scene.md"), "s")
        XCTAssertEqual(
            reason { try self.ws.move(try self.t("P/Chapters/Act 2"), to: try self.t("P/Chapters/Act 2/Act 1")) },
            .intoItself)
    }

    func testTrashRestoreAndEmptyKeepEveryFileExactlyOnce() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Act/one.md = 1
            P/Draft/two.md = 2
            P/Ready/two.md = 2b
            """)
        _ = try ws.delete(try t("P/Draft/Act"))
        _ = try ws.delete(try t("P/Draft/two.md"))
        _ = try ws.delete(try t("P/Ready/two.md"))
        XCTAssertEqual(fx.listing("P/Trash"), ["Act/", "Act/one.md", "two 2.md", "two.md"])
        XCTAssertEqual(fx.read("P/Trash/two 2.md"), "2b")
        // Restore recreates the missing parent folder.
        try FileManager.default.removeItem(atPath: fx.path + "/P/Draft")
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertTrue(fx.exists("P/Draft"))  // a permanent folder comes back on open
        _ = try ws.restore(try t("P/Trash/Act"))
        XCTAssertEqual(fx.read("P/Draft/Act/one.md"), "1")
        // A clash on restore gets a suffix.
        try "new".write(toFile: fx.path + "/P/Ready/two.md", atomically: false, encoding: .utf8)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        _ = try ws.restore(try t("P/Trash/two 2.md"))
        XCTAssertEqual(fx.read("P/Ready/two 2.md"), "2b")
        XCTAssertEqual(fx.read("P/Ready/two.md"), "new")
        XCTAssertEqual(reason { try self.ws.restore(try self.t("P/Ready/two.md")) }, .notInTrash)
        guard case .deleted(let n) = try ws.emptyTrash(try t("P")).result else { return XCTFail() }
        XCTAssertEqual(n, 1)
        XCTAssertEqual(fx.listing("P/Trash"), [])
        XCTAssertEqual(fx.listing("P/.carrel/purge", includeHidden: true), [])
    }

    func testStaleTrashRecordsAreDroppedAndPurgesFinishedOnOpen() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/1-gone.json = {"name":"gone.md","from":"Draft/gone.md","deleted":1}
            P/.carrel/trash/2-here.json = {"name":"here.md","from":"Ready/here.md","deleted":2}
            P/Trash/here.md = h
            P/.carrel/purge/123-old/half/x.md = confirmed deleted
            P/.carrel/.project.json.tmp-99-1 = {"type":"poetry","half
            """)
        XCTAssertEqual(
            fx.listing("P/.carrel", includeHidden: true),
            ["project.json", "purge/", "trash/", "trash/2-here.json"], "crash debris is cleaned")
        XCTAssertEqual(fx.listing("P/.carrel/purge", includeHidden: true), [])
        _ = try ws.restore(try t("P/Trash/here.md"))
        XCTAssertEqual(fx.read("P/Ready/here.md"), "h")
        XCTAssertEqual(fx.listing("P/.carrel/trash", includeHidden: true), [])
    }

    /// An item in Trash without any record goes back to the project's root.
    func testAnItemInTrashWithoutARecordRestoresToTheRoot() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Trash/stray.md = s
            """)
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).trash, [:])
        _ = try ws.restore(try t("P/Trash/stray.md"))
        XCTAssertEqual(fx.read("P/stray.md"), "s", "with no record anywhere, the item goes to the project root")
    }

    /// Renaming an item in Trash writes the record under the new name
    /// before the rename and removes the old one after. A rename the disk
    /// refuses, after the model allowed it, leaves the one record it had.
    func testRenamingInTrashKeepsOneRecordUnderTheNewName() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/.carrel/trash/1-old.json = {"name":"old.md","from":"Draft/Deep/old.md","deleted":1}
            P/Trash/old.md = o
            """)
        // Unseen by the model.
        try "theirs".write(toFile: fx.path + "/P/Trash/taken.md", atomically: false, encoding: .utf8)
        XCTAssertEqual(reason { try self.ws.rename(try self.t("P/Trash/old.md"), to: "taken.md") }, .conflict)
        XCTAssertEqual(fx.read("P/Trash/old.md"), "o")
        XCTAssertEqual(fx.read("P/Trash/taken.md"), "theirs")
        XCTAssertEqual(fx.listing("P/.carrel/trash", includeHidden: true), ["1-old.json"], "nothing changed")

        _ = try ws.rename(try t("P/Trash/old.md"), to: "new.md")
        let meta = try ProjectFile.read(fx.bytes("P"))
        XCTAssertNil(meta.trash["old.md"])
        XCTAssertEqual(meta.trash["new.md"]?.originalPath, "Draft/Deep/old.md")
        XCTAssertEqual(fx.listing("P/.carrel/trash", includeHidden: true).count, 1)
        _ = try ws.restore(try t("P/Trash/new.md"))
        XCTAssertEqual(fx.read("P/Draft/Deep/old.md"), "o", "restored under its original name and place")
    }

    /// A delete writes one record file and leaves project.json alone; a
    /// restore removes that file.
    func testDeleteWritesOneRecordFileAndRestoreRemovesIt() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            """)
        _ = try ws.delete(try t("P/Draft/a.md"))
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).trash["a.md"]?.originalPath, "Draft/a.md")
        XCTAssertEqual(fx.read("P/.carrel/project.json"), #"{"type":"poetry"}"#)
        XCTAssertEqual(fx.listing("P/.carrel/trash", includeHidden: true).count, 1)
        _ = try ws.restore(try t("P/Trash/a.md"))
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
        XCTAssertNil(try ProjectFile.read(fx.bytes("P")).trash["a.md"])
        XCTAssertEqual(fx.listing("P/.carrel/trash", includeHidden: true), [])
    }

    func testLockedProjectIsShownButNeverChanged() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry","version":7}
            P/Draft/a.md = a
            """)
        XCTAssertEqual(reason { try self.ws.delete(try self.t("P/Draft/a.md")) }, .unsupportedVersion)
        XCTAssertEqual(reason { try self.ws.newFile(in: try self.t("P/Draft"), name: "b") }, .unsupportedVersion)
        XCTAssertTrue(fx.exists("P/Draft/a.md"))
        XCTAssertEqual(fx.read("P/.carrel/project.json"), #"{"type":"poetry","version":7}"#)
    }

    func testPlainTreeDeleteGoesToTheSystemTrash() throws {
        let home = try Fixture()
        setenv("XDG_DATA_HOME", home.path, 1)
        defer { unsetenv("XDG_DATA_HOME") }
        try open("Notes/todo.md = keep me")
        guard case .systemTrash = try ws.delete(try t("Notes/todo.md")).result else { return XCTFail() }
        XCTAssertFalse(fx.exists("Notes/todo.md"))
        XCTAssertEqual(home.read("Trash/files/todo.md"), "keep me")
        XCTAssertTrue(home.read("Trash/info/todo.md.trashinfo")!.contains("Path=\(fx.path)/Notes/todo.md"))
    }

    func testLinksAreShownButNothingHappensThroughThem() throws {
        let outside = try Fixture("secret.md = keep")
        try open(
            """
            P/.carrel/project.json = {"type":"blank"}
            P/out -> \(outside.path)
            """)
        guard case .entry(let link, let l) = try t("P/out") else { return XCTFail() }
        XCTAssertTrue(ws.describe(.entry(link, l), .english).link)
        XCTAssertEqual(reason { try self.ws.newFile(in: try self.t("P/out"), name: "x") }, .outsideWorkspace)
        XCTAssertEqual(reason { try self.ws.locate(self.fx.bytes("P/out/secret.md"), uri: "u") }, .outsideWorkspace)
        _ = try ws.delete(try t("P/out"))  // the link itself goes to Trash; its target stays
        XCTAssertEqual(outside.read("secret.md"), "keep")
    }

    func testPathsOutsideOrWithDotsAreRefused() throws {
        try open("a.md")
        XCTAssertEqual(reason { try self.ws.locate(Array("/etc/passwd".utf8), uri: "u") }, .outsideWorkspace)
        XCTAssertEqual(reason { try self.ws.locate(self.fx.bytes("../x"), uri: "u") }, .outsideWorkspace)
        XCTAssertEqual(reason { try self.ws.locate(Array((self.fx.path + "x").utf8), uri: "u") }, .outsideWorkspace)
        XCTAssertEqual(reason { try self.ws.locate(self.fx.bytes("nope.md"), uri: "u") }, .notFound)
    }

    func testSortSettingIsKeptPerProject() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"blank"}
            P/b.md
            P/a.md
            """)
        _ = try ws.setSort(try t("P"), SortSetting(by: .name, descending: true))
        XCTAssertEqual(try ProjectFile.read(fx.bytes("P")).sort.descending, true)
        guard case .entry(let p, let l) = try t("P") else { return XCTFail() }
        XCTAssertEqual(titles(ws.children(.entry(p, l))[0]), ["All", "b.md", "a.md"])
    }

    func testDeepFolderScansAndDeletes() throws {
        try open("P/.carrel/project.json = {\"type\":\"blank\"}")
        var rel = "P/deep"
        XCTAssertEqual(mkdir(fx.path + "/" + rel, 0o755), 0)
        for _ in 0..<2000 { rel += "/d"; XCTAssertEqual(mkdir(fx.path + "/" + rel, 0o755), 0) }
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        _ = try ws.delete(try t("P/deep"))
        _ = try ws.delete(try t("P/Trash/deep"))
        XCTAssertEqual(fx.listing("P"), ["Trash/"])
    }
}
