import CarrelModel
import CarrelStore
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// A first count's word cache is sized for the library's files when they
/// are queued, so it never grows at the pass's end, when the model and the
/// links index are whole: at 100,000 files its last growth held 25 MB at
/// once, the cold start's peak.
final class WordCacheSizingTests: StateFolderTestCase {
    func library(files: Int) throws -> Fixture {
        let lines = (0..<files).map { "P/Draft/Scene \($0).md = a few words \($0)" }
        return try Fixture((["P/.carrel/project.json = {\"type\":\"novel\"}"] + lines).joined(separator: "\n"))
    }

    func testAColdCountsCacheHoldsEveryFileQueuedBeforeItFills() throws {
        let fx = try library(files: 300)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        ws.queueUncountedWords()
        let sized = ws.wordCacheCapacity(library)
        XCTAssertGreaterThanOrEqual(sized, 300, "room for every file before the first is counted")
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
        XCTAssertEqual(library.root.wordTotal, 300 * 4)
    }
}
