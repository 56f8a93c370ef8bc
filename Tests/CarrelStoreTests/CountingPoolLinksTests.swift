import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore

/// The counting threads parse a Markdown or Fountain file's links from the
/// read that counts its words, so the work thread, which waits for both,
/// only files them in the index.
final class CountingPoolLinksTests: XCTestCase {
    static let tree = """
        One.md = See [Ada](../Characters/Ada.md) and [[Ada]].
        Two.md = No link here at all.
        Three.fountain = INT. HOUSE [her](../Characters/Ada.md)
        Four.md = [not asked](Ada.md)
        Five.md = `[code](not.md)` only
        """

    func testEachJobAskingGetsTheLinksOfItsOwnRead() throws {
        let fx = try Fixture(Self.tree)
        try "# Title\n\nélan [Bea](Bea.md)\n".write(to: fx.url("Six.md"), atomically: false, encoding: .utf8)
        let dir = try Directory.open(fx.bytes())
        let names = ["One.md", "Two.md", "Three.fountain", "Four.md", "Five.md", "Six.md"]
        let jobs = names.map { name in
            CountingPool.Job(
                folder: dir.fd, name: Array(name.utf8), format: WordCount.Format(fileName: name), keepText: false,
                links: name != "Four.md")
        }
        let results = CountingPool().run(jobs)
        XCTAssertEqual(results.map(\.links?.count), [2, 0, 1, nil, 0, 1])
        for (name, result) in zip(names, results) where name != "Four.md" {
            let text = try XCTUnwrap(dir.readText(Array(name.utf8))).bytes
            XCTAssertEqual(result.links, CachedLink.parse(text), name)
            XCTAssertEqual(result.words, WordCount.count(text, WordCount.Format(fileName: name)), name)
        }
        XCTAssertEqual(
            results[5].links,
            [
                CachedLink(
                    kind: .inline, target: "Bea.md", start: 21, end: 27, line: 2, startCharacter: 11, endCharacter: 17)
            ])
    }

    /// A text holding no `[` holds no link: the parse is never started.
    func testATextWithoutABracketHasNoLinks() {
        XCTAssertEqual(CachedLink.parse(Array("No link here, (none) ]] at all.".utf8)), [])
        XCTAssertEqual(CachedLink.parse([]), [])
    }
}
