import CarrelModel

/// A link as the word cache keeps it: what it names and where it is
/// written, nothing that depends on the file's path (the cache is keyed by
/// inode, and a rename keeps its entry).
public struct CachedLink: Sendable, Equatable {
    public var kind: Link.Kind
    /// As written (a Markdown link's destination decoded, a wikilink's name).
    public var target: String
    public var start: Int32
    public var end: Int32
    /// LSP's zero-based line and UTF-16 columns of the target's text.
    public var line: Int32
    public var startCharacter: Int32
    public var endCharacter: Int32

    public init(
        kind: Link.Kind, target: String, start: Int32, end: Int32, line: Int32, startCharacter: Int32,
        endCharacter: Int32
    ) {
        self.kind = kind
        self.target = target
        self.start = start
        self.end = end
        self.line = line
        self.startCharacter = startCharacter
        self.endCharacter = endCharacter
    }

    /// The links of a text, where each is written: parsed by the counting
    /// threads from the read that counts the words. A text without `[`
    /// holds none and is not parsed.
    public static func parse(_ text: [UInt8]) -> [CachedLink] {
        guard text.contains(UInt8(ascii: "[")) else { return [] }
        let links = Links.parse(text)
        guard !links.isEmpty else { return [] }
        let lines = TextLines(text)
        return links.map { l in
            let a = lines.position(l.start)
            let b = lines.position(l.end)
            return CachedLink(
                kind: l.kind, target: l.target, start: Int32(clamping: l.start), end: Int32(clamping: l.end),
                line: Int32(clamping: a.line), startCharacter: Int32(clamping: a.character),
                endCharacter: Int32(clamping: b.character))
        }
    }

    /// No links kept, as against none found.
    static let notKept: UInt64 = 0xFFFF_FFFF
    /// Kind (1 byte), five positions (4 each) and the target's length (4).
    static let fixedSize = 25

    /// The count (4 bytes, `notKept` for nil), then each link: kind, start,
    /// end, line, start and end column, the target's length and its UTF-8.
    static func encode(_ links: [CachedLink]?, to out: inout [UInt8]) {
        guard let links else { return CacheReader.append(notKept, 4, to: &out) }
        CacheReader.append(UInt64(links.count), 4, to: &out)
        for l in links {
            out.append(l.kind.rawValue)
            for v in [l.start, l.end, l.line, l.startCharacter, l.endCharacter] {
                CacheReader.append(UInt64(UInt32(bitPattern: v)), 4, to: &out)
            }
            let target = Array(l.target.utf8)
            CacheReader.append(UInt64(target.count), 4, to: &out)
            out.append(contentsOf: target)
        }
    }

    /// Nil for anything out of place: a count or length past the file's
    /// end, an unknown kind, a position below zero or a range backwards.
    static func decode(_ reader: inout CacheReader) -> [CachedLink]?? {
        guard let count = reader.integer(4) else { return nil }
        if count == notKept { return .some(nil) }
        guard count <= UInt64(reader.remaining / fixedSize) else { return nil }
        var links: [CachedLink] = []
        links.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let raw = reader.byte(), let kind = Link.Kind(rawValue: raw) else { return nil }
            var v: [Int32] = []
            for _ in 0..<5 {
                guard let n = reader.integer(4) else { return nil }
                v.append(Int32(bitPattern: UInt32(truncatingIfNeeded: n)))
            }
            guard v.allSatisfy({ $0 >= 0 }), v[0] <= v[1], v[3] <= v[4], let length = reader.integer(4),
                let target = reader.bytes(length)
            else { return nil }
            links.append(
                CachedLink(
                    kind: kind, target: String(decoding: target, as: UTF8.self), start: v[0], end: v[1], line: v[2],
                    startCharacter: v[3], endCharacter: v[4]))
        }
        return .some(links)
    }
}

/// Little-endian integers out of a cache file, never past its end.
struct CacheReader {
    let bytes: [UInt8]
    var at: Int

    var atEnd: Bool { at >= bytes.count }
    var remaining: Int { bytes.count - at }

    mutating func integer(_ size: Int) -> UInt64? {
        guard size <= remaining else { return nil }
        var v: UInt64 = 0
        for k in 0..<size { v |= UInt64(bytes[at + k]) << (8 * k) }
        at += size
        return v
    }

    mutating func byte() -> UInt8? { integer(1).map { UInt8($0) } }

    mutating func bytes(_ count: UInt64) -> ArraySlice<UInt8>? {
        guard count <= UInt64(remaining) else { return nil }
        defer { at += Int(count) }
        return bytes[at..<at + Int(count)]
    }

    static func append(_ v: UInt64, _ size: Int, to out: inout [UInt8]) {
        for k in 0..<size { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
    }
}
