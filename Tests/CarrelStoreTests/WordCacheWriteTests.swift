import CarrelModel
import XCTest

@testable import CarrelStore

/// The word cache is written in pieces of a bounded size, never encoded
/// whole first: at 100,000 files the whole encoding, and its growth, came
/// on top of the cache itself at the first count's end. The pieces make
/// the same file.
final class WordCacheWriteTests: XCTestCase {
    func cache(files: Int) -> WordCache {
        var cache = WordCache()
        for i in 0..<files {
            let stamp = FileStamp(device: 3, inode: UInt64(i), size: UInt64(i * 7), modifiedNs: Int64(i) * 1_000)
            let links =
                i % 5 == 0
                ? [
                    CachedLink(
                        kind: .inline, target: "../Part \(i)/Scene \(i).md", start: 4, end: 30, line: 1,
                        startCharacter: 4, endCharacter: 30)
                ] : i % 2 == 0 ? [] : nil
            cache.note(stamp, words: Int32(i % 900), links: links)
        }
        return cache
    }

    func testTheCacheIsWrittenInBoundedPieces() throws {
        let cache = cache(files: 5_000)
        var pieces: [[UInt8]] = []
        XCTAssertTrue(
            cache.encode(pieceBytes: 4_096) {
                pieces.append($0); return true
            })
        XCTAssertGreaterThan(pieces.count, 10)
        let longest = try XCTUnwrap(pieces.map(\.count).max())
        XCTAssertLessThanOrEqual(longest, 4_096 + 200, "a piece is cut after the record that fills it")
        let decoded = try XCTUnwrap(WordCache.decode(Array(pieces.joined())))
        XCTAssertEqual(decoded.records, cache.records)
    }

    func testAFailedWriteStopsTheEncoding() {
        var calls = 0
        XCTAssertFalse(
            cache(files: 5_000).encode(pieceBytes: 4_096) { _ in
                calls += 1; return false
            })
        XCTAssertEqual(calls, 1)
    }

    func testFilesNoCountFoundAreLeftOut() throws {
        var cache = try XCTUnwrap(WordCache.decode(cache(files: 10).encode()))
        let kept = FileStamp(device: 3, inode: 4, size: 28, modifiedNs: 4_000)
        cache.markFound(kept)
        cache.note(FileStamp(device: 3, inode: 99, size: 1, modifiedNs: 1), words: 1)
        let written = try XCTUnwrap(WordCache.decode(cache.encode(droppingUnfound: true)))
        XCTAssertEqual(Set(written.records.keys.map(\.inode)), [4, 99])
    }
}
