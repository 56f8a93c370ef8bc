import CarrelModel
import CarrelStore
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelWorkspace

/// A restart's first count takes unchanged files' words from the cache
/// written by the last one, and holds each file's record once while it
/// does: at 100,000 files, a second copy of the cache was the server's
/// largest allocation. The cache it writes at the end holds the files
/// there are, and nothing is written when nothing changed.
final class WordCacheRestartTests: StateFolderTestCase {
    static let files = 40

    func library() throws -> Fixture {
        let lines = (0..<Self.files).map { "P/Draft/Scene \($0).md = word \(String(repeating: "more ", count: $0))" }
        return try Fixture((["P/.carrel/project.json = {\"type\":\"novel\"}"] + lines).joined(separator: "\n"))
    }

    func testARestartHoldsEachCachedCountOnceWhileCounting() throws {
        let fx = try library()
        _ = Workspace.counted(fx)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        ws.queueUncountedWords()
        _ = ws.countQueuedWords(files: 2)
        XCTAssertTrue(ws.hasWordsToCount, "the restart is half-way through its first count")
        XCTAssertEqual(ws.wordCacheRecordsHeld(library), Self.files, "one record a file, not the cache's and a copy")
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
        XCTAssertEqual(library.root.wordTotal, (0..<Self.files).reduce(0) { $0 + 1 + $1 })
    }

    func testARestartWithNothingChangedWritesNoCache() throws {
        let fx = try library()
        let (_, first) = Workspace.counted(fx)
        let before = WordCache.load(for: first.path).records
        let file = try XCTUnwrap(cacheFile())
        var written = stat()
        XCTAssertEqual(stat(file, &written), 0)
        _ = Workspace.counted(fx)
        var after = stat()
        XCTAssertEqual(stat(file, &after), 0)
        XCTAssertEqual(after.st_ino, written.st_ino, "the cache was not written again")
        XCTAssertEqual(WordCache.load(for: first.path).records, before)
    }

    func testTheCacheARestartWritesHoldsOnlyTheFilesThereAre() throws {
        let fx = try library()
        _ = Workspace.counted(fx)
        XCTAssertEqual(unlink(fx.path + "/P/Draft/Scene 3.md"), 0)
        try fx.add("P/Draft/Scene 4.md = " + String(repeating: "changed ", count: 100))
        let (ws, library) = Workspace.counted(fx)
        XCTAssertEqual(ws.wordCacheRecordsHeld(library), 0, "the first pass ended and let its records go")
        let cache = WordCache.load(for: library.path)
        XCTAssertEqual(cache.records.count, Self.files - 1, "Scene 3 is gone, the rest are kept")
        XCTAssertEqual(cache.records.values.filter { $0.words == 100 }.count, 1, "Scene 4 as it reads now")
        let (restarted, again) = Workspace.counted(fx)
        XCTAssertEqual(again.root.wordTotal, library.root.wordTotal)
        XCTAssertEqual(restarted.wordCacheRecordsHeld(again), 0)
    }

    /// The one cache file in the state folder's `words`.
    func cacheFile() -> String? {
        let folder = state.path + "/carrel/words"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.first { $0.hasSuffix(".counts") }.map { folder + "/" + $0 }
    }
}
