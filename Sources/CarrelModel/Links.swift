/// The links a writer's text makes to other files of the library: Markdown
/// inline links and images, reference definitions, and wikilinks
/// (`[[Ada]]`, `[[Ada#Childhood]]`, `[[Ada|her]]`, `![[map]]`). Nothing inside
/// a code span or a fenced block is a link. Links that cannot name a file of
/// the library (URLs, `mailto:`, absolute paths, `#anchors` of the same
/// text) are left out, so nothing ever rewrites or reports them.
public struct Link: Equatable, Sendable {
    public enum Kind: UInt8, Sendable {
        case inline, image, reference, wiki, wikiEmbed

        public var isWiki: Bool { self == .wiki || self == .wikiEmbed }
    }

    public var kind: Kind
    /// Markdown: the destination's path, percent-decoded, without its
    /// `#fragment` or `?query`. Wikilinks: the name before `#` or `|`.
    public var target: String
    /// The bytes that spell the target: what a rewrite replaces, so a
    /// fragment, an alias, a title and the link's text all stay as written.
    public var start: Int
    public var end: Int
    /// Markdown only: the destination is written inside `<…>`, where spaces
    /// need no encoding.
    public var angle: Bool
    /// The whole link, from its `[` (or `!`) to past its `)` or `]]`: where
    /// a cursor stands on it.
    public var linkStart: Int
    public var linkEnd: Int

    public init(kind: Kind, target: String, start: Int, end: Int, angle: Bool = false) {
        self.kind = kind
        self.target = target
        self.start = start
        self.end = end
        self.angle = angle
        self.linkStart = start
        self.linkEnd = end
    }
}

public enum Links {
    /// Every link of `text` that may name a file of the library, in order.
    public static func parse(_ text: [UInt8]) -> [Link] {
        var out: [Link] = []
        var fence: (char: UInt8, count: Int)?
        var lineStart = 0
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != nl { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            var first = lineStart
            while first < lineEnd, first - lineStart < 4, text[first] == space { first += 1 }
            let indented = first - lineStart >= 4
            if !indented, let run = fenceRun(text, first, lineEnd) {
                if let open = fence {
                    if run.char == open.char, run.count >= open.count, isBlank(text, first + run.count, lineEnd) {
                        fence = nil
                    }
                } else {
                    fence = run
                }
                continue
            }
            if fence != nil { continue }
            if !indented, let def = referenceDefinition(text, first, lineEnd) {
                out.append(def)
                continue
            }
            inline(text, lineStart, lineEnd, into: &out)
        }
        return out
    }

    private static let nl = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let backtick = UInt8(ascii: "`")
    private static let tilde = UInt8(ascii: "~")
    private static let open = UInt8(ascii: "[")
    private static let close = UInt8(ascii: "]")
    private static let paren = UInt8(ascii: "(")
    private static let closeParen = UInt8(ascii: ")")
    private static let bang = UInt8(ascii: "!")
    private static let backslash = UInt8(ascii: "\\")

    private static func isBlank(_ t: [UInt8], _ from: Int, _ to: Int) -> Bool {
        t[from..<to].allSatisfy { $0 == space || $0 == tab || $0 == UInt8(ascii: "\r") }
    }

    /// Three or more backticks or tildes opening the line.
    private static func fenceRun(_ t: [UInt8], _ from: Int, _ to: Int) -> (char: UInt8, count: Int)? {
        guard from < to, t[from] == backtick || t[from] == tilde else { return nil }
        var n = 0
        while from + n < to, t[from + n] == t[from] { n += 1 }
        return n >= 3 ? (t[from], n) : nil
    }

    /// `[label]: destination "title"`, a footnote (`[^1]:`) excepted.
    private static func referenceDefinition(_ t: [UInt8], _ from: Int, _ to: Int) -> Link? {
        guard from < to, t[from] == open, from + 1 < to, t[from + 1] != UInt8(ascii: "^") else { return nil }
        var i = from + 1
        while i < to, t[i] != close {
            if t[i] == open { return nil }
            if t[i] == backslash { i += 1 }
            i += 1
        }
        guard i > from + 1, i + 1 < to, t[i + 1] == UInt8(ascii: ":") else { return nil }
        i += 2
        while i < to, t[i] == space || t[i] == tab { i += 1 }
        guard var (link, end) = destination(t, i, to, kind: .reference) else { return nil }
        link.linkStart = from
        link.linkEnd = end
        return link
    }

