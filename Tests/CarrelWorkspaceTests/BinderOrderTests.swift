import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import XCTest

/// Binder order: the order the writer chose, kept in each folder's
/// `.carrel-order`, through reorders, renames and moves.
final class BinderOrderTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    /// `orders`: order files' text by path, since a fixture line holds one line.
    func open(_ tree: String, orders: [String: String] = [:]) throws {
        fx = try Fixture(tree)
        for (path, text) in orders { try Data(text.utf8).write(to: fx.url(path)) }
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func t(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    func names(_ relative: String) throws -> [String] {
        ws.children(try t(relative).item).map { ws.describe($0, .english).name }
    }

    func reason(_ body: () throws -> Any) -> Reason? {
        do { _ = try body(); return nil } catch let f as Failure { return f.reason } catch { return nil }
    }

    static let draft = """
        P/.carrel/project.json = {"type":"poetry"}
        P/Draft/a.md
        P/Draft/b.md
        P/Draft/c.md
        P/Draft/d.md
        P/Ready/r.md
        """

    func testReorderWritesTheOrderFileAndMakesTheFolderManual() throws {
        try open(Self.draft)
        XCTAssertEqual(try names("P/Draft"), ["a.md", "b.md", "c.md", "d.md"])
        _ = try ws.reorder(try t("P/Draft/d.md"), relativeTo: try t("P/Draft/a.md"), after: false)
        XCTAssertEqual(try names("P/Draft"), ["d.md", "a.md", "b.md", "c.md"])
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "d.md\na.md\nb.md\nc.md\n")
        _ = try ws.reorder(try t("P/Draft/a.md"), relativeTo: try t("P/Draft/c.md"), after: true)
        XCTAssertEqual(try names("P/Draft"), ["d.md", "b.md", "c.md", "a.md"])
        XCTAssertTrue(fx.read("P/.carrel/project.json")!.contains("\"folderSorts\""))
        XCTAssertEqual(try names("P/Ready"), ["r.md"])
        // Read back by a fresh server.
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(try names("P/Draft"), ["d.md", "b.md", "c.md", "a.md"])
        XCTAssertEqual(fx.listing("P/Draft", includeHidden: true).filter { $0.contains("tmp") }, [])
    }

    func testRefusalsNameTheirReasonAndChangeNothing() throws {
        try open(Self.draft)
        XCTAssertEqual(
            reason {
                try self.ws.reorder(try self.t("P/Draft/a.md"), relativeTo: try self.t("P/Ready/r.md"), after: false)
            },
            .notSibling)
        XCTAssertEqual(
            reason {
                try self.ws.reorder(try self.t("P/Draft/a.md"), relativeTo: try self.t("P/Draft/a.md"), after: true)
            },
            .notSibling)
        XCTAssertEqual(
            reason { try self.ws.reorder(try self.t("P/Draft"), relativeTo: try self.t("P/Ready"), after: true) },
            .permanentFolder)
        _ = try ws.delete(try t("P/Draft/b.md"))
        _ = try ws.delete(try t("P/Draft/c.md"))
        XCTAssertEqual(
            reason {
                try self.ws.reorder(try self.t("P/Trash/b.md"), relativeTo: try self.t("P/Trash/c.md"), after: true)
            },
            .inTrash)
        XCTAssertFalse(fx.exists("P/Draft/.carrel-order"))
        XCTAssertFalse(fx.read("P/.carrel/project.json")!.contains("folderSorts"))
    }

    func testUnknownNamesGoLastInNameOrderAndVanishedNamesAreSkipped() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry","folderSorts":{"Draft":{"by":"manual"}}}
            P/Draft/a.md
            P/Draft/b.md
            P/Draft/c.md
            P/Draft/Sub/
            P/Draft/z 10.md
            P/Draft/z 9.md
            """,
            orders: [
                "P/Draft/.carrel-order": "c.md\ngone.md\na.md\n<<<<<<< ours\n=======\n>>>>>>> theirs\nc.md\n.hidden\n"
            ])
        XCTAssertEqual(try names("P/Draft"), ["c.md", "a.md", "Sub", "b.md", "z 9.md", "z 10.md"])
    }

    func testNewProjectsOrderTheirManuscriptFoldersByHand() throws {
        try open("")
        for type in ProjectType.all {
            _ = try ws.newProject(in: try t(""), name: type.id, type: type)
            let json = fx.read("\(type.id)/.carrel/project.json")!
            for folder in type.directories {
                let manual = json.contains("\"\(folder.diskName!)\" : {") || json.contains("\"\(folder.diskName!)\": {")
                XCTAssertEqual(manual, folder.startsInBinderOrder, "\(type.id) \(folder.role)")
            }
        }
        XCTAssertEqual(
            ProjectType.all.flatMap(\.directories).filter(\.startsInBinderOrder).map(\.role.rawValue).sorted(),
            ["acts", "chapters", "draft", "draft", "scenes", "scenes"])
    }

    func testRenameKeepsThePlaceAndMoveCanPlace() throws {
        try open(Self.draft)
        _ = try ws.reorder(try t("P/Draft/d.md"), relativeTo: try t("P/Draft/a.md"), after: false)
        _ = try ws.rename(try t("P/Draft/b.md"), to: "Zed")
        XCTAssertEqual(try names("P/Draft"), ["d.md", "a.md", "Zed.md", "c.md"])
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "d.md\na.md\nZed.md\nc.md\n", "the old name is gone")
        _ = try ws.move(try t("P/Ready/r.md"), to: try t("P/Draft"), at: try position("P/Draft/a.md", after: true))
        XCTAssertEqual(try names("P/Draft"), ["d.md", "a.md", "r.md", "Zed.md", "c.md"])
        _ = try ws.move(try t("P/Draft/a.md"), to: try t("P/Ready"))
        XCTAssertEqual(try names("P/Draft"), ["d.md", "r.md", "Zed.md", "c.md"])
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(try names("P/Draft"), ["d.md", "r.md", "Zed.md", "c.md"])
    }

    func position(_ relative: String, after: Bool) throws -> Workspace.Position {
        guard case .entry(let e, _) = try t(relative) else { throw Failure(.notFound, .cancelled) }
        return (e, after)
    }

    func testAllListsFoldersInTemplateOrderAndFilesInTheirs() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry","sort":{"by":"manual"}}
            P/Draft/a.md
            P/Draft/b.md
            P/Ready/y.md
            P/Ready/z.md
            P/Published/0.md
            """,
            orders: ["P/Draft/.carrel-order": "b.md\na.md\n", "P/Ready/.carrel-order": "z.md\ny.md\n"])
        XCTAssertEqual(try names("P/.carrel/all"), ["b.md", "a.md", "z.md", "y.md", "0.md"])
        _ = try ws.reorder(try t("P/Ready/y.md"), relativeTo: try t("P/Ready/z.md"), after: false)
        XCTAssertEqual(try names("P/.carrel/all"), ["b.md", "a.md", "y.md", "z.md", "0.md"], "the cache follows")
    }

    func testSyncConflictCopiesAreMergedAndRemovedOnOpen() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry","sort":{"by":"manual"}}
            P/Draft/a.md
            P/Draft/b.md
            P/Draft/c.md
            P/Draft/d.md
            """,
            orders: [
                "P/Draft/.carrel-order": "c.md\na.md\n",
                "P/Draft/.sync-conflict-20261123-101010-ABCDEFG.carrel-order": "b.md\nc.md\n",
            ])
        XCTAssertEqual(try names("P/Draft"), ["c.md", "a.md", "b.md", "d.md"])
        XCTAssertEqual(fx.read("P/Draft/.carrel-order"), "c.md\na.md\nb.md\n")
        XCTAssertEqual(fx.listing("P/Draft", includeHidden: true).filter { $0.contains("sync-conflict") }, [])
    }

    func testAnOrderFileThatIsNotAPlainFileIsIgnoredAndNeverReplaced() throws {
        try open(
            """
            P/.carrel/project.json = {"type":"poetry","sort":{"by":"manual"}}
            P/Draft/.carrel-order/
            P/Draft/a.md
            P/Draft/b.md
            """)
        XCTAssertEqual(try names("P/Draft"), ["a.md", "b.md"])
        XCTAssertEqual(
            reason {
                try self.ws.reorder(try self.t("P/Draft/b.md"), relativeTo: try self.t("P/Draft/a.md"), after: false)
            },
            .io)
        XCTAssertTrue(Workspace.kind(of: fx.bytes("P/Draft/.carrel-order")) == .folder)
    }

    /// A named pipe never blocks the scan; a link is never followed or replaced.
    func testAPipeOrALinkWhereTheOrderFileBelongsIsIgnored() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","sort":{"by":"manual"}}
            P/Draft/a.md
            P/Draft/b.md
            P/Ready/a.md
            P/Ready/b.md
            P/Ready/.carrel-order -> /etc/hostname
            """)
        XCTAssertEqual(Fixture.sh("mkfifo '\(fx.path)/P/Draft/.carrel-order'"), 0)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(try names("P/Draft"), ["a.md", "b.md"])
        XCTAssertEqual(try names("P/Ready"), ["a.md", "b.md"])
        XCTAssertEqual(
            reason {
                try self.ws.reorder(try self.t("P/Ready/b.md"), relativeTo: try self.t("P/Ready/a.md"), after: false)
            },
            .io)
        XCTAssertEqual(Workspace.kind(of: fx.bytes("P/Ready/.carrel-order")), .link)
        XCTAssertEqual(Workspace.kind(of: fx.bytes("P/Draft/.carrel-order")), .other)
    }

    func testSetSortOnAFolderIsThatFoldersOwn() throws {
        try open(Self.draft)
        _ = try ws.setSort(try t("P/Ready"), SortSetting(by: .name, descending: true))
        _ = try ws.setSort(try t("P/Draft"), .manual)
        XCTAssertEqual(try names("P/Draft"), ["a.md", "b.md", "c.md", "d.md"], "no order file yet: name order")
        XCTAssertEqual(
            ws.order(for: try t("P/Ready").entry!, in: ws.libraries[0]), SortSetting(by: .name, descending: true))
        _ = try ws.setSort(try t("P"), .byName)
        XCTAssertEqual(
            ws.order(for: try t("P/Draft").entry!, in: ws.libraries[0]), .byName, "the project's sort is every folder's"
        )
    }
}

extension Workspace.Target {
    var entry: Entry? { if case .entry(let e, _) = self { return e }; return nil }
}
