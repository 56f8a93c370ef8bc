import CarrelModel
import XCTest

@testable import CarrelStore

/// The word cache keeps each file's links beside its count (version 2),
/// and is read untrusted: any count, length, kind or position out of place
/// rejects the whole file, and a version 1 file still gives its counts.
final class WordCacheLinksTests: XCTestCase {
    let stamp = FileStamp(device: 7, inode: 42, size: 120, modifiedNs: 1_700_000_000_123_456_789)
    let plain = FileStamp(device: 7, inode: 43, size: 10, modifiedNs: 5)
    let links = [
        CachedLink(
            kind: .inline, target: "../Characters/Ada.md", start: 5, end: 25, line: 0, startCharacter: 5,
            endCharacter: 25),
        CachedLink(kind: .wiki, target: "Bea é", start: 40, end: 46, line: 2, startCharacter: 2, endCharacter: 7),
    ]

    func encoded() -> [UInt8] {
        var cache = WordCache()
        cache.note(stamp, words: 12, links: links)
        cache.note(plain, words: 3)
        return cache.encode()
    }

    func testLinksComeBackWithTheirCount() throws {
        let cache = try XCTUnwrap(WordCache.decode(encoded()))
        XCTAssertEqual(cache.record(stamp), WordCache.Record(stamp: stamp, words: 12, links: links))
        XCTAssertEqual(cache.record(plain), WordCache.Record(stamp: plain, words: 3, links: nil))
        var changed = stamp
        changed.size += 1
        XCTAssertNil(cache.record(changed), "a changed file's links are not taken")
    }

    /// A cut inside a record refuses the file; one between records is a
    /// shorter cache, of whole records as written.
    func testATruncatedRecordIsNeverRead() throws {
        let bytes = encoded()
        let whole = try XCTUnwrap(WordCache.decode(bytes))
        var shorter = 0
        for cut in WordCache.magic.count + 1..<bytes.count {
            guard let cache = WordCache.decode(Array(bytes[..<cut])) else { continue }
            shorter += 1
            XCTAssertEqual(cache.records.count, 1, "cut at \(cut)")
            for (key, record) in cache.records { XCTAssertEqual(whole.records[key], record, "cut at \(cut)") }
        }
        XCTAssertEqual(shorter, 1, "only the cut between the two records reads")
    }

    /// The first record's link data starts after its 36 bytes of stamp and words.
    func forged(_ change: (inout [UInt8], Int) -> Void) -> WordCache? {
        var cache = WordCache()
        cache.note(stamp, words: 12, links: [links[0]])
        var bytes = cache.encode()
        change(&bytes, WordCache.magic.count + WordCache.recordSize)
        return WordCache.decode(bytes)
    }

    func testForgedLinksAreRefused() {
        XCTAssertNotNil(forged { _, _ in })
        XCTAssertNil(
            forged { b, at in
                b[at] = 0xFF; b[at + 1] = 0xFF; b[at + 2] = 0xFF; b[at + 3] = 0x7F
            }, "a count past the end")
        XCTAssertNil(forged { b, at in b[at + 4] = 9 }, "an unknown kind")
        XCTAssertNil(forged { b, at in b[at + 8] = 0x80 }, "a negative start")
        XCTAssertNil(forged { b, at in b[at + 5] = 200 }, "a start after its end")
        XCTAssertNil(
            forged { b, at in
                b[at + 25] = 0xFF; b[at + 26] = 0xFF
            }, "a target past the end")
    }

    func testAVersionOneCacheGivesCountsWithoutLinks() throws {
        var one = WordCache()
        one.note(stamp, words: 12, links: links)
        var bytes = WordCache.magicWithoutLinks
        var record = one.encode()[WordCache.magic.count..<(WordCache.magic.count + WordCache.recordSize)]
        bytes += record
        var cache = try XCTUnwrap(WordCache.decode(bytes))
        XCTAssertEqual(cache.record(stamp), WordCache.Record(stamp: stamp, words: 12, links: nil))
        record.removeLast()
        XCTAssertNil(WordCache.decode(WordCache.magicWithoutLinks + record))
        cache = WordCache()
        XCTAssertTrue(cache.isEmpty)
    }
}
