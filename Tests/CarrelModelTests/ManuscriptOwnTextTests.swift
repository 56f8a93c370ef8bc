import XCTest

@testable import CarrelModel

/// What of a file goes into a compiled manuscript: found on the file's
/// bytes, it must be exactly what reading the text line by line as Swift's
/// strings see it gave (front matter and a Fountain title page left out,
/// blank lines trimmed at both ends), whatever the line endings.
final class ManuscriptOwnTextTests: XCTestCase {
    /// The line-by-line reading the byte scan replaced: the oracle.
    static func byLines(_ piece: Manuscript.Piece) -> String {
        func trim(_ s: String) -> Substring {
            var t = Substring(s)
            while let last = t.last, last == " " || last == "\t" || last == "\r" { t.removeLast() }
            return t
        }
        var lines = piece.text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        if piece.format == .markdown, lines.first.map(trim) == "---",
            let end = lines.dropFirst().firstIndex(where: { ["---", "..."].contains(trim($0)) })
        {
            lines.removeSubrange(0...end)
        }
        if piece.format == .fountain, let first = lines.first, Manuscript.isFountainTitleKey(first),
            let blank = lines.firstIndex(where: { trim($0).isEmpty })
        {
            lines.removeSubrange(0..<blank)
        }
        while let l = lines.first, trim(l).isEmpty { lines.removeFirst() }
        while let l = lines.last, trim(l).isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    func own(_ text: String, _ format: WordCount.Format = .markdown) -> String {
        Manuscript.ownText(.init(.file, depth: 1, title: "t", text: text, format: format))
    }

    func testTable() {
        let rows: [(text: String, format: WordCount.Format, kept: String, why: String)] = [
            ("", .markdown, "", "nothing"),
            ("\n\n  \n\t\n", .markdown, "", "blank lines only"),
            ("\n\nOne.\n\nTwo.\n\n\n", .markdown, "One.\n\nTwo.", "blank lines trimmed at both ends only"),
            ("---\ntitle: x\n---\n\nBody.\n", .markdown, "Body.", "front matter left out"),
            ("---  \ntitle: x\n...\nBody.", .markdown, "Body.", "front matter closed by dots, spaces after"),
            ("---\nno end\n", .markdown, "---\nno end", "unclosed front matter is text"),
            ("Title: The Tide\nAuthor: A\n\nINT. HOUSE\n", .fountain, "INT. HOUSE", "Fountain title page"),
            ("Title: The Tide\n", .fountain, "", "a title page with nothing after leaves nothing"),
            ("---\ntitle: x\n---\nBody", .fountain, "---\ntitle: x\n---\nBody", "front matter is Markdown's alone"),
            ("One.\r", .markdown, "One.", "a carriage return that ends the text goes"),
            ("One.\r\n\r\nTwo.\r\n", .markdown, "One.\r\n\r\nTwo.\r\n", "CRLF is one character: never a line end"),
            ("  \u{301}\nText\n", .markdown, "  \u{301}\nText", "a space with a mark on it is not blank"),
            ("\u{FEFF}Text", .markdown, "\u{FEFF}Text", "a byte order mark is kept"),
        ]
        for row in rows {
            let piece = Manuscript.Piece(.file, depth: 1, title: "t", text: row.text, format: row.format)
            XCTAssertEqual(own(row.text, row.format), row.kept, row.why)
            XCTAssertEqual(Self.byLines(piece), row.kept, "oracle: " + row.why)
        }
    }

    /// Random texts of line ends, spaces, dashes, dots, marks and letters:
    /// the byte scan and the line-by-line reading agree on every one.
    func testAgreesWithReadingLineByLine() {
        let parts = [
            "\n", "\r", "\r\n", " ", "\t", "-", "---", "...", ".", "a", "é", "e\u{301}", " \u{301}", "#", ":",
            "Title", "Title: x", "日本",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<5_000 {
            let text = (0..<next(24)).map { _ in parts[next(parts.count)] }.joined()
            for format in [WordCount.Format.markdown, .fountain, .plain] {
                let piece = Manuscript.Piece(.file, depth: 1, title: "t", text: text, format: format)
                XCTAssertEqual(Manuscript.ownText(piece), Self.byLines(piece), "\(Array(text.unicodeScalars))")
            }
        }
    }
}