    /// One line's inline links and wikilinks. Linear in the line's length,
    /// whatever its brackets and backticks, so no file can stall the scan:
    /// code spans and bracket pairs are found first, in one pass each.
    private static func inline(_ t: [UInt8], _ from: Int, _ to: Int, into out: inout [Link]) {
        let spans = codeSpans(t, from, to)
        var stack: [Int] = []
        var closing: [Int: Int] = [:]
        var i = from
        while i < to {
            if let end = spans[i] {
                i = end
                continue
            }
            switch t[i] {
            case backslash: i += 1
            case open: stack.append(i)
            case close: if let o = stack.popLast() { closing[o] = i }
            default: break
            }
            i += 1
        }
        i = from
        while i < to {
            if let end = spans[i] {
                i = end
                continue
            }
            let c = t[i]
            if c == backslash {
                i += 2
                continue
            }
            guard c == open else {
                i += 1
                continue
            }
            let embedded = i > from && t[i - 1] == bang
            if i + 1 < to, t[i + 1] == open, let (found, next) = wikilink(t, i, to, embed: embedded) {
                if var link = found {
                    link.linkStart = embedded ? i - 1 : i
                    link.linkEnd = next
                    out.append(link)
                }
                i = next
                continue
            }
            if let closing = closing[i], closing + 1 < to, t[closing + 1] == paren,
                var (link, next) = destination(t, closing + 2, to, kind: embedded ? .image : .inline),
                let end = closesLink(t, next, to)
            {
                link.linkStart = embedded ? i - 1 : i
                link.linkEnd = end
                out.append(link)
            }
            // On from just inside the bracket: an image inside a link's text is a link of its own.
            i += 1
        }
    }

    /// The code spans of a line, by where each starts, to where it ends: a
    /// run of backticks closed by the next run of the same length. Runs are
    /// matched through a cursor per length, so a line of stray backticks
    /// costs one pass.
    private static func codeSpans(_ t: [UInt8], _ from: Int, _ to: Int) -> [Int: Int] {
        var runs: [(start: Int, count: Int)] = []
        var i = from
        while i < to {
            if t[i] == backslash {
                i += 2
                continue
            }
            guard t[i] == backtick else {
                i += 1
                continue
            }
            var n = 0
            while i + n < to, t[i + n] == backtick { n += 1 }
            runs.append((i, n))
            i += n
        }
        guard runs.count > 1 else { return [:] }
        var byCount: [Int: [Int]] = [:]
        for (k, r) in runs.enumerated() { byCount[r.count, default: []].append(k) }
        var cursor: [Int: Int] = [:]
        var spans: [Int: Int] = [:]
        var k = 0
        while k < runs.count {
            let n = runs[k].count
            let list = byCount[n]!
            var c = cursor[n] ?? 0
            while c < list.count, list[c] <= k { c += 1 }
            cursor[n] = c
            guard c < list.count else {
                k += 1
                continue
            }
            let m = list[c]
            spans[runs[k].start] = runs[m].start + runs[m].count
            k = m + 1
        }
        return spans
    }

