import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore

/// A job carrying its folder's library path gets each Markdown link's
/// target resolved on the counting threads, as `LinkPath.resolve` finds it
/// from the file: the work thread then only files it.
final class CountingPoolLinkTargetsTests: XCTestCase {
    static let tree = """
        One.md = See [Ada](../Characters/Ada.md), [[Ada]] and [out](../../../Away.md).
        Two.md = [here](./Bea.md)
        """

    func testEachMarkdownLinkComesBackResolvedFromTheFolderGiven() throws {
        let fx = try Fixture(Self.tree)
        let dir = try Directory.open(fx.bytes())
        let folder = ["P", "Draft"]
        let jobs = ["One.md", "Two.md"].map { name in
            CountingPool.Job(
                folder: dir.fd, name: Array(name.utf8), format: .markdown, keepText: false, links: true,
                linkFolder: folder)
        }
        let results = CountingPool().run(jobs)
        XCTAssertEqual(results[0].targets, [["P", "Characters", "Ada.md"], nil, nil])
        XCTAssertEqual(results[1].targets, [["P", "Draft", "Bea.md"]])
        for (name, result) in zip(["One.md", "Two.md"], results) {
            let links = try XCTUnwrap(result.links)
            let resolved = links.map { $0.kind.isWiki ? nil : LinkPath.resolve($0.target, from: folder + [name]) }
            XCTAssertEqual(result.targets, resolved, name)
        }
    }

    /// Without a folder path (the index off, or an open buffer's file) nothing is resolved.
    func testAJobWithoutAFolderGetsNoTargets() throws {
        let fx = try Fixture(Self.tree)
        let dir = try Directory.open(fx.bytes())
        let job = CountingPool.Job(
            folder: dir.fd, name: Array("One.md".utf8), format: .markdown, keepText: false, links: true)
        let results = CountingPool().run([job, job])
        XCTAssertEqual(results.map(\.links?.count), [3, 3])
        XCTAssertEqual(results.map { $0.targets == nil }, [true, true])
    }
}
