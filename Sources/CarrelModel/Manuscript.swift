/// The text of a compiled manuscript, from its pieces in binder order and a
/// recipe: pure, so every rule of the layout is held by tests without a disk.
public enum Manuscript {
    /// One row of the binder that goes in, in binder order.
    public struct Piece: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case folder, file }
        public var kind: Kind
        /// 1 for what lies directly in a recipe's folder, one more per folder level.
        public var depth: Int
        /// A folder's name, or a file's without its extension.
        public var title: String
        /// A file's text (valid UTF-8, checked by the caller); empty for folders.
        public var text: String
        public var format: WordCount.Format

        public init(_ kind: Kind, depth: Int, title: String, text: String = "", format: WordCount.Format = .markdown) {
            self.kind = kind
            self.depth = depth
            self.title = title
            self.text = text
            self.format = format
        }
    }

    /// What the title page says about the writer.
    public struct Byline: Sendable, Equatable {
        public var title: String
        public var author: String?
        /// Address, email, telephone: one line each, as the writer gave them.
        public var contact: [String]

        public init(title: String, author: String? = nil, contact: [String] = []) {
            self.title = title
            self.author = author
            self.contact = contact
        }

        /// The running header's name: the author's last word ("Lovelace").
        public var surname: String? {
            author?.split(separator: " ").last.map(String.init)
        }
    }

    /// What the result reports: words by the counting rule, and for a
    /// packet each poem's lines and their sum.
    public struct Counts: Sendable, Equatable {
        public var words: Int
        public var pieces: Int
        public var lines: Int?
        public var poems: [(title: String, lines: Int)]

        public static func == (a: Counts, b: Counts) -> Bool {
            a.words == b.words && a.pieces == b.pieces && a.lines == b.lines
                && a.poems.map(\.title) == b.poems.map(\.title) && a.poems.map(\.lines) == b.poems.map(\.lines)
        }
    }

    /// Which writer of the text: a built-in format as written to disk, or
    /// pandoc's Markdown for the formats pandoc makes.
    public enum Target: Sendable, Equatable {
        case markdown, text, html, fountain
        case pandoc(CompileRecipe.Format)
    }

    /// The document's text and its counts.
    public static func compile(
        _ pieces: [Piece], _ recipe: CompileRecipe, _ byline: Byline, to target: Target, language: Language = .english
    ) -> (text: String, counts: Counts) {
        let body = bodyBlocks(pieces, recipe)
        let counts = count(pieces, body, recipe)
        var blocks: [Block] = []
        if recipe.titlePage { blocks += titlePage(recipe, byline, counts, language) }
        if recipe.contents, !counts.poems.isEmpty {
            blocks.append(.heading(1, language == .french ? "Sommaire" : "Contents"))
            blocks.append(
                .lines(counts.poems.map { "\($0.title) (\(linesLabel($0.lines, language)))" }))
            blocks.append(.pageBreak)
        }
        blocks += body
        return (render(blocks, byline, target), counts)
    }

    // MARK: Blocks

    enum Block: Equatable {
        /// Prose as the writer wrote it (Markdown or Fountain).
        case prose(String)
        /// Lines kept as lines: poems, contact blocks.
        case lines([String])
        case heading(Int, String)
        case separator(String)
        case pageBreak
        /// A paragraph with a style of its own in the DOCX (centred title, right-aligned count).
        case styled(String, String)
        /// Fountain's title page: `Key: value` lines.
        case fountainTitle([(String, String)])

        static func == (a: Block, b: Block) -> Bool {
            switch (a, b) {
            case (.prose(let x), .prose(let y)): return x == y
            case (.lines(let x), .lines(let y)): return x == y
            case (.heading(let i, let x), .heading(let j, let y)): return i == j && x == y
            case (.separator(let x), .separator(let y)): return x == y
            case (.pageBreak, .pageBreak): return true
            case (.styled(let s, let x), .styled(let t, let y)): return s == t && x == y
            default: return false
            }
        }
    }

    static func bodyBlocks(_ pieces: [Piece], _ recipe: CompileRecipe) -> [Block] {
        var out: [Block] = []
        var previousWasFile = false
        var first = true
        for piece in pieces {
            switch piece.kind {
            case .folder:
                if recipe.pageBreaks == .folders, !first, out.last != .pageBreak { out.append(.pageBreak) }
                if recipe.folderTitles { out.append(.heading(min(piece.depth, 6), piece.title)) }
                previousWasFile = false
            case .file:
                if recipe.pageBreaks == .files, !first, out.last != .pageBreak { out.append(.pageBreak) }
                if previousWasFile, !recipe.separator.isEmpty, recipe.pageBreaks != .files {
                    out.append(.separator(recipe.separator))
                }
                if recipe.fileTitles { out.append(.heading(min(piece.depth, 6), piece.title)) }
                let text = ownText(piece)
                if recipe.style == .packet {
                    out.append(.lines(poemLines(text)))
                } else if !text.isEmpty {
                    out.append(.prose(text))
                }
                previousWasFile = true
            }
            first = false
        }
        return out
    }

    /// A file's text without what belongs to it alone: Markdown's front
    /// matter, Fountain's title page; trimmed of blank lines at both ends.
    ///
    /// What is kept is one run of the file's bytes, so it is found on the
    /// bytes and copied once: a novel has thousands of pieces. Lines end at
    /// a "\n" that does not follow a "\r" (a "\r\n" is one character of
    /// text, as Swift's strings see it, so it never ends a line here), and
    /// a "\r" that ends the text goes.
    static func ownText(_ piece: Piece) -> String {
        var text = piece.text
        return text.withUTF8 { b -> String in
            let lines = textLines(b)
            var first = 0
            var last = lines.count - 1
            if piece.format == .markdown, equals(b, trimmed(b, lines[0]), "---"),
                let end = lines.indices.dropFirst().first(where: {
                    let t = trimmed(b, lines[$0])
                    return equals(b, t, "---") || equals(b, t, "...")
                })
            {
                first = end + 1
            }
            if piece.format == .fountain,
                isFountainTitleKey(String(decoding: UnsafeBufferPointer(rebasing: b[lines[0]]), as: UTF8.self)),
                let blank = lines.firstIndex(where: { trimmed(b, $0).isEmpty })
            {
                first = blank
            }
            while first <= last, trimmed(b, lines[first]).isEmpty { first += 1 }
            while last >= first, trimmed(b, lines[last]).isEmpty { last -= 1 }
            guard first <= last else { return "" }
            return String(
                decoding: UnsafeBufferPointer(rebasing: b[lines[first].lowerBound..<lines[last].upperBound]),
                as: UTF8.self)
        }
    }

    /// The text's lines as byte ranges, without their "\n" and without the
    /// "\r" that ends the text.
    static func textLines(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for i in 0..<b.count where b[i] == 0x0A && (i == 0 || b[i - 1] != 0x0D) {
            out.append(start..<i)
            start = i + 1
        }
        var end = b.count
        if end > start, b[end - 1] == 0x0D { end -= 1 }
        out.append(start..<end)
        return out
    }

    /// A line without the spaces, tabs and carriage returns that end it.
    static func trimmed(_ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Range<Int> {
        var end = line.upperBound
        while end > line.lowerBound, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
        return line.lowerBound..<end
    }

    static func equals(_ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, _ literal: StaticString) -> Bool {
        guard line.count == literal.utf8CodeUnitCount else { return false }
        return line.indices.allSatisfy { b[$0] == literal.utf8Start[$0 - line.lowerBound] }
    }

    static func isFountainTitleKey(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else { return false }
        return line[..<colon].allSatisfy { $0.isLetter || $0 == " " }
    }

    /// A poem's lines, blank lines (stanza breaks) kept.
    static func poemLines(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: Counts

    static func count(_ pieces: [Piece], _ body: [Block], _ recipe: CompileRecipe) -> Counts {
        var words = 0
        for block in body {
            switch block {
            case .prose(let t): words += WordCount.count(t, recipe.style == .script ? .fountain : .markdown)
            case .lines(let ls): words += WordCount.count(ls.joined(separator: "\n"), .markdown)
            case .heading(_, let t): words += WordCount.count(t, .plain)
            default: break
            }
        }
        let files = pieces.filter { $0.kind == .file }
        guard recipe.style == .packet else { return Counts(words: words, pieces: files.count, lines: nil, poems: []) }
        // A poem's lines are its lines of text; blank lines between stanzas are not lines.
        let poems = files.map { piece in
            (title: piece.title, lines: poemLines(ownText(piece)).filter { !$0.trimmingTrailingSpaces.isEmpty }.count)
        }
        return Counts(words: words, pieces: files.count, lines: poems.reduce(0) { $0 + $1.lines }, poems: poems)
    }

    public static func linesLabel(_ n: Int, _ language: Language) -> String {
        let number = CountWords.number(n, language)
        switch language {
        case .english: return "\(number) \(n == 1 ? "line" : "lines")"
        case .french: return "\(number) \(n <= 1 ? "vers" : "vers")"
        }
    }

    // MARK: Title page

    static func titlePage(_ recipe: CompileRecipe, _ byline: Byline, _ counts: Counts, _ language: Language)
        -> [Block]
    {
        switch recipe.style {
        case .script:
            var keys: [(String, String)] = [("Title", byline.title)]
            if let author = byline.author { keys += [("Credit", "Written by"), ("Author", author)] }
            if !byline.contact.isEmpty { keys.append(("Contact", byline.contact.joined(separator: "\n    "))) }
            return [.fountainTitle(keys)]
        case .manuscript, .packet:
            var out: [Block] = []
            var contact = byline.author.map { [$0] } ?? []
            contact += byline.contact
            if !contact.isEmpty { out.append(.lines(contact)) }
            let amount: String
            if recipe.style == .packet {
                let poems = counts.pieces
                amount =
                    language == .french
                    ? "\(poems) \(poems <= 1 ? "poème" : "poèmes"), \(linesLabel(counts.lines ?? 0, language))"
                    : "\(poems) \(poems == 1 ? "poem" : "poems"), \(linesLabel(counts.lines ?? 0, language))"
            } else {
                let rounding: WordRounding = recipe.folders.contains(.chapters) ? .novel : .shortFiction
                let n = CountWords.number(rounding.round(counts.words), language)
                amount = language == .french ? "environ \(n) mots" : "about \(n) words"
            }
            out.append(.styled("Word Count", amount))
            out.append(.styled("Manuscript Title", byline.title))
            if let author = byline.author {
                out.append(.styled("Byline", (language == .french ? "par " : "by ") + author))
            }
            out.append(.pageBreak)
            return out
        }
    }

    // MARK: Writers

    static func render(_ blocks: [Block], _ byline: Byline, _ target: Target) -> String {
        switch target {
        case .html: return html(blocks, byline)
        case .fountain: return fountain(blocks)
        case .text: return text(blocks)
        case .markdown: return markdown(blocks, byline, pandoc: nil)
        case .pandoc(let f): return markdown(blocks, byline, pandoc: f)
        }
    }

    /// Markdown with a YAML block on top; for pandoc, with its line blocks,
    /// custom styles and raw page breaks, which the plain `.md` leaves out.
    static func markdown(_ blocks: [Block], _ byline: Byline, pandoc: CompileRecipe.Format?) -> String {
        var parts: [String] = []
        // Pandoc would set the YAML title atop a DOCX or ODT, over the
        // manuscript's own title page; an e-book and a `.md` keep it.
        if pandoc == nil || pandoc == .epub {
            var yaml = ["---", "title: \(yamlQuoted(byline.title))"]
            if let author = byline.author { yaml.append("author: \(yamlQuoted(author))") }
            yaml.append("---")
            parts.append(yaml.joined(separator: "\n"))
        }
        for block in blocks {
            switch block {
            case .prose(let t): parts.append(t)
            case .lines(let ls):
                if pandoc == .odt {
                    // Pandoc sets a line block as a body paragraph, whose first
                    // line a manuscript indents; lines (a contact block, a
                    // poem) go flush left in a style of their own.
                    // XML holds no control characters but the tab.
                    let text = ls.map { escape(String($0.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" })) }
                        .joined(separator: "<text:line-break/>")
                    parts.append(
                        "```{=opendocument}\n<text:p text:style-name=\"Line_20_Block\">\(text)</text:p>\n```")
                } else if pandoc != nil {
                    parts.append(ls.map { "| " + $0 }.joined(separator: "\n"))
                } else {
                    // Two trailing spaces keep each line a line in any Markdown reader.
                    parts.append(ls.map { $0.isEmpty ? "" : $0 + "  " }.joined(separator: "\n"))
                }
            case .heading(let level, let t): parts.append(String(repeating: "#", count: level) + " " + t)
            case .separator(let s):
                let escaped = s.hasPrefix("#") ? "\\" + s : s
                parts.append(pandoc == nil ? escaped : "::: {custom-style=\"Scene Break\"}\n\(escaped)\n:::")
            case .styled(let style, let t):
                parts.append(pandoc == nil ? t : "::: {custom-style=\"\(style)\"}\n\(t)\n:::")
            case .pageBreak:
                switch pandoc {
                case .docx?: parts.append("```{=openxml}\n<w:p><w:r><w:br w:type=\"page\"/></w:r></w:p>\n```")
                case .odt?: parts.append("```{=opendocument}\n<text:p text:style-name=\"Pagebreak\"/>\n```")
                case .pdf?: parts.append("\\newpage")
                default: break
                }
            case .fountainTitle(let keys): parts.append(keys.map { "\($0.0): \($0.1)" }.joined(separator: "  \n"))
            }
        }
        return parts.joined(separator: "\n\n") + "\n"
    }

    static func text(_ blocks: [Block]) -> String {
        var parts: [String] = []
        for block in blocks {
            switch block {
            case .prose(let t): parts.append(t)
            case .lines(let ls): parts.append(ls.joined(separator: "\n"))
            case .heading(_, let t): parts.append(t.uppercased())
            case .separator(let s), .styled(_, let s): parts.append(s)
            case .pageBreak: parts.append("\u{0C}")
            case .fountainTitle(let keys): parts.append(keys.map { "\($0.0): \($0.1)" }.joined(separator: "\n"))
            }
        }
        return parts.joined(separator: "\n\n") + "\n"
    }

    static func fountain(_ blocks: [Block]) -> String {
        var parts: [String] = []
        for block in blocks {
            switch block {
            case .prose(let t): parts.append(t)
            case .lines(let ls): parts.append(ls.joined(separator: "\n"))
            case .heading(let level, let t): parts.append(String(repeating: "#", count: level) + " " + t)
            case .separator(let s), .styled(_, let s): parts.append(s)
            case .pageBreak: parts.append("===")
            case .fountainTitle(let keys): parts.append(keys.map { "\($0.0): \($0.1)" }.joined(separator: "\n"))
            }
        }
        return parts.joined(separator: "\n\n") + "\n"
    }

    static func html(_ blocks: [Block], _ byline: Byline) -> String {
        var out = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>\(escape(byline.title))</title>\n"
        out += "<style>.page{page-break-before:always}.center{text-align:center}.right{text-align:right}</style>\n"
        out += "</head>\n<body>\n"
        for block in blocks {
            switch block {
            case .prose(let t):
                for paragraph in paragraphs(t) {
                    if let (level, heading) = atxHeading(paragraph) {
                        out += "<h\(level)>\(escape(heading))</h\(level)>\n"
                    } else {
                        out +=
                            "<p>\(paragraph.split(separator: "\n").map { escape(String($0)) }.joined(separator: "<br>\n"))</p>\n"
                    }
                }
            case .lines(let ls):
                out += "<p>\(ls.map(escape).joined(separator: "<br>\n"))</p>\n"
            case .heading(let level, let t): out += "<h\(level)>\(escape(t))</h\(level)>\n"
            case .separator(let s): out += "<p class=\"center\">\(escape(s))</p>\n"
            case .styled(let style, let t):
                out += "<p class=\"\(style == "Word Count" ? "right" : "center")\">\(escape(t))</p>\n"
            case .pageBreak: out += "<div class=\"page\"></div>\n"
            case .fountainTitle(let keys):
                for (k, v) in keys { out += "<p>\(escape(k)): \(escape(v))</p>\n" }
            }
        }
        return out + "</body>\n</html>\n"
    }

    static func paragraphs(_ text: String) -> [String] {
        var out: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if !current.isEmpty { out.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { out.append(current.joined(separator: "\n")) }
        return out
    }

    static func atxHeading(_ paragraph: String) -> (Int, String)? {
        guard !paragraph.contains("\n") else { return nil }
        let hashes = paragraph.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), paragraph.dropFirst(hashes).first == " " else { return nil }
        return (hashes, String(paragraph.dropFirst(hashes + 1)))
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    static func yamlQuoted(_ s: String) -> String {
        var out = "\""
        for c in s {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c == "\n" ? " " : c)
        }
        return out + "\""
    }
}

extension StringProtocol {
    var trimmingTrailingSpaces: Substring {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s.removeLast() }
        return s
    }
}
