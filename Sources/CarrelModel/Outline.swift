/// The headings of a Markdown or Fountain text, nested, each with the
/// words of its section: what `textDocument/documentSymbol` and inlay hints show.
///
/// - Markdown: ATX headings (`#` to `######`, outside fenced code) and
///   Setext headings (a line underlined with `===` or `---`, after a blank
///   line or a heading); YAML front matter at the top is skipped.
/// - Fountain: acts (`#`), sequences (`##`), deeper sections (`###`…),
///   and scene headings (`INT.`, `EXT.`, `EST.`, `INT./EXT.`, `INT/EXT.`,
///   `I/E.`, or forced with a leading `.`) after a blank line, which sit
///   below the deepest section level.
///
/// A section runs from its heading to the next heading of the same or a
/// higher level; its words are those of its text below the heading line,
/// its subsections' included, by `WordCount`'s rule. Works on the UTF-8
/// bytes: a 20,000-word chapter is outlined on every edit.
public enum Outline {
    public struct Heading: Equatable, Sendable {
        public var title: String
        /// 1 for `#`; Fountain scenes are one below the deepest section level.
        public var level: Int
        /// Zero-based line of the heading (its text line for Setext).
        public var line: Int
        /// The heading line's length in UTF-16 code units (LSP positions).
        public var lineLength: Int
        /// The line after the section's last line (the next heading of the
        /// same or a higher level, or the line count).
        public var endLine: Int
        public var words: Int
        /// A Fountain scene heading, not a section.
        public var isScene: Bool
        public var children: [Heading]
    }

    struct Found {
        var line: Int
        var level: Int
        var title: Range<Int>
        var bodyStart: Int
        var isScene = false
    }

    public static func headings(_ text: String, _ format: WordCount.Format) -> [Heading] {
        headings(Array(text.utf8), format)
    }

    /// Nested headings, in order.
    public static func headings(_ text: [UInt8], _ format: WordCount.Format) -> [Heading] {
        let lines = WordCount.lines(text).map { WordCount.trimmedEnd(text, $0) }
        let found: [Found]
        switch format {
        case .markdown: found = markdownHeadings(text, lines)
        case .fountain: found = fountainHeadings(text, lines)
        case .plain: found = []
        }
        guard !found.isEmpty else { return [] }
        let rawLines = WordCount.lines(text)
        // Each stretch between two headings is counted once; sections add up their stretches.
        var stretchWords: [Int] = []
        for (i, h) in found.enumerated() {
            let end = i + 1 < found.count ? found[i + 1].line : lines.count
            guard h.bodyStart < end else { stretchWords.append(0); continue }
            let body = Array(text[rawLines[h.bodyStart].lowerBound..<rawLines[end - 1].upperBound])
            stretchWords.append(WordCount.count(body, format))
        }
        var flat: [Heading] = []
        for (i, h) in found.enumerated() {
            var endIndex = i + 1
            while endIndex < found.count, found[endIndex].level > h.level { endIndex += 1 }
            let endLine = endIndex < found.count ? found[endIndex].line : lines.count
            let lineText = String(decoding: text[rawLines[h.line]], as: UTF8.self)
            flat.append(
                Heading(
                    title: String(decoding: text[h.title], as: UTF8.self), level: h.level, line: h.line,
                    lineLength: lineText.utf16.count, endLine: endLine,
                    words: stretchWords[i..<endIndex].reduce(0, +), isScene: h.isScene, children: []))
        }
        return nest(flat)
    }

