/// Case-insensitive subsequence matching with a score: higher is better.
public enum FuzzyMatch {
    /// nil when `query` is not a subsequence of `candidate`. Both are folded UTF-8.
    public static func score(_ query: [UInt8], _ candidate: [UInt8]) -> Int? {
        candidate.withUnsafeBufferPointer { c in query.withUnsafeBufferPointer { q in score(q, c) } }
    }

    public static func score(_ query: UnsafeBufferPointer<UInt8>, _ candidate: UnsafeBufferPointer<UInt8>) -> Int? {
        if query.isEmpty { return 0 }
        var score = 0
        var qi = 0
        var previousMatch = -2
        var firstMatch = -1
        for ci in 0..<candidate.count where candidate[ci] == query[qi] {
            if firstMatch < 0 { firstMatch = ci }
            if ci == previousMatch + 1 { score += 8 }
            if ci == 0 || isBoundary(candidate[ci - 1]) { score += 6 }
            score += 1
            previousMatch = ci
            qi += 1
            if qi == query.count { break }  // the rest of the name cannot change the score
        }
        guard qi == query.count else { return nil }
        if firstMatch == 0 { score += 10 }
        if candidate.count == query.count { score += 20 }
        return score * 64 - min(candidate.count, 63)
    }

    private static func isBoundary(_ c: UInt8) -> Bool {
        c == 0x20 || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
            || c == UInt8(ascii: "/")
    }
}
