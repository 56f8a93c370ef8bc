/// How many words one text adds to another and removes from it: the
/// summary a snapshot's comparison gives ("+120 −40 words"). Words are
/// runs of characters between white space, so punctuation belongs to its
/// word and "cut." against "cut," is one word replaced. Moving a passage
/// counts it removed where it was and added where it went, as a word diff
/// shows it.
public enum WordDiff {
    public struct Summary: Equatable, Sendable {
        public var added: Int
        public var removed: Int
        public init(added: Int, removed: Int) {
            self.added = added
            self.removed = removed
        }
    }

    /// Past this many differing words the exact count would cost too much
    /// time for a summary; the words each side has more of are counted
    /// instead, which never says more than the exact diff.
    public static let exactLimit = 5_000

    public static func compare(_ old: [UInt8], _ new: [UInt8]) -> Summary {
        var ids: [Substring: Int] = [:]
        let a = words(old, &ids)
        let b = words(new, &ids)
        // The common start and end cost nothing to skip, and are most of a revision.
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count
        var endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
            endA -= 1
            endB -= 1
        }
        let x = Array(a[start..<endA])
        let y = Array(b[start..<endB])
        if let d = editDistance(x, y, limit: exactLimit) {
            // d = removed + added, and what stays is common to both sides.
            let common = (x.count + y.count - d) / 2
            return Summary(added: y.count - common, removed: x.count - common)
        }
        return unordered(x, y)
    }

    /// The text's words as small integers, equal words equal.
    static func words(_ text: [UInt8], _ ids: inout [Substring: Int]) -> [Int] {
        let s = String(decoding: text, as: UTF8.self)
        var out: [Int] = []
        var wordStart: String.Index? = nil
        var i = s.startIndex
        while i < s.endIndex {
            let isSpace = s.unicodeScalars[i].properties.isWhitespace
            if isSpace, let w = wordStart {
                out.append(id(s[w..<i], &ids))
                wordStart = nil
            } else if !isSpace && wordStart == nil {
                wordStart = i
            }
            i = s.unicodeScalars.index(after: i)
        }
        if let w = wordStart { out.append(id(s[w..<s.endIndex], &ids)) }
        return out
    }

    private static func id(_ word: Substring, _ ids: inout [Substring: Int]) -> Int {
        if let known = ids[word] { return known }
        let next = ids.count
        ids[word] = next
        return next
    }

    /// Myers' shortest edit script length (insertions plus deletions), or
    /// nil when it exceeds `limit`. O((N+M)·D) time, O(N+M) memory.
    static func editDistance(_ a: [Int], _ b: [Int], limit: Int) -> Int? {
        let n = a.count
        let m = b.count
        let maxD = min(n + m, limit)
        if n == 0 || m == 0 { return n + m <= limit ? n + m : nil }
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        for d in 0...maxD {
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m { return d }
                k += 2
            }
        }
        return nil
    }

    /// The words each side has more copies of, whatever their order.
    static func unordered(_ a: [Int], _ b: [Int]) -> Summary {
        var balance: [Int: Int] = [:]
        for w in a { balance[w, default: 0] -= 1 }
        for w in b { balance[w, default: 0] += 1 }
        var added = 0
        var removed = 0
        for (_, c) in balance {
            if c > 0 { added += c } else { removed -= c }
        }
        return Summary(added: added, removed: removed)
    }
}

extension WordDiff.Summary {
    /// "+120 −40 words", with a true minus sign; the noun agrees with the
    /// words changed in all ("+1 −0 word").
    public func text(_ language: Language) -> String {
        let total = added + removed
        let noun = language == .french ? (total == 1 ? "mot" : "mots") : (total == 1 ? "word" : "words")
        return "+\(CountWords.number(added, language)) −\(CountWords.number(removed, language)) \(noun)"
    }
}
