import CarrelModel
import XCTest

/// Submissions' pure rules: days read from untrusted text, and what a
/// row says of a piece's or a market's submissions.
final class SubmissionTests: XCTestCase {
    func testADayIsReadDigitByDigitAndForgedOnesAreRefused() {
        XCTAssertEqual(SubmissionDay("2024-02-29")?.description, "2024-02-29")
        for forged in [
            "2023-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "0000-01-01", "2026-1-01", "２０２６-01-01",
            "99999999999-01-01", "2026-01-01T00", "", "-001-01-01",
        ] {
            XCTAssertNil(SubmissionDay(forged), forged)
        }
    }

    func testDaysCountAcrossMonthsYearsAndTheEpoch() throws {
        let a = try XCTUnwrap(SubmissionDay("2026-12-28"))
        let b = try XCTUnwrap(SubmissionDay("2027-01-04"))
        XCTAssertEqual(b.ordinal - a.ordinal, 7)
        XCTAssertEqual(SubmissionDay("1970-01-01")?.ordinal, 0)
        XCTAssertEqual(SubmissionDay(epochMs: 1_763_856_000_000).description, "2025-11-23")
        XCTAssertEqual(SubmissionDay(epochMs: -5).description, "1970-01-01", "a clock before the epoch is the epoch")
        XCTAssertEqual(SubmissionDay(epochMs: .max).description, "9999-12-31", "no stamp traps")
    }

    func testATallySaysWhereAPieceIsOutInEnglishAndFrench() {
        var t = SubmissionTally()
        XCTAssertNil(t.text(forMarket: false, .english))
        for s: SubmissionStatus in [.pending, .shortlisted, .rejected, .rejected, .noResponse, .noResponse] { t.add(s) }
        XCTAssertEqual(t.text(forMarket: false, .english), "out at 2 · 2 rejected · 2 no response")
        XCTAssertEqual(t.text(forMarket: false, .french), "soumis à 2 · 2 refusés · 2 sans réponse")
        XCTAssertEqual(t.text(forMarket: true, .english), "2 pending · 2 rejected · 2 no response")
        XCTAssertEqual(t.text(forMarket: true, .french), "2 en attente · 2 refusés · 2 sans réponse")
    }
}
