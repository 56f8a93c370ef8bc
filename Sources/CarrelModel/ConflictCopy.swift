/// Copies a sync engine makes when two machines changed one file at once:
/// the engine keeps one version under the file's name and the other beside
/// it, under a name that says which file it belongs to.
///
/// - Syncthing: `Name.sync-conflict-20261123-101500-ABCDEFG.md` (date, time,
///   the first 7 characters of the other device's id), or without an
///   extension `Name.sync-conflict-20261123-101500-ABCDEFG`;
/// - Dropbox: `Name (Machine's conflicted copy 2026-11-23).md`, with or
///   without a date, a count or an extension inside the parentheses.
public enum ConflictCopy {
    /// The name of the file `name` is a conflict copy of, or nil when it is
    /// none.
    public static func original(of name: String) -> String? {
        syncthingOriginal(name) ?? dropboxOriginal(name)
    }

    public static func isCopy(_ name: String) -> Bool { mayBeCopy(name) && original(of: name) != nil }

    /// Whether `name` holds "conflict" at all: the scanner asks for every
    /// file, and nearly every answer is no, found without allocating.
    @inline(__always) public static func mayBeCopy(_ name: String) -> Bool {
        var s = name
        return s.withUTF8 { b in
            guard b.count >= 8 else { return false }
            for i in 0...(b.count - 8) where b[i] == UInt8(ascii: "c") && b[i + 1] == UInt8(ascii: "o") {
                if b[(i + 2)..<(i + 8)].elementsEqual("nflict".utf8) { return true }
            }
            return false
        }
    }

    private static let syncthingMark = Array(".sync-conflict-".utf8)
    private static let dropboxMark = Array("conflicted copy".utf8)

    private static func syncthingOriginal(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard let at = lastIndex(of: syncthingMark, in: bytes), at > 0 else { return nil }
        let rest = Array(bytes[(at + syncthingMark.count)...])
        // YYYYMMDD-HHMMSS-DEVICE, then the extension if any.
        guard rest.count >= 23 else { return nil }
        let digits = { (range: Range<Int>) in range.allSatisfy { (0x30...0x39).contains(rest[$0]) } }
        guard digits(0..<8), rest[8] == UInt8(ascii: "-"), digits(9..<15), rest[15] == UInt8(ascii: "-"),
            rest[16..<23].allSatisfy(isAlphanumeric)
        else { return nil }
        let tail = rest[23...]
        guard tail.isEmpty || tail.first == UInt8(ascii: ".") else { return nil }
        return String(decoding: bytes[..<at] + tail, as: UTF8.self)
    }

    private static func dropboxOriginal(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard let open = firstIndex(of: Array(" (".utf8), in: bytes), open > 0 else { return nil }
        // The parenthesis that closes the first one, nested counts included.
        var depth = 0
        var close = open + 2
        while close < bytes.count {
            if bytes[close] == UInt8(ascii: "(") {
                depth += 1
            } else if bytes[close] == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            }
            close += 1
        }
        guard close < bytes.count, firstIndex(of: dropboxMark, in: Array(bytes[(open + 2)..<close])) != nil
        else { return nil }
        let tail = bytes[(close + 1)...]
        guard tail.isEmpty || tail.first == UInt8(ascii: ".") else { return nil }
        return String(decoding: bytes[..<open] + tail, as: UTF8.self)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).last { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
