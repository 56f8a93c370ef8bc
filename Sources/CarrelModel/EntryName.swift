/// A directory entry's name exactly as the disk stores it. Equality and
/// hashing go by raw bytes, because ext4 keeps NFC and NFD spellings as two
/// names while Swift's `String ==` calls them equal.
public struct EntryName: Hashable, Sendable, CustomStringConvertible {
    /// For display; invalid UTF-8 shows as U+FFFD.
    public let string: String
    /// The raw bytes when they are not valid UTF-8; nil otherwise (then `string.utf8` is exact).
    private let raw: [UInt8]?

    public init(_ string: String) {
        self.string = string
        self.raw = nil
    }

    public init<C: Collection>(bytes: C) where C.Element == UInt8 {
        if let s = String(validating: bytes, as: UTF8.self) {
            self.string = s
            self.raw = nil
        } else {
            self.string = String(decoding: bytes, as: UTF8.self)
            self.raw = Array(bytes)
        }
    }

    public var bytes: [UInt8] { raw ?? Array(string.utf8) }
    public var byteCount: Int { raw?.count ?? string.utf8.count }

    /// Whether the last byte is "/" (only a library root's name can be "/").
    public var endsWithSlash: Bool { (raw?.last ?? string.utf8.last) == UInt8(ascii: "/") }

    /// Copies `bytes` to end just before `end`; returns where they start.
    public func copyBytes(into buffer: UnsafeMutableBufferPointer<UInt8>, endingAt end: Int) -> Int {
        if let raw {
            let start = end - raw.count
            _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<end]).initialize(from: raw)
            return start
        }
        var s = string
        return s.withUTF8 { utf8 in
            let start = end - utf8.count
            _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<end]).initialize(from: utf8)
            return start
        }
    }
    public var isValidUTF8: Bool { raw == nil }
    public var description: String { string }

    public static func == (a: EntryName, b: EntryName) -> Bool {
        switch (a.raw, b.raw) {
        case (nil, nil):
            // Over the bytes in memory: every child lookup ends here, and
            // iterating two UTF8Views cost about 400 instructions a name.
            var x = a.string
            var y = b.string
            return x.withUTF8 { xs in y.withUTF8 { ys in xs.count == ys.count && xs.elementsEqual(ys) } }
        case (let x?, let y?): return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        if let raw { raw.withUnsafeBytes { hasher.combine(bytes: $0) }; return }
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
