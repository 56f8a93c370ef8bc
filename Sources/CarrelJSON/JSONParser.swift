/// A strict RFC 8259 parser over UTF-8 bytes. Iterative where it matters:
/// nesting is bounded by `maxDepth` so hostile input cannot overflow the stack.
///
/// Ill-formed UTF-8 inside a string (a stray continuation byte, a truncated
/// or overlong sequence, an encoded surrogate, anything above U+10FFFF) and
/// `\u` escapes of lone surrogates are refused with `refusingInvalidUTF8`,
/// as the wire does: a name typed as "Café" must never become "Caf\u{FFFD}"
/// on disk. Without it they become U+FFFD, so a hand-edited file on disk
/// stays readable.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "JSON parse error at byte \(offset): \(reason)" }
}

public enum JSONParser {
    public static let maxDepth = 256

    public static func parse(_ bytes: [UInt8], refusingInvalidUTF8: Bool = false) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buf throws(JSONParseError) in
            var p = Cursor(buf: buf, strictUTF8: refusingInvalidUTF8)
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            if p.i != buf.count { throw p.fail("unexpected data after the JSON value") }
            return v
        }
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Cursor {
    let buf: UnsafeBufferPointer<UInt8>
    let strictUTF8: Bool
    var i = 0

    init(buf: UnsafeBufferPointer<UInt8>, strictUTF8: Bool) {
        self.buf = buf
        self.strictUTF8 = strictUTF8
    }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    mutating func skipSpace() {
        while i < buf.count {
            switch buf[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw fail("nesting deeper than \(JSONParser.maxDepth) levels") }
        guard i < buf.count else { throw fail("unexpected end of input") }
        switch buf[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= buf.count else { throw fail("unexpected end of input") }
        let w = word.utf8Start
        for k in 0..<n where buf[i + k] != w[k] { throw fail("invalid literal") }
        i += n
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if i < buf.count, buf[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
        while true {
            skipSpace()
            guard i < buf.count, buf[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try string()
            skipSpace()
            guard i < buf.count, buf[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipSpace()
            fields[key] = try value(depth: depth + 1)
            skipSpace()
            guard i < buf.count else { throw fail("unexpected end of input") }
            if buf[i] == UInt8(ascii: ",") { i += 1; continue }
            if buf[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < buf.count, buf[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < buf.count else { throw fail("unexpected end of input") }
            if buf[i] == UInt8(ascii: ",") { i += 1; continue }
            if buf[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw fail("expected ',' or ']'")
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= buf.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = buf[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("control character in string") }
            if c >= 0x80 && strictUTF8 { i += try wellFormedSequence(); continue }
            i += 1
        }
        var out = Array(buf[start..<i])
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character in string") }
            if c >= 0x80 && strictUTF8 {
                let n = try wellFormedSequence()
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<(i + n)]))
                i += n
                continue
            }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < buf.count else { throw fail("unexpected end of input") }
            let e = buf[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let escape = i - 2
                var scalar = try hex4()
                if strictUTF8, (0xD800..<0xE000).contains(scalar) {
                    scalar = try surrogatePair(scalar, escapeAt: escape)
                } else if (0xD800..<0xDC00).contains(scalar) {
                    if i + 6 <= buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00..<0xE000).contains(scalar) {
                    scalar = 0xFFFD
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default: throw fail("invalid escape")
            }
        }
        throw fail("unterminated string")
    }

    /// The length of the well-formed UTF-8 sequence at `i` (RFC 3629 table 3-7).
    func wellFormedSequence() throws(JSONParseError) -> Int {
        let lead = buf[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0  // below is overlong
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F  // above is a surrogate
        case 0xF0: length = 4; low = 0x90  // below is overlong
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F  // above is past U+10FFFF
        default: throw fail("invalid UTF-8 in a string (byte 0x\(String(lead, radix: 16, uppercase: true)))")
        }
        guard i + length <= buf.count, (low...high).contains(buf[i + 1]),
            (2..<length).allSatisfy({ buf[i + $0] & 0xC0 == 0x80 })
        else { throw fail("invalid UTF-8 in a string (a truncated or overlong sequence, or a surrogate)") }
        return length
    }

    /// A high surrogate escape followed by a low one, as one scalar; anything else is refused.
    mutating func surrogatePair(_ high: UInt32, escapeAt escape: Int) throws(JSONParseError) -> UInt32 {
        let lone = JSONParseError(offset: escape, reason: "a \\u escape of a lone surrogate is not a character")
        guard high < 0xDC00, i + 6 <= buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u")
        else { throw lone }
        i += 2
        let low = try hex4()
        guard (0xDC00..<0xE000).contains(low) else { throw lone }
        return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    }

    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = i
        var isInteger = true
        if buf[i] == UInt8(ascii: "-") { i += 1 }
        guard i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) else {
            throw fail("invalid number")
        }
        if buf[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) { i += 1 }
        }
        if i < buf.count, buf[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let digits = i
            while i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) { i += 1 }
            if i == digits { throw fail("invalid number") }
        }
        if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
            let digits = i
            while i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) { i += 1 }
            if i == digits { throw fail("invalid number") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
        if isInteger, let v = Int(text) { return .int(v) }
        guard let d = Double(text) else { throw fail("invalid number") }
        return .double(d)
    }
}
