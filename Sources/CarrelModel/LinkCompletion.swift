/// Completing a link as it is typed: where the cursor is in a link's
/// target, and which of the library's files fit what is typed so far.
public enum LinkCompletion {
    public enum Kind: Sendable, Equatable { case wiki, markdown }

    /// The link being typed at the end of `line` (a line's bytes up to the
    /// cursor): its kind, and the byte offset in `line` where its target
    /// starts. Nil outside a link's target (after `]]`, `)`, a wikilink's
    /// `|` or `#`, or with no `[[` or `](` before the cursor).
    public static func context(_ line: ArraySlice<UInt8>) -> (kind: Kind, start: Int, angle: Bool)? {
        var i = line.endIndex
        while i > line.startIndex {
            i -= 1
            switch line[i] {
            case UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "|"):
                return nil
            case UInt8(ascii: "#"):
                // A fragment is not a file: only a wikilink's is in reach here, and neither completes.
                return nil
            case UInt8(ascii: "["):
                guard i > line.startIndex, line[i - 1] == UInt8(ascii: "[") else { return nil }
                return (.wiki, i + 1, false)
            case UInt8(ascii: "("):
                guard i > line.startIndex, line[i - 1] == UInt8(ascii: "]") else { return nil }
                let angle = i + 1 < line.endIndex && line[i + 1] == UInt8(ascii: "<")
                return (.markdown, angle ? i + 2 : i + 1, angle)
            default:
                continue
            }
        }
        return nil
    }

    /// The files that fit `typed`, best first: each as it would be written
    /// (`text`) and its library path. A wikilink gets the shortest name that
    /// names the file from `from`; a Markdown link, the relative path,
    /// percent-encoded as a move's rewrite writes it. At most `limit`.
    public static func candidates(
        _ kind: Kind, typed: String, angle: Bool, from: [String], files: [[String]], names: WikiNames, limit: Int = 100
    ) -> [(text: String, path: [String])] {
        let query = Ordering.folded(kind == .markdown ? LinkPath.percentDecoded(Array(typed.utf8)[...]) : typed)
        var scored: [(score: Int, text: String, path: [String])] = []
        for file in files where file != from {
            let plain =
                kind == .wiki
                ? names.name(for: file, from: from, withExtension: false)
                : LinkPath.relative(from: from, to: file)
            guard let score = FuzzyMatch.score(query, Ordering.folded(plain)) else { continue }
            let text = kind == .wiki ? plain : LinkPath.encoded(plain, angle: angle)
            scored.append((score, text, file))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.text < $1.text }
        return scored.prefix(limit).map { ($0.text, $0.path) }
    }
}
