import CarrelModel
import XCTest

/// The headings a file's outline shows, and each section's words.
final class OutlineTests: XCTestCase {
    func flat(_ text: String, _ format: WordCount.Format) -> [String] {
        var out: [String] = []
        func visit(_ h: Outline.Heading, _ depth: Int) {
            out.append("\(String(repeating: " ", count: depth))\(h.title) L\(h.line)-\(h.endLine) \(h.words)w")
            for c in h.children { visit(c, depth + 1) }
        }
        for h in Outline.headings(text, format) { visit(h, 0) }
        return out
    }

    /// A section's words are its text below the heading line, subsections included.
    func testMarkdownHeadingsNestWithTheirWords() {
        let text = """
            ---
            title: Not a heading
            ---
            Preface words here.
            # Part One #
            one two
            ## Chapter 1
            three four five
            ```
            # not a heading in code
            ```
            ## Chapter 2
            six

            Setext Title
            ============
            seven eight

            Sub
            ---
            nine
            """
        XCTAssertEqual(
            flat(text, .markdown),
            [
                "Part One L4-14 11w", " Chapter 1 L6-11 8w", " Chapter 2 L11-14 1w",
                "Setext Title L14-21 3w", " Sub L18-21 1w",
            ])
    }

    func testAThematicBreakAfterAParagraphLineIsSetextButNotAfterABlankLine() {
        XCTAssertEqual(flat("Intro\n\n---\ntext\n", .markdown), [])
        XCTAssertEqual(flat("    # indented code\n", .markdown), [])
        XCTAssertEqual(flat("#hashtag\n", .markdown), [])
    }

    func testFountainActsSequencesAndScenes() {
        let text = """
            Title: The Play
            Author: Ada

            # Act One

            ## The Arrival

            INT. HOUSE - DAY

            Mara enters.

            EXT. GARDEN - NIGHT

            Rain falls hard.

            .FLASHBACK

            Silence.
            # Act Two

            int./ext. car - moving

            They drive.
            """
        let headings = Outline.headings(text, .fountain)
        XCTAssertEqual(
            flat(text, .fountain),
            [
                "Act One L3-18 6w", " The Arrival L5-18 6w", "  INT. HOUSE - DAY L7-11 2w",
                "  EXT. GARDEN - NIGHT L11-15 3w", "  FLASHBACK L15-18 1w", "Act Two L18-23 2w",
                " int./ext. car - moving L20-23 2w",
            ])
        XCTAssertFalse(headings[0].isScene)
        XCTAssertTrue(headings[0].children[0].children[0].isScene)
    }

    func testPlainTextHasNoOutline() {
        XCTAssertEqual(flat("# Not markdown\ntext", .plain), [])
    }
}
