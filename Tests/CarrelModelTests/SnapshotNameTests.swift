import CarrelModel
import XCTest

/// A snapshot's name: written and read back, and every other shape
/// (cut short, forged, another file's) is no snapshot.
final class SnapshotNameTests: XCTestCase {
    let sample = SnapshotName(
        takenMs: 1_795_828_500_123, device: "a1b2c3d4", random: "9f8e7d6c", words: 1234, title: "Before the cut",
        fileExtension: ".md")

    func testWrittenAndReadBack() {
        XCTAssertEqual(sample.fileName, "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1234w Before the cut.md")
        XCTAssertEqual(SnapshotName.parse(sample.fileName, fileExtension: ".md"), sample)
        XCTAssertEqual(sample.displayDate, "2026-11-28 01:15 UTC")
        var untitled = sample
        untitled.title = nil
        untitled.fileExtension = ""
        XCTAssertEqual(untitled.fileName, "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1234w")
        XCTAssertEqual(SnapshotName.parse(untitled.fileName, fileExtension: ""), untitled)
        let epoch = SnapshotName(
            takenMs: 0, device: "00000000", random: "ffffffff", words: 0, title: nil, fileExtension: ".txt")
        XCTAssertEqual(SnapshotName.parse(epoch.fileName, fileExtension: ".txt")?.takenMs, 0)
    }

    func testASnapshotTakenBeforeARenameToAnotherExtensionKeepsItsOwn() {
        XCTAssertEqual(SnapshotName.parse(sample.fileName, ofFileWith: ".txt"), sample)
        XCTAssertEqual(SnapshotName.parse(sample.fileName, ofFileWith: ".fountain")?.title, "Before the cut")
        var plain = sample
        plain.title = nil
        XCTAssertEqual(SnapshotName.parse(plain.fileName, ofFileWith: ""), plain)
        var text = sample
        text.fileExtension = ".txt"
        XCTAssertEqual(SnapshotName.parse(text.fileName, ofFileWith: ".txt"), text, "the file's own first")
        XCTAssertNil(SnapshotName.parse("2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1234w", ofFileWith: ".md"))
        XCTAssertNil(SnapshotName.parse("notes.md", ofFileWith: ".txt"))
    }

    func testOtherShapesAreNoSnapshot() {
        let names = [
            "", "notes.md", "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1234w.txt",  // another extension
            "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1234w",  // no extension where the file has one
            "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c.md",  // cut short: no words
            "2026-11-28T01-15-00.123Z a1b2c3d4.md",
            "2026-11-28T01-15.md",
            "2026-11-28T01-15-00.123Z A1B2C3D4-9f8e7d6c 1w.md",  // upper-case hex
            "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1234567890w.md",  // ten digits of words
            "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c -1w.md",
            "2026-02-30T01-15-00.123Z a1b2c3d4-9f8e7d6c 1w.md",  // no such day
            "1969-12-31T23-59-59.999Z a1b2c3d4-9f8e7d6c 1w.md",
            "2026-11-28T24-00-00.000Z a1b2c3d4-9f8e7d6c 1w.md",
            "2026-11-28T01:15:00.123Z a1b2c3d4-9f8e7d6c 1w.md",
            "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1wtitle.md",
            "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1w  .md",  // a title of spaces
            "2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1w a\tb.md",
        ]
        for name in names { XCTAssertNil(SnapshotName.parse(name, fileExtension: ".md"), name) }
    }

    func testTitles() throws {
        XCTAssertEqual(try SnapshotName.checkTitle("  Before the cut \n"), "Before the cut")
        XCTAssertNil(try SnapshotName.checkTitle("   "))
        for bad in ["a/b", "a\tb", "a\u{0}b"] {
            XCTAssertThrowsError(try SnapshotName.checkTitle(bad), bad) { e in
                XCTAssertEqual((e as? Failure)?.message, .snapshot(.titleUnusable(title: bad)))
            }
        }
        let long = String(repeating: "é", count: 61)
        XCTAssertThrowsError(try SnapshotName.checkTitle(long)) { e in
            XCTAssertEqual((e as? Failure)?.message, .snapshot(.titleTooLong(bytes: 122, limit: 120)))
        }
        let longest = try SnapshotName.checkTitle(String(repeating: "é", count: 60))
        var name = sample
        name.title = longest
        name.words = SnapshotName.maxWords
        XCTAssertLessThanOrEqual(name.fileName.utf8.count, 255, "the longest name fits a filesystem's")
        XCTAssertEqual(SnapshotName.parse(name.fileName, fileExtension: ".md"), name)
    }

    /// A title composed from a market's name is made to fit rather than refused.
    func testAComposedTitleFits() throws {
        XCTAssertEqual(SnapshotName.fittingTitle("Sent to Poetry/Prose"), "Sent to Poetry-Prose")
        XCTAssertEqual(SnapshotName.fittingTitle("Sent to A\tB\u{0}"), "Sent to A-B-")
        XCTAssertNil(SnapshotName.fittingTitle("  "))
        let long = try XCTUnwrap(SnapshotName.fittingTitle("Sent to " + String(repeating: "é", count: 300)))
        XCTAssertEqual(long.utf8.count, 120, "cut on a character to the longest title")
        XCTAssertEqual(try SnapshotName.checkTitle(long), long)
    }

    func testNamesSortByTime() {
        var later = sample
        later.takenMs += 1
        XCTAssertLessThan(sample.fileName, later.fileName)
    }
}
