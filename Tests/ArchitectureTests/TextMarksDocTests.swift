import Foundation
import XCTest

/// The plain-text marks rows show without an icon font: PROTOCOL.md's
/// table is the one list, and each terminal editor's README repeats it, so
/// a writer who sees `=` or `~` can look it up where they installed from.
final class TextMarksDocTests: XCTestCase {
    static func marksTable(in text: String) -> [String] {
        guard let start = text.range(of: "| mark | row |") else { return [] }
        return text[start.lowerBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { $0.hasPrefix("|") }.map(String.init)
    }

    func testEveryTerminalEditorsReadmeGivesTheProtocolsMarks() throws {
        let protocolText = try String(
            contentsOf: ModuleMapTests.root.appendingPathComponent("editors/PROTOCOL.md"), encoding: .utf8)
        let marks = Self.marksTable(in: protocolText)
        XCTAssertGreaterThanOrEqual(marks.count, 9, "PROTOCOL.md's text-marks table was not found")
        for editor in ["nvim", "vim", "emacs"] {
            let readme = try String(
                contentsOf: ModuleMapTests.root.appendingPathComponent("editors/\(editor)/README.md"), encoding: .utf8)
            XCTAssertEqual(Self.marksTable(in: readme), marks, "editors/\(editor)/README.md")
        }
    }
}
