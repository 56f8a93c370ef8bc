import CarrelModel
import XCTest

/// The word diff behind a snapshot's comparison: which words one text
/// adds to another and removes from it, as a table.
final class WordDiffTests: XCTestCase {
    func summary(_ old: String, _ new: String) -> WordDiff.Summary {
        WordDiff.compare(Array(old.utf8), Array(new.utf8))
    }

    func testTable() {
        let rows: [(old: String, new: String, added: Int, removed: Int, why: String)] = [
            ("", "", 0, 0, "nothing"),
            ("one two", "one two", 0, 0, "the same"),
            ("one  two\n", "one\ttwo", 0, 0, "white space is no word"),
            ("", "one two three", 3, 0, "all added"),
            ("one two three", "", 0, 3, "all removed"),
            ("one two three four", "one two five four six", 2, 1, "one replaced, one added at the end"),
            ("a b c", "c a b", 1, 1, "a word moved counts where it left and where it went"),
            ("the cut.", "the cut,", 1, 1, "punctuation belongs to its word"),
            ("Été été", "Été ete", 1, 1, "accents count"),
            ("x x x", "x", 0, 2, "repeated words"),
            ("a b a b", "b a b a", 1, 1, "the longest common run is kept"),
        ]
        for r in rows {
            XCTAssertEqual(summary(r.old, r.new), WordDiff.Summary(added: r.added, removed: r.removed), r.why)
        }
    }

    func testPastTheExactLimitTheCountIsByWordsEachSideHasMore() {
        let n = WordDiff.exactLimit / 2 + 10
        let old = (0..<n).map { "o\($0)" }.joined(separator: " ")
        let new = (0..<n).map { "n\($0)" }.joined(separator: " ")
        XCTAssertEqual(summary(old, new), WordDiff.Summary(added: n, removed: n))
    }

    func testSummaryText() {
        XCTAssertEqual(WordDiff.Summary(added: 120, removed: 40).text(.english), "+120 −40 words")
        XCTAssertEqual(WordDiff.Summary(added: 1200, removed: 0).text(.english), "+1,200 −0 words")
        XCTAssertEqual(WordDiff.Summary(added: 1, removed: 0).text(.english), "+1 −0 word")
        XCTAssertEqual(WordDiff.Summary(added: 2, removed: 3).text(.french), "+2 −3 mots")
    }
}