    /// After a destination: an optional title, then the `)` that ends the
    /// link. Returns the index past that `)`.
    private static func closesLink(_ t: [UInt8], _ i: Int, _ to: Int) -> Int? {
        var i = i
        while i < to, t[i] == space || t[i] == tab { i += 1 }
        guard i < to else { return nil }
        if t[i] == closeParen { return i + 1 }
        let quote: UInt8
        switch t[i] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = t[i]
        case paren: quote = closeParen
        default: return nil
        }
        // A title ends at its quote; a bracket ends the search, so titles never overlap.
        i += 1
        while i < to, t[i] != quote {
            if t[i] == open || t[i] == close { return nil }
            i += 1
        }
        guard i < to else { return nil }
        i += 1
        while i < to, t[i] == space || t[i] == tab { i += 1 }
        return i < to && t[i] == closeParen ? i + 1 : nil
    }

    /// `[[name#anchor|alias]]` at `i`: the link (nil when it names no file,
    /// as `[[#Heading]]`) and where scanning goes on; nil when no `]]` closes it.
    private static func wikilink(_ t: [UInt8], _ i: Int, _ to: Int, embed: Bool) -> (Link?, Int)? {
        var j = i + 2
        while j + 1 < to, !(t[j] == close && t[j + 1] == close) {
            if t[j] == open { return nil }
            j += 1
        }
        guard j + 1 < to else { return nil }
        var end = i + 2
        while end < j, t[end] != UInt8(ascii: "#"), t[end] != UInt8(ascii: "|") { end += 1 }
        var start = i + 2
        while start < end, t[start] == space { start += 1 }
        var last = end
        while last > start, t[last - 1] == space { last -= 1 }
        guard last > start else { return (nil, j + 2) }
        let name = String(decoding: t[start..<last], as: UTF8.self)
        return (Link(kind: embed ? .wikiEmbed : .wiki, target: name, start: start, end: last), j + 2)
    }

    /// A Markdown destination at `i` (after `(` or a definition's `:`), when
    /// it is a path into the library, and the index after it.
    private static func destination(_ t: [UInt8], _ i: Int, _ to: Int, kind: Link.Kind) -> (Link, Int)? {
        var i = i
        while i < to, t[i] == space || t[i] == tab { i += 1 }
        guard i < to else { return nil }
        let start: Int
        var end: Int
        let angle = t[i] == UInt8(ascii: "<")
        if angle {
            start = i + 1
            end = start
            while end < to, t[end] != UInt8(ascii: ">") {
                if t[end] == UInt8(ascii: "<") || t[end] == open || t[end] == close { return nil }
                end += 1
            }
            guard end < to else { return nil }
        } else {
            start = i
            end = i
            var depth = 0
            // A bracket ends it too, so no two destinations' scans overlap.
            while end < to, t[end] != space, t[end] != tab, t[end] > 0x1F, t[end] != open, t[end] != close {
                if t[end] == backslash {
                    end += 2
                    continue
                }
                if t[end] == paren { depth += 1 }
                if t[end] == closeParen {
                    if depth == 0 { break }
                    depth -= 1
                }
                end += 1
            }
            end = min(end, to)
        }
        // The path stops at a fragment or a query, which a rewrite keeps.
        var pathEnd = start
        while pathEnd < end, t[pathEnd] != UInt8(ascii: "#"), t[pathEnd] != UInt8(ascii: "?") { pathEnd += 1 }
        guard pathEnd > start, isLibraryPath(t[start..<pathEnd]) else { return nil }
        let target = LinkPath.percentDecoded(t[start..<pathEnd])
        return (Link(kind: kind, target: target, start: start, end: pathEnd, angle: angle), angle ? end + 1 : end)
    }

    /// Not a URL (a scheme), not absolute (`/…`, `//host`): only a relative
    /// path can name a file of a library that travels between machines.
    static func isLibraryPath(_ p: ArraySlice<UInt8>) -> Bool {
        guard let first = p.first, first != UInt8(ascii: "/") else { return false }
        var i = p.startIndex
        while i < p.endIndex {
            let c = p[i]
            if c == UInt8(ascii: ":") { return i == p.startIndex || !isSchemeStart(p, i) }
            if c == UInt8(ascii: "/") { return true }
            i += 1
        }
        return true
    }

    private static func isSchemeStart(_ p: ArraySlice<UInt8>, _ colon: Int) -> Bool {
        let scheme = p[p.startIndex..<colon]
        guard let f = scheme.first, (f | 0x20) >= UInt8(ascii: "a"), (f | 0x20) <= UInt8(ascii: "z") else {
            return false
        }
        return scheme.allSatisfy { c in
            let l = c | 0x20
            return (l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "-")
        }
    }
}

/// Lines and UTF-16 columns of byte offsets, as LSP positions count them.
public struct TextLines: Sendable {
    private let starts: [Int]
    private let text: [UInt8]

    public init(_ text: [UInt8]) {
        var starts = [0]
        for (i, c) in text.enumerated() where c == UInt8(ascii: "\n") { starts.append(i + 1) }
        self.starts = starts
        self.text = text
    }

    public func position(_ offset: Int) -> (line: Int, character: Int) {
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        let start = starts[lo]
        let column = String(decoding: text[start..<min(offset, text.count)], as: UTF8.self).utf16.count
        return (lo, column)
    }

    /// The byte offset of an LSP position, clamped to its line.
    public func offset(line: Int, character: Int) -> Int? {
        guard line >= 0, line < starts.count else { return nil }
        let start = starts[line]
        let end = line + 1 < starts.count ? starts[line + 1] - 1 : text.count
        var units = 0
        var i = start
        while i < end, units < character {
            let c = text[i]
            let n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4
            units += n == 4 ? 2 : 1
            i += n
        }
        return min(i, end)
    }
}
