import CarrelModel

/// The counting rule as first written, over Swift strings: slow, plain to
/// read, and the reference `WordCount`'s byte scanner must agree with.
enum ReferenceWordCount {
    static func count(_ text: String, _ format: WordCount.Format) -> Int {
        switch format {
        case .plain: return words(text)
        case .markdown: return words(markdownProse(text))
        case .fountain: return words(fountainProse(text))
        }
    }

    // MARK: Words

    static func words(_ text: String) -> Int {
        var count = 0
        var inWord = false
        var joinerPending = false
        for scalar in text.unicodeScalars {
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
        return count
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

    // MARK: Markdown

    static func markdownProse(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.first?.referenceTrimmed == "---",
            let end = lines.dropFirst().firstIndex(where: {
                $0.referenceTrimmed == "---" || $0.referenceTrimmed == "..."
            })
        {
            lines.removeSubrange(0...end)
        }
        var prose = removing(lines.joined(separator: "\n"), from: "<!--", to: "-->")
        prose = removingLinkTargets(prose)
        return prose
    }

    /// `![alt](src)` goes whole; `[text](target)` keeps its text.
    static func removingLinkTargets(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            let isImage = open > rest.startIndex && rest[rest.index(before: open)] == "!"
            guard let close = rest[open...].firstIndex(of: "]"),
                rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == "(",
                let end = rest[close...].firstIndex(of: ")")
            else {
                out += rest[...open]
                rest = rest[rest.index(after: open)...]
                continue
            }
            out += rest[..<(isImage ? rest.index(before: open) : open)]
            if !isImage { out += rest[rest.index(after: open)..<close] }
            out += " "
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    // MARK: Fountain

    static func fountainProse(_ text: String) -> String {
        var body = removing(removing(text, from: "/*", to: "*/"), from: "[[", to: "]]")
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A title page is "Key: value" lines at the very top, ended by a blank line.
        if let first = lines.first, isTitlePageKey(first),
            let blank = lines.firstIndex(where: { $0.referenceTrimmed.isEmpty })
        {
            lines.removeSubrange(0..<blank)
        }
        lines.removeAll { line in
            let t = line.drop { $0 == " " || $0 == "\t" }
            return t.hasPrefix("#") || (t.hasPrefix("=") && !t.hasPrefix("=="))
                || t.allSatisfy { $0 == "=" } && t.count >= 3
        }
        body = lines.joined(separator: "\n")
        return body
    }

    static func isTitlePageKey(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else { return false }
        return line[..<colon].allSatisfy { $0.isLetter || $0 == " " }
    }

    // MARK: Shared

    /// `text` without every span from `open` to `close`; an unclosed span runs to the end.
    static func removing(_ text: String, from open: String, to close: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: open) {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstRange(of: close) else { return out }
            out += " "
            rest = rest[end.upperBound...]
        }
        return out + rest
    }
}

extension String {
    fileprivate var referenceTrimmed: Substring {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s = s.dropLast() }
        return s
    }
}
