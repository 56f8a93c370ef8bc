import CarrelModel
import XCTest

/// Chillsubs' CSV read as untrusted text: quoting, line breaks in fields,
/// a byte-order mark, columns in any order, every value checked.
final class ChillsubsCSVTests: XCTestCase {
    func testQuotedFieldsLineBreaksAndColumnsInAnyOrder() {
        let text =
            "\u{FEFF}Status,Notes,Title,Date Submitted,Publisher\r\n"
            + "Rejected,\"two\nlines, \"\"quoted\"\"\",Spring,2026-11-20,Granta\r\n" + ",,Moon,1/2/2027,Review\n"
        let (rows, skipped) = ChillsubsCSV.read(text)
        XCTAssertTrue(skipped.isEmpty)
        XCTAssertEqual(rows.map(\.title), ["Spring", "Moon"])
        XCTAssertEqual(rows[0].note, "two\nlines, \"quoted\"")
        XCTAssertEqual(rows[0].status, .rejected)
        XCTAssertEqual(rows[1].line, 4, "a record's line is where it began")
        XCTAssertEqual(rows[1].sent.description, "2027-01-02")
        XCTAssertEqual(rows[1].status, .pending, "no status is pending")
    }

    func testAFileWithoutTheColumnsItNeedsIsOneProblem() {
        let (rows, skipped) = ChillsubsCSV.read("Name,Magazine\nSpring,Granta\n")
        XCTAssertTrue(rows.isEmpty)
        XCTAssertEqual(skipped.map(\.problem), [.missingColumn("Title")])
    }

    func testRowsAreBoundedAndFieldsChecked() {
        let header = "Title,Publisher,Date Submitted\n"
        let many = header + String(repeating: "a,b,2026-01-01\n", count: ChillsubsCSV.maxRows + 5)
        let (rows, skipped) = ChillsubsCSV.read(many)
        XCTAssertEqual(rows.count, ChillsubsCSV.maxRows)
        XCTAssertEqual(skipped.first?.problem, .tooManyRows(ChillsubsCSV.maxRows))
        let long = ChillsubsCSV.read(header + String(repeating: "x", count: 10_000) + ",b,2026-01-01\n")
        XCTAssertEqual(long.skipped.map(\.problem), [.fieldTooLong("Title")])
        XCTAssertEqual(ChillsubsCSV.read(header + ",b,2026-01-01\n").skipped.map(\.problem), [.emptyField("Title")])
    }
}
