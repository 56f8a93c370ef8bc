import Foundation

public enum SortKey: String, Sendable, CaseIterable {
    /// `manual` is binder order: the order the writer chose, kept in the
    /// folder's order file (`BinderOrder`); names it does not list follow in name order.
    case name, modified, created, manual
}

public struct SortSetting: Sendable, Equatable {
    public var by: SortKey
    public var descending: Bool
    public init(by: SortKey = .name, descending: Bool = false) {
        self.by = by
        self.descending = descending
    }
    public static let byName = SortSetting()
    public static let manual = SortSetting(by: .manual)
}

public enum Ordering {
    /// Folders before files; then the chosen key; ties broken by natural name order.
    public static func precedes(_ a: Entry, _ b: Entry, _ order: SortSetting) -> Bool {
        precedes((a, a.folded), (b, b.folded), order)
    }

    /// `entries` in `order`, each name folded once for the whole sort.
    public static func sorted(_ entries: [Entry], _ order: SortSetting) -> [Entry] {
        entries.map { ($0, $0.folded) }.sorted { precedes($0, $1, order) }.map(\.0)
    }

    private static func precedes(_ a: (Entry, [UInt8]), _ b: (Entry, [UInt8]), _ order: SortSetting) -> Bool {
        let (x, fx) = a
        let (y, fy) = b
        if x.isFolderLike != y.isFolderLike { return x.isFolderLike }
        let c: Int
        switch order.by {
        case .name, .manual: c = natural(fx, fy)
        case .modified: c = compare(x.modified, y.modified)
        case .created: c = compare(x.created, y.created)
        }
        if c != 0 { return order.descending ? c > 0 : c < 0 }
        let n = natural(fx, fy)
        if n != 0 { return n < 0 }
        return x.name.bytes.lexicographicallyPrecedes(y.name.bytes)
    }

    /// The key names are ordered and searched by: case, accents and width
    /// folded away, so "Été" sorts with the E's and "ete" finds it. Two
    /// names with one key are ordered by their bytes, so "Ete" comes before
    /// "Été". An ASCII name only lowercases (`Entry.appendFolded` does that
    /// byte by byte without calling this).
    public static func folded(_ name: String) -> [UInt8] {
        Array(name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).utf8)
    }

    static func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : a > b ? 1 : 0 }

    /// Natural order on folded UTF-8: digit runs compare as numbers, so
    /// "chapter 2" < "chapter 10". Returns -1, 0 or 1.
    public static func natural(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            let x = a[i]
            let y = b[j]
            if isDigit(x), isDigit(y) {
                var i0 = i
                var j0 = j
                while i0 < a.count, a[i0] == UInt8(ascii: "0") { i0 += 1 }
                while j0 < b.count, b[j0] == UInt8(ascii: "0") { j0 += 1 }
                var i1 = i0
                var j1 = j0
                while i1 < a.count, isDigit(a[i1]) { i1 += 1 }
                while j1 < b.count, isDigit(b[j1]) { j1 += 1 }
                let la = i1 - i0
                let lb = j1 - j0
                if la != lb { return la < lb ? -1 : 1 }
                for k in 0..<la where a[i0 + k] != b[j0 + k] { return a[i0 + k] < b[j0 + k] ? -1 : 1 }
                i = i1
                j = j1
                continue
            }
            if x != y { return x < y ? -1 : 1 }
            i += 1
            j += 1
        }
        return compare(a.count - i, b.count - j)
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
