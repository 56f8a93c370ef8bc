/// How many words a writer wrote in a file: the rule every count in the
/// binder follows, the same for every client.
///
/// - A word is a run of letters, digits and marks; an apostrophe (' or ’)
///   or a hyphen between two such characters keeps it one word ("don't",
///   "well-known", "1984"). Dashes, slashes and all other punctuation
///   separate words; punctuation alone is no word.
/// - Chinese and Japanese are written without spaces, so each Han, Hiragana
///   or Katakana character counts as one word, as word processors count them.
///   Korean separates words with spaces and counts as any other script.
/// - What is not prose is left out. Markdown: YAML front matter at the top,
///   HTML comments, link targets and images (`[the text](target)` counts
///   "the text"). Fountain: the title page, boneyard (`/* */`), notes
///   (`[[ ]]`), section and synopsis lines (`#`, `=`), and page breaks.
///   Markup characters are punctuation, so they count for nothing anyway.
public enum WordCount {
    public enum Format: Sendable {
        case markdown, fountain, plain

        /// The format a file name says, by its extension.
        public init(fileName: String) {
            switch NameRules.fileExtension(fileName)?.lowercased() {
            case "md", "markdown", "mdown", "mkd": self = .markdown
            case "fountain", "spmd": self = .fountain
            default: self = .plain
            }
        }
    }

    /// The words of a file's bytes (UTF-8; ill-formed bytes count as punctuation).
    /// Works on the bytes in a few linear passes: counting a library must
    /// keep up with `wc -w`.
    public static func count(_ bytes: [UInt8], _ format: Format) -> Int {
        switch format {
        case .plain: return words(bytes)
        case .markdown: return words(markdownProse(bytes))
        case .fountain: return words(fountainProse(bytes))
        }
    }

    public static func count(_ text: String, _ format: Format) -> Int {
        count(Array(text.utf8), format)
    }

    // MARK: Words

    /// Whether an ASCII byte is a letter or a digit.
    @inline(__always)
    static func isASCIIWord(_ c: UInt8) -> Bool {
        (c &- 0x30) < 10 || ((c | 0x20) &- 0x61) < 26
    }

    static func words(_ bytes: [UInt8]) -> Int {
        var count = 0
        var inWord = false
        var joinerPending = false
        bytes.withUnsafeBufferPointer { b in
            var i = 0
            let n = b.count
            while i < n {
                let c = b[i]
                let scalar: Unicode.Scalar
                if c < 0x80 {
                    i += 1
                    if isASCIIWord(c) {
                        if !inWord && !joinerPending { count += 1 }
                        inWord = true
                        joinerPending = false
                    } else if inWord && (c == 0x27 || c == 0x2D) {
                        inWord = false
                        joinerPending = true
                    } else {
                        inWord = false
                        joinerPending = false
                    }
                    continue
                }
                guard let (decoded, length) = decode(b, at: i) else {
                    // Ill-formed: as U+FFFD, which separates.
                    i += 1
                    inWord = false
                    joinerPending = false
                    continue
                }
                i += length
                scalar = decoded
                if isIdeograph(scalar) {
                    count += 1
                    inWord = false
                    joinerPending = false
                } else if isWordCharacter(scalar) {
                    if !inWord && !joinerPending { count += 1 }
                    inWord = true
                    joinerPending = false
                } else if inWord && isJoiner(scalar) {
                    // Joins only when a word character follows; "rock-" ends a word.
                    inWord = false
                    joinerPending = true
                } else {
                    inWord = false
                    joinerPending = false
                }
            }
        }
        return count
    }

