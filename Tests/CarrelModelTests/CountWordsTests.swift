import CarrelModel
import XCTest

/// The words every client shows for a row's counts.
final class CountWordsTests: XCTestCase {
    func testSummaries() {
        let rows: [(Int, Language, String?)] = [
            (0, .english, nil), (1, .english, "1 file"), (2, .english, "2 files"), (999, .english, "999 files"),
            (1_243, .english, "1,243 files"), (1_000_000, .english, "1,000,000 files"),
            (0, .french, nil), (1, .french, "1 fichier"), (12, .french, "12 fichiers"),
            (1_243, .french, "1\u{202F}243 fichiers"),
        ]
        for (n, language, expected) in rows {
            XCTAssertEqual(CountWords.summary(files: n, language), expected, "\(n) \(language)")
        }
    }

    /// Conflict copies are counted apart, after the files; a copy's own row says what it is.
    func testConflictsAreCountedApart() {
        XCTAssertEqual(CountWords.summary(files: 3, conflicts: 1, .english), "3 files · 1 conflict")
        XCTAssertEqual(CountWords.summary(files: 0, conflicts: 2, .english), "2 conflicts")
        XCTAssertEqual(CountWords.summary(files: 1, conflicts: 2, .french), "1 fichier · 2 conflits")
        XCTAssertEqual(CountWords.summary(files: nil, conflictCopy: true, .english), "conflict copy")
        XCTAssertEqual(CountWords.summary(files: nil, conflictCopy: true, .french), "copie en conflit")
        XCTAssertNil(CountWords.summary(files: nil, .english))
    }

    /// While the first scan reads below a row, its summary says the count is partial.
    func testCountingEndsTheSummary() {
        XCTAssertEqual(CountWords.summary(files: 3, counting: true, .english), "3 files · counting…")
        XCTAssertEqual(CountWords.summary(files: 0, counting: true, .english), "counting…")
        XCTAssertEqual(CountWords.summary(files: 1, counting: true, .french), "1 fichier · comptage…")
        XCTAssertEqual(CountWords.summary(files: 0, counting: true, .french), "comptage…")
    }

    func testNumbersGroupByThousands() {
        XCTAssertEqual(CountWords.number(0, .english), "0")
        XCTAssertEqual(CountWords.number(100, .english), "100")
        XCTAssertEqual(CountWords.number(12_345, .english), "12,345")
        XCTAssertEqual(CountWords.number(123_456, .french), "123\u{202F}456")
        XCTAssertEqual(CountWords.number(-1_500, .english), "-1,500")
    }
}
