/// `file:` URIs ↔ raw path bytes. Percent-decoding yields bytes, so names
/// that are not valid UTF-8 round-trip.
public enum FileURI {
    public enum Problem: Error, Equatable { case notFileURI }

    /// Decodes an absolute `file:` URI without query or fragment.
    public static func path(_ uri: String) throws(Problem) -> [UInt8] {
        let bytes = Array(uri.utf8)
        let scheme = Array("file://".utf8)
        // The scheme's letters in any case; "://" exactly (folding case there
        // would let control bytes 0x0F and 0x1A pass for "/" and ":").
        guard bytes.count > scheme.count, bytes[0..<4].map({ $0 | 0x20 }) == scheme[0..<4].map({ $0 }),
            bytes[4..<7].elementsEqual(scheme[4..<7])
        else { throw .notFileURI }
        var rest = Array(bytes[scheme.count...])
        // Authority: empty or "localhost".
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { throw .notFileURI }
        let host = rest[..<slash]
        guard host.isEmpty || String(decoding: host, as: UTF8.self).lowercased() == "localhost" else {
            throw .notFileURI
        }
        rest = Array(rest[slash...])
        if rest.contains(UInt8(ascii: "?")) || rest.contains(UInt8(ascii: "#")) { throw .notFileURI }
        var out: [UInt8] = []
        out.reserveCapacity(rest.count)
        var i = 0
        while i < rest.count {
            let c = rest[i]
            if c == UInt8(ascii: "%") {
                guard i + 2 < rest.count, let h = hex(rest[i + 1]), let l = hex(rest[i + 2]) else { throw .notFileURI }
                let b = h << 4 | l
                if b == 0 || b == UInt8(ascii: "/") { throw .notFileURI }
                out.append(b)
                i += 3
            } else {
                // A raw NUL would cut the path short in every system call.
                if c == 0 { throw .notFileURI }
                out.append(c)
                i += 1
            }
        }
        return out
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let digits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Encodes an absolute path: unreserved characters and "/" stay, the rest is %XX.
    public static func uri(_ path: [UInt8]) -> String {
        var out: [UInt8] = Array("file://".utf8)
        out.reserveCapacity(path.count + 16)
        appendEncoded(path, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes that stay as they are in a URI path: unreserved characters and "/".
    private static let plain: [Bool] = (0..<256).map { b in
        let c = UInt8(b)
        return (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "/") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
            || c == UInt8(ascii: "~")
    }

    /// Percent-encodes `bytes` onto `out`: for building a child's URI from its parent's.
    public static func appendEncoded(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + bytes.count + 8)
        plain.withUnsafeBufferPointer { plain in
            bytes.withUnsafeBufferPointer { src in
                for b in src {
                    if plain[Int(b)] {
                        out.append(b)
                    } else {
                        out.append(UInt8(ascii: "%"))
                        out.append(digits[Int(b >> 4)])
                        out.append(digits[Int(b & 0xF)])
                    }
                }
            }
        }
    }
}
