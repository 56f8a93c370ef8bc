import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// The link index takes each file's links from the read that counts its
/// words: after the first count, a link query reads no file again, and
/// finds what an index built on demand finds.
final class LinkIndexFromCountTests: LinkIndexTestCase {
    func testAfterTheFirstCountALinkQueryReadsNoFile() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = Workspace.counted(fx)
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
        let (first, firstLibrary) = Workspace.counted(fx)
        let found = backlinks(first, firstLibrary)
        let (ws, library) = Workspace.counted(fx)
        XCTAssertEqual(backlinks(ws, library), found)
        XCTAssertEqual(found.count, 3)
        XCTAssertEqual(ws.linkIndexReads, 0, "every file's links came from the cache")
    }

    /// A file changed since the cache was written is counted again, and
    /// its links come from that read, not from the cache.
    func testAFileChangedBeforeARestartIsIndexedFromItsNewText() throws {
        let fx = try Fixture(Self.tree)
        _ = Workspace.counted(fx)
        try fx.add("P/Draft/Two.md = Now [Ada](../Characters/Ada.md) too, at last.")
        let (ws, library) = Workspace.counted(fx)
        XCTAssertEqual(backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Two.md") }.count, 1)
        XCTAssertEqual(ws.linkIndexReads, 0)
    }

    /// A file changed after its count is read again, not taken from the count's read.
    func testAFileChangedAfterItsCountIsReadAgain() throws {
        let fx = try Fixture(Self.tree)
        let (ws, library) = Workspace.counted(fx)
        try fx.add("P/Draft/Two.md = Now [Ada](../Characters/Ada.md) too.")
        ws.noteLinkChanges([Change(.changed, fx.bytes("P/Draft/Two.md"))])
        XCTAssertEqual(backlinks(ws, library).filter { $0.hasPrefix("P/Draft/Two.md") }.count, 1)
        XCTAssertEqual(ws.linkIndexReads, 1)
    }
}
