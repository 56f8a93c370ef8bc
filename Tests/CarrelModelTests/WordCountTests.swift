import CarrelModel
import XCTest

/// The counting rule, against a table: what a writer would call words.
final class WordCountTests: XCTestCase {
    func testWords() {
        let rows: [(String, Int, String)] = [
            ("", 0, "nothing"),
            ("The sea at night.", 4, "plain words"),
            ("don't stop", 2, "an apostrophe inside a word"),
            ("l’été qu’il fit", 3, "a typographic apostrophe"),
            ("a well-known, long-awaited end", 4, "hyphenated words are one"),
            ("rock- and roll", 3, "a hyphen at the end of a word joins nothing"),
            ("'quoted' words", 2, "quotes around words"),
            ("word—word – word", 3, "dashes separate"),
            ("and/or", 2, "a slash separates"),
            ("1984 was 3.5 times", 5, "numbers are words; a point splits them"),
            ("... !!! — ?", 0, "punctuation alone"),
            ("Café naïve résumé", 3, "accented letters"),
            ("e\u{301}te\u{301}", 1, "decomposed accents stay in the word"),
            ("Ωμέγα και άλφα", 3, "Greek"),
            ("Привет, мир", 2, "Cyrillic"),
            ("東京に行きました", 8, "Japanese, one word a character"),
            ("我爱你", 3, "Chinese, one word a character"),
            ("東京 Tokyo", 3, "mixed scripts"),
            ("안녕하세요 세계", 2, "Korean is spaced like English"),
            ("tab\tand\nnewline", 3, "any white space separates"),
        ]
        for (text, expected, why) in rows {
            XCTAssertEqual(WordCount.count(text, .plain), expected, why)
        }
    }

    func testMarkdownCountsProseOnly() {
        let rows: [(String, Int, String)] = [
            ("# Chapter One\n\nIt was *dark*.", 5, "heading marks and emphasis are punctuation"),
            ("---\ntitle: Night Watch\ntags: [sea, light]\n---\nThe keeper slept.", 3, "front matter is left out"),
            ("Before <!-- a note\nto self --> after", 2, "HTML comments are left out"),
            ("See [the lighthouse](https://example.com/a-long/url) now", 4, "a link counts its text, not its target"),
            ("![a photo of the sea](sea.jpg) Waves.", 1, "an image counts nothing"),
            ("- one\n- two\n> three", 3, "list and quote markers"),
            ("---\nnot closed\n\nwords here", 4, "an unclosed front matter is prose"),
            ("Unclosed <!-- comment runs to the end", 1, "an unclosed comment hides the rest"),
        ]
        for (text, expected, why) in rows {
            XCTAssertEqual(WordCount.count(text, .markdown), expected, why)
        }
    }

    func testFountainCountsTheScriptOnly() {
        let title = "Title: Big Fish\nAuthor: John August\n\n"
        let rows: [(String, Int, String)] = [
            (title + "INT. HOUSE - DAY\n\nEdward sleeps.", 5, "the title page is left out"),
            ("EXT. SEA\n\n/* an old scene\nstill here */\nWaves.", 3, "boneyard is left out"),
            ("BOB\nHello [[check this line]] there.", 3, "notes are left out"),
            ("# ACT ONE\n\n= The hero leaves home.\n\nHe goes.", 2, "sections and synopses are left out"),
            ("He waits.\n\n===\n\nShe comes.", 4, "a page break is no word"),
            (">THE END<", 2, "centered text counts"),
        ]
        for (text, expected, why) in rows {
            XCTAssertEqual(WordCount.count(text, .fountain), expected, why)
        }
    }

    func testTheFormatComesFromTheExtension() {
        XCTAssertEqual(WordCount.Format(fileName: "Scene.MD"), .markdown)
        XCTAssertEqual(WordCount.Format(fileName: "Pilot.fountain"), .fountain)
        XCTAssertEqual(WordCount.Format(fileName: "notes.txt"), .plain)
        XCTAssertEqual(WordCount.Format(fileName: "README"), .plain)
    }
}

/// The byte scanner against the string rule it replaced, on texts made of
/// every piece of markup the rule knows, in every format.
final class WordCountAgreementTests: XCTestCase {
    func testTheByteScannerAgreesWithTheStringRule() {
        let pieces = [
            "word", "don't", "l’été", "well-known", "rock-", " ", " ", "\n", "\n\n", "\t", "—", "/", "3.5",
            "東京", "안녕", "e\u{301}", "Ωμέγα", "[", "]", "(", ")", "!", "![", "](", "<!--", "-->", "/*", "*/",
            "[[", "]]", "#", "=", "==", "===", "---", "...", "Title: x", "Key:", ":", "'", "-", "\u{FFFD}",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for round in 0..<3_000 {
            var text = ""
            for _ in 0..<(1 + next(30)) { text += pieces[next(pieces.count)] }
            for format in [WordCount.Format.plain, .markdown, .fountain] {
                XCTAssertEqual(
                    WordCount.count(text, format), ReferenceWordCount.count(text, format),
                    "round \(round), \(format): \(text.debugDescription)")
            }
        }
    }

    func testIllFormedBytesSeparateWords() {
        XCTAssertEqual(WordCount.count([0x61, 0xFF, 0x62, 0xE2, 0x82, 0x20, 0x63], .plain), 3)
        XCTAssertEqual(WordCount.count([0x61, 0xC3], .plain), 1)
    }
}
