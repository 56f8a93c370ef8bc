import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// The link index takes each file's links from the read that counts its
/// words: after the first count, a link query reads no file again, and
/// finds what an index built on demand finds.
final class LinkIndexFromCountTests: StateFolderTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada.md = # Ada
        P/Draft/One.md = See [Ada](../Characters/Ada.md) and [[Ada]].
        P/Draft/Two.md = No link here at all.
        P/Draft/Three.fountain = INT. HOUSE\\n[her](../Characters/Ada.md)
        P/Notes/plain.txt = [not](a link file)
        """

    func counted(_ fx: Fixture) -> (Workspace, Library) {
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        ws.queueUncountedWords()
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
        return (ws, library)
    }

    func backlinks(_ ws: Workspace, _ library: Library) -> [String] {
        ws.backlinks(to: ["P", "Characters", "Ada.md"], in: library).map {
            "\($0.file.joined(separator: "/"))@\($0.link.start)-\($0.link.end):\($0.link.line)"
        }
    }

    func testAfterTheFirstCountALinkQueryReadsNoFile() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = counted(fx)
        let found = backlinks(ws, library)
        XCTAssertEqual(ws.linkIndexReads, 0, "every Markdown and Fountain file was read by counting")

        let onDemand = Workspace()
        let other = onDemand.addLibrary(fx.bytes())
        XCTAssertEqual(backlinks(onDemand, other), found)
        XCTAssertEqual(found.count, 3)
        XCTAssertGreaterThan(onDemand.linkIndexReads, 0, "without a count, the index reads the files")
    }

    /// A restart takes each file's links from the cache with its words: a
    /// link query then reads no file, and finds what a fresh index finds.
    func testAfterARestartALinkQueryReadsNoFile() throws {
        let fx = try Fixture(Self.tree)
        let (first, firstLibrary) = counted(fx)
        let found = backlinks(first, firstLibrary)
        let (ws, library) = counted(fx)
        XCTAssertEqual(backlinks(ws, library), found)
        XCTAssertEqual(found.count, 3)
        XCTAssertEqual(ws.linkIndexReads, 0, "every file's links came from the cache")
    }

    /// A file changed since the cache was written is counted again, and
    /// its links come from that read, not from the cache.
    func testAFileChangedBeforeARestartIsIndexedFromItsNewText() throws {
        let fx = try Fixture(Self.tree)
        _ = counted(fx)
        try fx.add("P/Draft/Two.md = Now [Ada](../Characters/Ada.md) too, at last.")
        let (ws, library) = counted(fx)
        XCTAssertEqual(backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Two.md") }.count, 1)
        XCTAssertEqual(ws.linkIndexReads, 0)
    }

    /// A file changed after its count is read again, not taken from the count's read.
    func testAFileChangedAfterItsCountIsReadAgain() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = counted(fx)
        try fx.add("P/Draft/Two.md = Now [Ada](../Characters/Ada.md) too.")
        ws.noteLinkChanges([Change(.changed, fx.bytes("P/Draft/Two.md"))])
        XCTAssertEqual(backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Two.md") }.count, 1)
        XCTAssertEqual(ws.linkIndexReads, 1)
    }

    /// An open buffer's links stand for its file's, whatever counting read.
    func testAnOpenBufferStandsForItsFileAfterTheCount() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = counted(fx)
        let two = try XCTUnwrap(library.root.child("P")?.child("Draft")?.child("Two.md"))
        ws.indexBuffer(two, text: Array("[Ada](../Characters/Ada.md)".utf8))
        XCTAssertEqual(backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Two.md") }.count, 1)
    }
}
