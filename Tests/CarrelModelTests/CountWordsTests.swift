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

/// Every part a summary can say, composed in one place, in both languages.
final class CountWordsPartsTests: XCTestCase {
    func testWordsTargetsUnsavedAndToday() {
        var c = CountWords.Counts(files: 3, words: 1_243)
        XCTAssertEqual(CountWords.summary(c, .english), "3 files · 1,243 words")
        XCTAssertEqual(CountWords.summary(c, .french), "3 fichiers · 1\u{202F}243 mots")
        c.target = 1_500
        XCTAssertEqual(CountWords.summary(c, .english), "3 files · 1,243 / 1,500 words")
        c.sessionWords = 250
        XCTAssertEqual(
            CountWords.summary(c, .english), "3 files · 1,243 / 1,500 words", "today only against a daily target")
        c.sessionTarget = 500
        XCTAssertEqual(CountWords.summary(c, .english), "3 files · 1,243 / 1,500 words · today 250 / 500")
        XCTAssertEqual(
            CountWords.summary(c, .french), "3 fichiers · 1\u{202F}243 / 1\u{202F}500 mots · aujourd’hui 250 / 500")
        var file = CountWords.Counts(words: 1)
        XCTAssertEqual(CountWords.summary(file, .english), "1 word")
        file.wordsUnsaved = true
        XCTAssertEqual(CountWords.summary(file, .english), "1 word (unsaved)")
        XCTAssertEqual(CountWords.summary(file, .french), "1 mot (non enregistré)")
        XCTAssertNil(
            CountWords.summary(CountWords.Counts(files: 0, words: 0), .english), "an empty folder says nothing")
        XCTAssertEqual(CountWords.summary(CountWords.Counts(files: 0, words: 0, target: 10), .english), "0 / 10 words")
    }
}
