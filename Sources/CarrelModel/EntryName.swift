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

    /// Appends `bytes` without building them first.
    public func appendBytes(to out: inout [UInt8]) {
        if let raw { out.append(contentsOf: raw); return }
        var s = string
        s.withUTF8 { out.append(contentsOf: $0) }
    }
    public var isValidUTF8: Bool { raw == nil }
    public var description: String { string }

    public static func == (a: EntryName, b: EntryName) -> Bool {
        switch (a.raw, b.raw) {
        case (nil, nil): return a.string.utf8.elementsEqual(b.string.utf8)
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
