import CarrelModel
import CarrelStore
import CarrelTestSupport
import XCTest

@testable import CarrelWorkspace

/// A count's Markdown links are resolved to library paths by the counting
/// threads, from the folder path each job carries: the work thread, which
/// waits for both, only files them in the index.
final class LinkIndexResolvedOnCountTests: StateFolderTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada.md = # Ada
        P/Characters/Bea.md = # Bea [[Ada]]
        P/Draft/One.md = See [Ada](../Characters/Ada.md) and [Bea](../Characters/Bea.md).
        P/Draft/Two.fountain = INT. HOUSE [her](../Characters/Ada.md)
        P/Draft/Three.md = [out](../../../Away.md)
        """

    func counted(_ ws: Workspace) {
        ws.queueUncountedWords()
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
    }

    func testAColdCountResolvesNoLinkOnTheWorkThread() throws {
        let fx = try Fixture(Self.tree)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        counted(ws)
        XCTAssertEqual(ws.linksResolvedOnWorkThread, 0)
        let ada = ["P", "Characters", "Ada.md"]
        XCTAssertEqual(
            Set(ws.backlinks(to: ada, in: library).map(\.file)),
            [["P", "Characters", "Bea.md"], ["P", "Draft", "One.md"], ["P", "Draft", "Two.fountain"]])
        XCTAssertEqual(
            ws.backlinks(to: ["P", "Characters", "Bea.md"], in: library).map(\.file), [["P", "Draft", "One.md"]])
        XCTAssertEqual(ws.linkIndexReads, 0)
    }

    /// Each link as counting filed it is the link the index would have
    /// built from the file's text itself: a target leading out of the
    /// library resolves to none, a wikilink to no path.
    func testTheCountedLinksAreThoseTheTextGives() throws {
        let fx = try Fixture(Self.tree)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        counted(ws)
        let index = try XCTUnwrap(ws.linkIndexes[ObjectIdentifier(library.root)])
        for file in ["P/Characters/Bea.md", "P/Draft/One.md", "P/Draft/Two.fountain", "P/Draft/Three.md"] {
            let path = file.split(separator: "/").map(String.init)
            let text = try XCTUnwrap(FileManager.default.contents(atPath: fx.url(file).path))
            let fromText = Workspace.indexed([UInt8](text), from: path)
            let filed = try XCTUnwrap(index.table[path], file)
            XCTAssertEqual(filed.map(\.resolved), fromText.map(\.resolved), file)
            XCTAssertEqual(filed.map(\.name), fromText.map(\.name), file)
            XCTAssertEqual(filed.map(\.start), fromText.map(\.start), file)
        }
        XCTAssertEqual(index.table[["P", "Draft", "Three.md"]]?.first?.resolved ?? nil, nil)
    }
}
