/// The headings of a Markdown or Fountain text, nested, each with the
/// words of its section: what `textDocument/documentSymbol` and inlay hints show.
///
/// - Markdown: ATX headings (`#` to `######`, outside fenced code) and
///   Setext headings (a line underlined with `===` or `---`); YAML front
///   matter at the top is skipped.
/// - Fountain: acts (`#`), sequences (`##`), deeper sections (`###`…),
///   and scene headings (`INT.`, `EXT.`, `EST.`, `INT./EXT.`, `INT/EXT.`,
///   `I/E.`, or forced with a leading `.`), which sit below the sections.
///
/// A section runs from its heading to the next heading of the same or a
/// higher level; its words are those of its text below the heading line,
/// its subsections' included, by `WordCount`'s rule.
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

    /// Nested headings, in order, and the text's line count.
    public static func headings(_ text: String, _ format: WordCount.Format) -> [Heading] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            line.last == "\r" ? line.dropLast() : line
        }
        var found: [(line: Int, level: Int, title: String, bodyStart: Int)] = []
        var scenes = Set<Int>()
        switch format {
        case .markdown: found = markdownHeadings(lines)
        case .fountain: (found, scenes) = fountainHeadings(lines)
        case .plain: break
        }
        guard !found.isEmpty else { return [] }
        // Each stretch between two headings is counted once; sections add up their stretches.
        var stretchWords: [Int] = []
        for (i, h) in found.enumerated() {
            let end = i + 1 < found.count ? found[i + 1].line : lines.count
            let body = h.bodyStart < end ? lines[h.bodyStart..<end].joined(separator: "\n") : ""
            stretchWords.append(WordCount.count(body, format))
        }
        var flat: [Heading] = []
        for (i, h) in found.enumerated() {
            var endIndex = i + 1
            while endIndex < found.count, found[endIndex].level > h.level { endIndex += 1 }
            let endLine = endIndex < found.count ? found[endIndex].line : lines.count
            flat.append(
                Heading(
                    title: h.title, level: h.level, line: h.line, lineLength: lines[h.line].utf16.count,
                    endLine: endLine, words: stretchWords[i..<endIndex].reduce(0, +),
                    isScene: format == .fountain && h.title.isEmpty == false && scenes.contains(h.line), children: []))
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

    static func markdownHeadings(_ lines: [Substring]) -> [(line: Int, level: Int, title: String, bodyStart: Int)] {
        var out: [(Int, Int, String, Int)] = []
        var i = 0
        if lines.first.map(trimmed) == "---" {
            if let end = lines.dropFirst().firstIndex(where: { trimmed($0) == "---" || trimmed($0) == "..." }) {
                i = end + 1
            }
        }
        var fence: Character?
        while i < lines.count {
            let line = lines[i]
            let text = line.drop { $0 == " " }
            let indent = line.count - text.count
            if indent < 4, let f = text.first, f == "`" || f == "~", text.prefix(3).allSatisfy({ $0 == f }),
                text.count >= 3
            {
                if fence == nil { fence = f } else if fence == f { fence = nil }
                i += 1
                continue
            }
            if fence != nil || indent >= 4 { i += 1; continue }
            if text.first == "#" {
                let hashes = text.prefix { $0 == "#" }.count
                let rest = text.dropFirst(hashes)
                if hashes <= 6, rest.isEmpty || rest.first == " " || rest.first == "\t" {
                    var title = trimmed(rest)
                    // A closing run of #s is not part of the title.
                    let closing = title.reversed().prefix { $0 == "#" }.count
                    if closing > 0, closing == title.count || title.dropLast(closing).last == " " {
                        title = trimmed(title.dropLast(closing))
                    }
                    out.append((i, hashes, String(title), i + 1))
                    i += 1
                    continue
                }
            }
            if i + 1 < lines.count, !trimmed(line).isEmpty, let level = setextLevel(lines[i + 1]),
                i == 0 || trimmed(lines[i - 1]).isEmpty || isHeadingLine(lines[i - 1])
            {
                out.append((i, level, String(trimmed(line)), i + 2))
                i += 2
                continue
            }
            i += 1
        }
        return out
    }

    static func isHeadingLine(_ line: Substring) -> Bool { line.drop { $0 == " " }.first == "#" }

    static func setextLevel(_ line: Substring) -> Int? {
        let t = trimmed(line.drop { $0 == " " })
        guard line.count - line.drop(while: { $0 == " " }).count < 4, let c = t.first, c == "=" || c == "-",
            t.allSatisfy({ $0 == c })
        else { return nil }
        return c == "=" ? 1 : 2
    }

    // MARK: Fountain

    static let sceneOpeners = ["INT./EXT.", "INT/EXT.", "I/E.", "INT.", "EXT.", "EST.", "INT ", "EXT ", "EST ", "I/E "]

    static func fountainHeadings(
        _ lines: [Substring]
    ) -> (headings: [(line: Int, level: Int, title: String, bodyStart: Int)], scenes: Set<Int>) {
        var sections: [(Int, Int, String, Int)] = []
        var deepest = 0
        var scenes: [Int] = []
        for (i, line) in lines.enumerated() {
            let t = trimmed(line.drop { $0 == " " || $0 == "\t" })
            if t.first == "#" {
                let level = t.prefix { $0 == "#" }.count
                sections.append((i, level, String(trimmed(t.dropFirst(level).drop { $0 == " " })), i + 1))
                deepest = max(deepest, level)
                continue
            }
            let blankBefore = i == 0 || trimmed(lines[i - 1]).isEmpty
            guard blankBefore, !t.isEmpty else { continue }
            if t.first == ".", t.dropFirst().first.map({ $0 != "." }) ?? false {
                scenes.append(i)
            } else if sceneOpeners.contains(where: { t.uppercased().hasPrefix($0) }) {
                scenes.append(i)
            }
        }
        let sceneLevel = deepest + 1
        var out = sections
        for i in scenes {
            var title = trimmed(lines[i].drop { $0 == " " || $0 == "\t" })
            if title.first == "." { title = title.dropFirst() }
            out.append((i, sceneLevel, String(title), i + 1))
        }
        return (out.sorted { $0.0 < $1.0 }, Set(scenes))
    }

    static func trimmed(_ s: Substring) -> Substring {
        var t = s
        while let f = t.first, f == " " || f == "\t" { t = t.dropFirst() }
        while let l = t.last, l == " " || l == "\t" { t = t.dropLast() }
        return t
    }
}