    /// The scalar of a well-formed multi-byte UTF-8 sequence at `i`, and its length.
    @inline(__always)
    static func decode(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int)? {
        let c = b[i]
        let length: Int
        var value: UInt32
        switch c {
        case 0xC2...0xDF: length = 2; value = UInt32(c & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(c & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(c & 0x07)
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let d = b[i + k]
            guard d & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(d & 0x3F)
        }
        // Overlong forms and surrogates are ill-formed.
        if length == 3 && value < 0x800 || length == 4 && (value < 0x10000 || value > 0x10FFFF) { return nil }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    static func isWordCharacter(_ s: Unicode.Scalar) -> Bool {
        let p = s.properties
        return p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark
            || p.generalCategory == .spacingMark
    }

    static func isJoiner(_ s: Unicode.Scalar) -> Bool {
        s == "'" || s == "\u{2019}" || s == "-" || s == "\u{2010}" || s == "\u{2011}"
    }

    static func isIdeograph(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF: return true  // Hiragana, Katakana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true  // Han
        default: return false
        }
    }

    // MARK: Lines

    /// Line ranges split at "\n", as `split(omittingEmptySubsequences: false)` does.
    static func lines(_ b: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for i in b.indices where b[i] == 0x0A {
            out.append(start..<i)
            start = i + 1
        }
        out.append(start..<b.count)
        return out
    }

    /// A line without trailing spaces, tabs and carriage returns.
    static func trimmedEnd(_ b: [UInt8], _ r: Range<Int>) -> Range<Int> {
        var end = r.upperBound
        while end > r.lowerBound, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
        return r.lowerBound..<end
    }

    static func equals(_ b: [UInt8], _ r: Range<Int>, _ literal: StaticString) -> Bool {
        guard r.count == literal.utf8CodeUnitCount else { return false }
        let p = literal.utf8Start
        for (k, i) in r.enumerated() where b[i] != p[k] { return false }
        return true
    }

    // MARK: Markdown

    static func markdownProse(_ text: [UInt8]) -> [UInt8] {
        var body = text
        let firstEnd = text.firstIndex(of: 0x0A) ?? text.count
        if equals(text, trimmedEnd(text, 0..<firstEnd), "---"), firstEnd < text.count {
            // Front matter: up to the next line that closes it.
            var start = firstEnd + 1
            while start <= text.count {
                let end = text[start...].firstIndex(of: 0x0A) ?? text.count
                let t = trimmedEnd(text, start..<end)
                if equals(text, t, "---") || equals(text, t, "...") {
                    body = end < text.count ? Array(text[(end + 1)...]) : []
                    break
                }
                start = end + 1
            }
        }
        return removingLinkTargets(removing(body, from: "<!--", to: "-->"))
    }

    /// `![alt](src)` goes whole; `[text](target)` keeps its text.
    static func removingLinkTargets(_ text: [UInt8]) -> [UInt8] {
        guard text.contains(UInt8(ascii: "[")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        let n = text.count
        while i < n {
            guard let open = text[i...].firstIndex(of: UInt8(ascii: "[")) else { break }
            let isImage = open > i && text[open - 1] == UInt8(ascii: "!")
            guard let close = text[open...].firstIndex(of: UInt8(ascii: "]")), close + 1 < n,
                text[close + 1] == UInt8(ascii: "("),
                let end = text[close...].firstIndex(of: UInt8(ascii: ")"))
            else {
                out.append(contentsOf: text[i...open])
                i = open + 1
                continue
            }
            out.append(contentsOf: text[i..<(isImage ? open - 1 : open)])
            if !isImage { out.append(contentsOf: text[(open + 1)..<close]) }
            out.append(0x20)
            i = end + 1
        }
        if i < n { out.append(contentsOf: text[i...]) }
        return out
    }

    // MARK: Fountain

    static func fountainProse(_ text: [UInt8]) -> [UInt8] {
        let body = removing(removing(text, from: "/*", to: "*/"), from: "[[", to: "]]")
        var all = lines(body)
        // A title page is "Key: value" lines at the very top, ended by a blank line.
        if isTitlePageKey(body, all[0]), let blank = all.firstIndex(where: { trimmedEnd(body, $0).isEmpty }) {
            all.removeSubrange(0..<blank)
        }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var first = true
        for r in all {
            var start = r.lowerBound
            while start < r.upperBound, body[start] == 0x20 || body[start] == 0x09 { start += 1 }
            let t = start..<r.upperBound
            if !t.isEmpty {
                let c = body[start]
                if c == UInt8(ascii: "#") { continue }
                if c == UInt8(ascii: "=") {
                    if t.count < 2 || body[start + 1] != UInt8(ascii: "=") { continue }
                    if t.count >= 3, t.allSatisfy({ body[$0] == UInt8(ascii: "=") }) { continue }
                }
            }
            if !first { out.append(0x0A) }
            first = false
            out.append(contentsOf: body[r])
        }
        return out
    }

    static func isTitlePageKey(_ b: [UInt8], _ r: Range<Int>) -> Bool {
        guard let colon = b[r].firstIndex(of: UInt8(ascii: ":")), colon > r.lowerBound else { return false }
        let key = String(decoding: b[r.lowerBound..<colon], as: UTF8.self)
        return key.allSatisfy { $0.isLetter || $0 == " " }
    }

    // MARK: Shared

    /// `text` without every span from `open` to `close`; an unclosed span runs to the end.
    static func removing(_ text: [UInt8], from open: StaticString, to close: StaticString) -> [UInt8] {
        let o = Array(UnsafeBufferPointer(start: open.utf8Start, count: open.utf8CodeUnitCount))
        let c = Array(UnsafeBufferPointer(start: close.utf8Start, count: close.utf8CodeUnitCount))
        guard let first = find(o, in: text, from: 0) else { return text }
        var out = Array(text[..<first])
        out.reserveCapacity(text.count)
        var start: Int? = first
        while let s = start {
            guard let end = find(c, in: text, from: s + o.count) else { return out }
            out.append(0x20)
            let rest = end + c.count
            start = find(o, in: text, from: rest)
            out.append(contentsOf: text[rest..<(start ?? text.count)])
        }
        return out
    }

    static func find(_ needle: [UInt8], in text: [UInt8], from: Int) -> Int? {
        guard needle.count > 0, text.count >= needle.count, from <= text.count - needle.count else { return nil }
        var i = from
        let last = text.count - needle.count
        while i <= last {
            guard let hit = text[i...last].firstIndex(of: needle[0]) else { return nil }
            var k = 1
            while k < needle.count, text[hit + k] == needle[k] { k += 1 }
            if k == needle.count { return hit }
            i = hit + 1
        }
        return nil
    }
}
