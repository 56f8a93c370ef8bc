import CarrelModel
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// Snapshots of a file: taken, listed newest first, compared word by word
/// and rolled back to, with every refusal changing nothing, and whatever
/// the snapshot folder holds that is not a snapshot skipped with why.
final class SnapshotsTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!
    let home = ".carrel/snapshots/Draft/Spring.md"

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = one two three four
            P/Draft/Cycle/a.md = a
            P/Draft/Cycle/b.txt = b b
            P/Trash/old.md = gone
            P/Compiled/P.md = compiled
            Loose/note.md = outside
            """)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    override func tearDown() {
        ws = nil
        fx = nil
    }

    func t(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    func refusal(_ body: () throws -> Void) -> Failure? {
        do {
            try body()
            return nil
        } catch { return error as? Failure }
    }

    func write(_ relative: String, _ text: String) throws {
        try text.write(toFile: fx.path + "/" + relative, atomically: false, encoding: .utf8)
    }

    func testTakenListedNewestFirstComparedAndRolledBack() throws {
        let first = try ws.takeSnapshot(try t("P/Draft/Spring.md"), title: " First go ")
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(first[0].name.title, "First go")
        XCTAssertEqual(first[0].name.words, 4)
        XCTAssertEqual(first[0].name.fileExtension, ".md")
        XCTAssertEqual(fx.read("P/\(home)/\(first[0].name.fileName)"), "one two three four", "exactly the text")
        try write("P/Draft/Spring.md", "one two five four six")
        let second = try ws.takeSnapshot(try t("P/Draft/Spring.md"), title: nil)
        let (list, skipped) = try ws.snapshots(of: try t("P/Draft/Spring.md"))
        XCTAssertEqual(list.map(\.name), [second[0].name, first[0].name], "newest first")
        XCTAssertEqual(skipped, [])
        let compared = try ws.compareSnapshot(
            try t("P/Draft/Spring.md"), snapshot: first[0].name.fileName, other: nil)
        XCTAssertEqual(compared.summary, WordDiff.Summary(added: 2, removed: 1))
        XCTAssertEqual(compared.snapshot.path, first[0].path)
        let between = try ws.compareSnapshot(
            try t("P/Draft/Spring.md"), snapshot: second[0].name.fileName, other: first[0].name.fileName)
        XCTAssertEqual(between.summary, WordDiff.Summary(added: 1, removed: 2))

        let (outcome, saved) = try ws.rollBack(try t("P/Draft/Spring.md"), to: first[0].name.fileName)
        XCTAssertEqual(fx.read("P/Draft/Spring.md"), "one two three four")
        XCTAssertEqual(saved.name.title, "Before rolling back")
        XCTAssertEqual(fx.read("P/\(home)/\(saved.name.fileName)"), "one two five four six", "nothing is lost")
        XCTAssertEqual(outcome.changes.map(\.kind), [.changed])
        XCTAssertEqual(try ws.snapshots(of: try t("P/Draft/Spring.md")).list.count, 3)
    }

    func testAFolderGetsOneOfEachFileButNotOfItsTrashOrCompiledDocuments() throws {
        let taken = try ws.takeSnapshot(try t("P/Draft/Cycle"), title: "Cycle done")
        XCTAssertEqual(taken.map { pathTail($0.of) }, ["a.md", "b.txt"])
        XCTAssertEqual(try ws.snapshots(of: try t("P/Draft/Cycle/b.txt")).list.first?.name.fileExtension, ".txt")
        let project = try ws.takeSnapshot(try t("P"), title: nil)
        XCTAssertFalse(project.contains { pathTail($0.of) == "old.md" }, "the Trash is out of the writing")
        XCTAssertFalse(project.contains { pathTail($0.of) == "P.md" }, "so are compiled documents")
        XCTAssertEqual(project.count, 3)
    }

    func testSnapshotsAreOutOfTheBinderAndItsCounts() throws {
        _ = try ws.takeSnapshot(try t("P/Draft/Spring.md"), title: "x")
        let again = Workspace()
        again.addLibrary(fx.bytes())
        let draft = try again.locate(fx.bytes("P/Draft"), uri: "d")
        XCTAssertEqual(again.describe(draft.item, .english).name, "Draft")
        guard case .entry(let root, _) = try again.locate(fx.bytes("P"), uri: "p") else { return XCTFail() }
        var names: [String] = []
        root.walk { e in
            names.append(e.name.string)
            return true
        }
        XCTAssertFalse(names.contains("snapshots"), "the scanner never shows .carrel")
        XCTAssertEqual(root.fileTotal, 5, "the five files of the fixture, and no snapshot")
    }

    func testRefusalsChangeNothing() throws {
        let before = fingerprint(fx.path)
        let big = String(repeating: "w ", count: Workspace.snapshotLimit / 2 + 1)
        try write("P/Draft/Cycle/big.md", big)
        ws = Workspace()
        ws.addLibrary(fx.bytes())
        let withBig = fingerprint(fx.path)
        XCTAssertEqual(
            refusal { _ = try self.ws.takeSnapshot(try self.t("P/Draft/Cycle/big.md"), title: nil) },
            Failure(.io, .snapshot(.tooLarge(name: "big.md", limit: Workspace.snapshotLimit))))
        XCTAssertEqual(
            refusal { _ = try self.ws.takeSnapshot(try self.t("P/Draft/Cycle"), title: nil) },
            Failure(.io, .snapshot(.tooLarge(name: "big.md", limit: Workspace.snapshotLimit))),
            "a folder is checked whole before any snapshot is written")
        XCTAssertEqual(
            refusal { _ = try self.ws.takeSnapshot(try self.t("Loose/note.md"), title: nil) },
            Failure(.notInProject, .snapshot(.outsideProject(name: "note.md"))))
        XCTAssertEqual(
            refusal { _ = try self.ws.takeSnapshot(try self.t("P/Trash/old.md"), title: nil) },
            Failure(.inTrash, .snapshot(.inTrash(name: "old.md"))))
        XCTAssertEqual(
            refusal { _ = try self.ws.takeSnapshot(try self.t("P/Draft/Spring.md"), title: "a/b") },
            Failure(.invalidName, .snapshot(.titleUnusable(title: "a/b"))))
        XCTAssertEqual(
            refusal { _ = try self.ws.rollBack(try self.t("P/Draft/Spring.md"), to: "nothing.md") },
            Failure(.notFound, .snapshot(.noSuchSnapshot(name: "Spring.md", snapshot: "nothing.md"))))
        XCTAssertEqual(fingerprint(fx.path), withBig)
        try FileManager.default.removeItem(atPath: fx.path + "/P/Draft/Cycle/big.md")
        XCTAssertEqual(fingerprint(fx.path), before)
    }

    func testUnsavedChangesInAnEditorRefuseARollBack() throws {
        let taken = try ws.takeSnapshot(try t("P/Draft/Spring.md"), title: nil)
        guard case .entry(let spring, _) = try t("P/Draft/Spring.md") else { return XCTFail() }
        ws.showBuffer(spring, text: Array("one two three four and more".utf8))
        let before = fingerprint(fx.path)
        XCTAssertEqual(
            refusal { _ = try self.ws.rollBack(try self.t("P/Draft/Spring.md"), to: taken[0].name.fileName) },
            Failure(.conflict, .snapshot(.unsavedChanges(name: "Spring.md"))))
        XCTAssertEqual(fingerprint(fx.path), before)
        ws.closeBuffer(spring)
        XCTAssertNoThrow(try ws.rollBack(try t("P/Draft/Spring.md"), to: taken[0].name.fileName))
    }

    func testHostileSnapshotFolderContentsAreSkippedWithWhyAndRefusedForUse() throws {
        let taken = try ws.takeSnapshot(try t("P/Draft/Spring.md"), title: "real")[0]
        let dir = fx.path + "/P/" + home
        let stamp = "2026-01-02T03-04-05.006Z 00000000-00000001 3w"
        try "elsewhere".write(toFile: fx.path + "/outside.txt", atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink(fx.path + "/outside.txt", dir + "/\(stamp) link.md"), 0)
        XCTAssertEqual(mkfifo(dir + "/\(stamp) pipe.md", 0o644), 0)
        try FileManager.default.createDirectory(atPath: dir + "/\(stamp) folder.md", withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/\(stamp) huge.md", contents: nil))
        XCTAssertEqual(truncate(dir + "/\(stamp) huge.md", off_t(Workspace.snapshotLimit + 1)), 0)
        try "x".write(toFile: dir + "/2026-01-02T03-04 cut.md", atomically: false, encoding: .utf8)
        try "x".write(toFile: dir + "/forged.md", atomically: false, encoding: .utf8)
        try "x".write(toFile: dir + "/.carrel-snapshot-1-2", atomically: false, encoding: .utf8)
        let (list, skipped) = try ws.snapshots(of: try t("P/Draft/Spring.md"))
        XCTAssertEqual(list.map(\.name), [taken.name])
        XCTAssertEqual(
            skipped,
            [
                SkippedSnapshot(name: "2026-01-02T03-04 cut.md", why: .notASnapshotName),
                SkippedSnapshot(name: "\(stamp) folder.md", why: .notAFile(.folder)),
                SkippedSnapshot(name: "\(stamp) huge.md", why: .tooLarge(Workspace.snapshotLimit)),
                SkippedSnapshot(name: "\(stamp) link.md", why: .notAFile(.link)),
                SkippedSnapshot(name: "\(stamp) pipe.md", why: .notAFile(.pipe)),
                SkippedSnapshot(name: "forged.md", why: .notASnapshotName),
            ], "a hidden temporary is not listed at all")
        let before = fingerprint(fx.path)
        for (name, why) in [
            ("\(stamp) link.md", SnapshotMessage.Problem.notAFile(.link)), ("\(stamp) pipe.md", .notAFile(.pipe)),
            ("\(stamp) folder.md", .notAFile(.folder)), ("\(stamp) huge.md", .tooLarge(Workspace.snapshotLimit)),
        ] {
            let unusable = Failure(.io, .snapshot(.snapshotUnusable(snapshot: name, why: why)))
            XCTAssertEqual(refusal { _ = try self.ws.rollBack(try self.t("P/Draft/Spring.md"), to: name) }, unusable)
            XCTAssertEqual(
                refusal {
                    _ = try self.ws.compareSnapshot(try self.t("P/Draft/Spring.md"), snapshot: name, other: nil)
                }, unusable)
        }
        for name in ["forged.md", "../../../../../outside.txt", "2026-01-02T03-04 cut.md"] {
            XCTAssertEqual(
                refusal { _ = try self.ws.rollBack(try self.t("P/Draft/Spring.md"), to: name) }?.reason, .notFound,
                name)
        }
        XCTAssertEqual(fingerprint(fx.path), before, "nothing read through a link, nothing changed")
        XCTAssertEqual(fx.read("outside.txt"), "elsewhere")
    }

    func testALinkWhereTheSnapshotFolderGoesIsNeverFollowed() throws {
        try FileManager.default.createDirectory(
            atPath: fx.path + "/P/.carrel/snapshots", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: fx.path + "/elsewhere", withIntermediateDirectories: true)
        XCTAssertEqual(symlink(fx.path + "/elsewhere", fx.path + "/P/.carrel/snapshots/Draft"), 0)
        XCTAssertEqual(
            refusal { _ = try self.ws.takeSnapshot(try self.t("P/Draft/Spring.md"), title: nil) }?.reason, .io)
        XCTAssertEqual(fx.listing("elsewhere", includeHidden: true), [], "nothing written through the link")
        XCTAssertEqual(
            refusal { _ = try self.ws.snapshots(of: try self.t("P/Draft/Spring.md")) }?.reason, .io,
            "a listing through a link is refused, not followed")
    }
}

/// The last component of a path, as a string.
func pathTail(_ path: [UInt8]) -> String {
    String(decoding: path.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
}
