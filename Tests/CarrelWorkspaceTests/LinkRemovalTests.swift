import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// The index keeps only files holding a link, so a removed path it does
/// not hold may be a file without links or a folder. Either way, the index
/// finds what leaves by the path itself: only a folder with linking files
/// below it costs a look at the linking files.
final class LinkRemovalTests: StateFolderTestCase {
    static let linking = 12

    static var tree: String {
        var lines = [
            #"P/.carrel/project.json = {"type":"novel"}"#,
            "P/Characters/Ada.md = # Ada",
            "P/Notes/plain.md = No link here at all.",
            "P/Notes/Empty/quiet.md = Nor here.",
            "P/Research/Deep/cites.md = [Ada](../../Characters/Ada.md)",
        ]
        for n in 0..<linking { lines.append("P/Draft/Scene \(n).md = See [Ada](../Characters/Ada.md) and [[Ada]].") }
        return lines.joined(separator: "\n")
    }

    func opened(_ fx: Fixture) -> (Workspace, Library) {
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        _ = ws.wikiNames(library)
        return (ws, library)
    }

    func looks(_ ws: Workspace, _ library: Library) -> Int { ws.linkIndex(library).table.removalLooks }

    func linkingFiles(_ ws: Workspace, _ library: Library) -> [String] {
        ws.linkIndex(library).table.files.keys.map { $0.joined(separator: "/") }.sorted()
    }

    /// Deleting for good a file without links, from the Trash.
    func testAFileWithoutLinksDeletedForGoodLooksAtNoLinkingFile() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        let before = linkingFiles(ws, library)
        ws.noteLinkChanges(
            try ws.delete(try ws.locate(fx.bytes("P/Notes/plain.md"), uri: fx.uri("P/Notes/plain.md"))).changes)
        let trashed = try XCTUnwrap(library.projects.values.first?.trash?.child("plain.md"))
        ws.noteLinkChanges(try ws.delete(.entry(trashed, library)).changes)
        XCTAssertNil(ws.entry(at: ["P", "Trash", "plain.md"], in: library))
        XCTAssertEqual(looks(ws, library), 0)
        XCTAssertEqual(linkingFiles(ws, library), before)
    }

    /// Another program removed a file without links: the watcher's reconcile reports it deleted.
    func testAFileWithoutLinksRemovedOutsideLooksAtNoLinkingFile() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        let before = linkingFiles(ws, library)
        XCTAssertEqual(unlink(fx.url("P/Notes/plain.md").path), 0)
        let notes = try XCTUnwrap(ws.entry(at: ["P", "Notes"], in: library))
        let changes = ws.reconcile(notes)
        XCTAssertEqual(changes.map(\.kind), [.deleted])
        ws.noteLinkChanges(changes)
        XCTAssertEqual(looks(ws, library), 0)
        XCTAssertEqual(linkingFiles(ws, library), before)
    }

    /// A folder holding no linking file is as quick to forget as a file.
    func testAFolderWithoutLinkingFilesLooksAtNoLinkingFile() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        let before = linkingFiles(ws, library)
        try removeTree(fx.url("P/Notes/Empty"))
        let notes = try XCTUnwrap(ws.entry(at: ["P", "Notes"], in: library))
        ws.noteLinkChanges(ws.reconcile(notes))
        XCTAssertNil(ws.entry(at: ["P", "Notes", "Empty"], in: library))
        XCTAssertEqual(looks(ws, library), 0)
        XCTAssertEqual(linkingFiles(ws, library), before)
    }

    /// A folder's removal still forgets every linking file below it, and
    /// one removed deeper than its files' folder too.
    func testAFolderWithLinkingFilesForgetsThemAll() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = opened(fx)
        try removeTree(fx.url("P/Draft"))
        try removeTree(fx.url("P/Research"))
        let project = try XCTUnwrap(ws.entry(at: ["P"], in: library))
        ws.noteLinkChanges(ws.reconcile(project))
        XCTAssertEqual(linkingFiles(ws, library), [])
        XCTAssertGreaterThan(looks(ws, library), 0)
        XCTAssertEqual(ws.linkIndex(library).table.inbound.count, 0)
        XCTAssertEqual(ws.backlinks(to: ["P", "Characters", "Ada.md"], in: library).count, 0)
    }

    func removeTree(_ url: URL) throws { try FileManager.default.removeItem(at: url) }
}
