import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// The links index keeps only the files that hold a link: in a library of
/// 100,000 scenes most hold none, and a path kept for each cost more than
/// the links. A file without links is still read once only, whether
/// counting read it or the first link query did, and the answers are
/// those of every file kept.
final class LinkIndexSizeTests: LinkIndexTestCase {
    func keptFiles(_ ws: Workspace, _ library: Library) -> [String] {
        (ws.linkIndexes[ObjectIdentifier(library.root)]?.table.files.keys.map { $0.joined(separator: "/") } ?? [])
            .sorted()
    }

    func item(_ ws: Workspace, _ fx: Fixture, _ path: String) throws -> Workspace.Target {
        try ws.locate(fx.bytes(path), uri: fx.uri(path))
    }

    func testAfterTheCountOnlyFilesWithLinksAreKept() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = Workspace.counted(fx)
        XCTAssertEqual(keptFiles(ws, library), ["P/Draft/One.md", "P/Draft/Three.fountain"])
        XCTAssertEqual(backlinks(ws, library).count, 3)
        XCTAssertEqual(keptFiles(ws, library), ["P/Draft/One.md", "P/Draft/Three.fountain"])
        XCTAssertEqual(ws.linkIndexReads, 0, "files counted without links are not read again")
    }

    func testWithoutACountOnlyFilesWithLinksAreKeptAndEachIsReadOnce() throws {
        let fx = try Fixture(Self.tree)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        XCTAssertEqual(backlinks(ws, library).count, 3)
        XCTAssertEqual(keptFiles(ws, library), ["P/Draft/One.md", "P/Draft/Three.fountain"])
        let reads = ws.linkIndexReads
        XCTAssertEqual(reads, 4, "each Markdown and Fountain file read once")
        _ = backlinks(ws, library)
        _ = ws.links(of: ["P", "Draft", "Two.md"], in: library)
        XCTAssertEqual(ws.linkIndexReads, reads, "a file without links is not read again for each query")
    }

    /// A file that gains its first link is kept from then on, and one that
    /// loses its last is forgotten.
    func testAFileIsKeptWhileItHoldsLinks() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = Workspace.counted(fx)
        _ = backlinks(ws, library)
        try fx.add("P/Draft/Two.md = Now [Ada](../Characters/Ada.md).")
        try fx.add("P/Draft/One.md = No more links.")
        ws.noteLinkChanges([
            Change(.changed, fx.bytes("P/Draft/Two.md")), Change(.changed, fx.bytes("P/Draft/One.md")),
        ])
        XCTAssertEqual(keptFiles(ws, library), ["P/Draft/Three.fountain", "P/Draft/Two.md"])
        XCTAssertEqual(backlinks(ws, library).map { $0.prefix(14) }, ["P/Draft/Three.", "P/Draft/Two.md"])
    }

    /// A file counted, then moved before the first link query, has its
    /// links found where it now is.
    func testAFileMovedBeforeTheFirstQueryKeepsItsLinks() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = Workspace.counted(fx)
        ws.noteLinkChanges(try ws.rename(try item(ws, fx, "P/Draft/One.md"), to: "Uno.md").changes)
        XCTAssertEqual(
            backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Uno.md") }.count, 2,
            "both links of the moved file")
    }

    /// A file counted without links, then opened with links in its buffer
    /// and closed, before the first query: its disk text is what counts.
    func testABufferOpenedBeforeTheFirstQueryStandsForItsFile() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = Workspace.counted(fx)
        let two = try XCTUnwrap(library.root.child("P")?.child("Draft")?.child("Two.md"))
        ws.indexBuffer(two, text: Array("[Ada](../Characters/Ada.md)".utf8))
        XCTAssertEqual(backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Two.md") }.count, 1)
        ws.indexBuffer(two, text: nil)
        XCTAssertEqual(backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Two.md") }.count, 0)
    }
}