    /// Turns headings in order into a tree by level, without recursion.
    static func nest(_ flat: [Heading]) -> [Heading] {
        var roots: [Heading] = []
        var stack: [Heading] = []
        func close() {
            let done = stack.removeLast()
            if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].children.append(done) }
        }
        for h in flat {
            while let level = stack.last?.level, level >= h.level { close() }
            stack.append(h)
        }
        while !stack.isEmpty { close() }
        return roots
    }

    // MARK: Markdown

    static func markdownHeadings(_ b: [UInt8], _ lines: [Range<Int>]) -> [Found] {
        var out: [Found] = []
        var i = 0
        if WordCount.equals(b, lines[0], "---"),
            let end = lines.indices.dropFirst().first(where: {
                WordCount.equals(b, lines[$0], "---") || WordCount.equals(b, lines[$0], "...")
            })
        {
            i = end + 1
        }
        var fence: UInt8?
        while i < lines.count {
            let line = lines[i]
            let text = dropSpaces(b, line)
            let indent = text.lowerBound - line.lowerBound
            if indent < 4, text.count >= 3, b[text.lowerBound] == 0x60 || b[text.lowerBound] == 0x7E,
                b[text.lowerBound + 1] == b[text.lowerBound], b[text.lowerBound + 2] == b[text.lowerBound]
            {
                let f = b[text.lowerBound]
                if fence == nil { fence = f } else if fence == f { fence = nil }
                i += 1
                continue
            }
            if fence != nil || indent >= 4 { i += 1; continue }
            if !text.isEmpty, b[text.lowerBound] == UInt8(ascii: "#") {
                var hashes = 0
                while text.lowerBound + hashes < text.upperBound, b[text.lowerBound + hashes] == UInt8(ascii: "#") {
                    hashes += 1
                }
                let rest = (text.lowerBound + hashes)..<text.upperBound
                if hashes <= 6, rest.isEmpty || b[rest.lowerBound] == 0x20 || b[rest.lowerBound] == 0x09 {
                    var title = trim(b, rest)
                    // A closing run of #s is not part of the title.
                    var closing = title.upperBound
                    while closing > title.lowerBound, b[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
                    if closing < title.upperBound,
                        closing == title.lowerBound || b[closing - 1] == 0x20 || b[closing - 1] == 0x09
                    {
                        title = trim(b, title.lowerBound..<closing)
                    }
                    out.append(Found(line: i, level: hashes, title: title, bodyStart: i + 1))
                    i += 1
                    continue
                }
            }
            if i + 1 < lines.count, !trim(b, line).isEmpty, let level = setextLevel(b, lines[i + 1]),
                i == 0 || trim(b, lines[i - 1]).isEmpty || isHeadingLine(b, lines[i - 1])
            {
                out.append(Found(line: i, level: level, title: trim(b, line), bodyStart: i + 2))
                i += 2
                continue
            }
            i += 1
        }
        return out
    }

    static func isHeadingLine(_ b: [UInt8], _ line: Range<Int>) -> Bool {
        let t = dropSpaces(b, line)
        return !t.isEmpty && b[t.lowerBound] == UInt8(ascii: "#")
    }

    static func setextLevel(_ b: [UInt8], _ line: Range<Int>) -> Int? {
        let t = trim(b, line)
        guard dropSpaces(b, line).lowerBound - line.lowerBound < 4, !t.isEmpty else { return nil }
        let c = b[t.lowerBound]
        guard c == UInt8(ascii: "=") || c == UInt8(ascii: "-"), t.allSatisfy({ b[$0] == c }) else { return nil }
        return c == UInt8(ascii: "=") ? 1 : 2
    }

    // MARK: Fountain

    static let sceneOpeners: [[UInt8]] = [
        "INT./EXT.", "INT/EXT.", "I/E.", "INT.", "EXT.", "EST.", "INT ", "EXT ", "EST ", "I/E ",
    ]
    .map { Array($0.utf8) }

    static func fountainHeadings(_ b: [UInt8], _ lines: [Range<Int>]) -> [Found] {
        var sections: [Found] = []
        var scenes: [Found] = []
        var deepest = 0
        for (i, line) in lines.enumerated() {
            let t = trim(b, line)
            if !t.isEmpty, b[t.lowerBound] == UInt8(ascii: "#") {
                var level = 0
                while t.lowerBound + level < t.upperBound, b[t.lowerBound + level] == UInt8(ascii: "#") { level += 1 }
                sections.append(
                    Found(
                        line: i, level: level, title: trim(b, (t.lowerBound + level)..<t.upperBound), bodyStart: i + 1))
                deepest = max(deepest, level)
                continue
            }
            let blankBefore = i == 0 || trim(b, lines[i - 1]).isEmpty
            guard blankBefore, !t.isEmpty else { continue }
            if b[t.lowerBound] == UInt8(ascii: "."), t.count > 1, b[t.lowerBound + 1] != UInt8(ascii: ".") {
                scenes.append(Found(line: i, level: 0, title: (t.lowerBound + 1)..<t.upperBound, bodyStart: i + 1))
            } else if sceneOpeners.contains(where: { opener in
                opener.count <= t.count
                    && opener.indices.allSatisfy { k in upper(b[t.lowerBound + k]) == opener[k] }
            }) {
                scenes.append(Found(line: i, level: 0, title: t, bodyStart: i + 1))
            }
        }
        let sceneLevel = deepest + 1
        for k in scenes.indices {
            scenes[k].level = sceneLevel
            scenes[k].isScene = true
        }
        return (sections + scenes).sorted { $0.line < $1.line }
    }

    @inline(__always) static func upper(_ c: UInt8) -> UInt8 { c >= 0x61 && c <= 0x7A ? c - 0x20 : c }

    static func dropSpaces(_ b: [UInt8], _ r: Range<Int>) -> Range<Int> {
        var start = r.lowerBound
        while start < r.upperBound, b[start] == 0x20 { start += 1 }
        return start..<r.upperBound
    }

    static func trim(_ b: [UInt8], _ r: Range<Int>) -> Range<Int> {
        var start = r.lowerBound
        var end = r.upperBound
        while start < end, b[start] == 0x20 || b[start] == 0x09 { start += 1 }
        while end > start, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }
}
