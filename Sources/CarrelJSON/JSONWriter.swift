/// Writes JSON straight into a UTF-8 byte buffer. Hot paths (the full tree)
/// write through this without building `JSONValue`s first.
public struct JSONWriter {
    /// The bytes written and not yet handed to `drain`.
    public var bytes: [UInt8] = []
    /// Bytes already handed to `drain` (or skipped): `count` is the document's length so far.
    public internal(set) var drained = 0
    public var count: Int { drained + bytes.count }
    /// Takes the bytes once there are `drainAt` of them, so a document far
    /// larger than memory should hold (a full tree) is never whole in it.
    var drain: (([UInt8]) -> Void)?
    var drainAt = Int.max
    var piece = Int.max
    /// Spans (`JSONWriter+Spans.swift`): recorded on a first writing, skipped on a second.
    var spans: SpanLog?
    var replay: Replay?
    /// One flag per open container: has it written a member yet?
    private var hasMembers: [Bool] = []
    private var afterKey = false
    /// Pretty output (two-space indent) for files people read, like project.json.
    public let pretty: Bool

    public init(pretty: Bool = false, capacity: Int = 256) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    /// A writer that hands its bytes to `drain` in pieces of about `piece`
    /// bytes (the first of about `firstPiece`), each cut before a value or
    /// key starts; `finish()` hands the rest.
    public init(piece: Int, firstPiece: Int? = nil, capacity: Int, drain: @escaping ([UInt8]) -> Void) {
        let first = firstPiece ?? piece
        // One value may run past a piece's size before the next starts.
        self.init(capacity: min(capacity, first + 4096))
        self.drain = drain
        self.piece = piece
        drainAt = first
    }

    /// Hands what is left to `drain`, but for what a replay's kept prefix already holds.
    public mutating func finish() {
        guard let drain, !bytes.isEmpty else { return }
        let start = drained
        drained += bytes.count
        let kept = replay?.kept ?? 0
        if drained > kept {
            drain(start < kept ? Array(bytes[(kept - start)...]) : bytes)
        }
        if drainAt != piece {
            drainAt = piece
            bytes = []
            bytes.reserveCapacity(piece + 4096)
        } else {
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// A writer for one object member (a key, then its value) that will sit
    /// `depth` containers deep in a pretty document, so its bytes can be
    /// rendered once and written into many versions of that document with
    /// `member`. The result is the same, byte for byte, as writing the key
    /// and value there directly.
    public init(prettyFragmentAtDepth depth: Int, capacity: Int = 128) {
        self.init(pretty: true, capacity: capacity)
        hasMembers = Array(repeating: true, count: depth)
        afterKey = true
    }

    /// Writes an object member, key and value, rendered by a fragment
    /// writer at this depth.
    public mutating func member(_ rendered: [UInt8]) {
        beginItem()
        bytes.append(contentsOf: rendered)
    }

    private mutating func newline() {
        guard pretty else { return }
        bytes.append(0x0A)
        for _ in 0..<hasMembers.count { bytes.append(0x20); bytes.append(0x20) }
    }

    /// Every value and key starts here: a comma and indent unless it directly follows a key.
    private mutating func beginItem() {
        if bytes.count >= drainAt { finish() }
        if afterKey { afterKey = false; return }
        guard !hasMembers.isEmpty else { return }
        if hasMembers[hasMembers.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMembers[hasMembers.count - 1] = true
        newline()
    }

    /// What `beginItem` notes, for a value skipped rather than written.
    mutating func markItemWritten() {
        if afterKey { afterKey = false; return }
        if !hasMembers.isEmpty { hasMembers[hasMembers.count - 1] = true }
    }

    private mutating func open(_ c: UInt8) { beginItem(); bytes.append(c); hasMembers.append(false) }

    private mutating func close(_ c: UInt8) {
        let hadMembers = hasMembers.removeLast()
        if hadMembers { newline() }
        bytes.append(c)
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts an object member; the next write is its value.
    public mutating func key(_ k: String) {
        beginItem()
        writeString(k)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        afterKey = true
    }

    /// Starts a member whose key is a literal needing no escapes, as the
    /// wire's field names are: written without scanning, since a tree
    /// writes a dozen of them per node.
    public mutating func key(literal k: StaticString) {
        beginItem()
        bytes.append(0x22)
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        afterKey = true
    }

    public mutating func string(_ s: String) { beginItem(); writeString(s) }
    public mutating func int(_ v: Int) {
        beginItem()
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                n += 1
            } while m > 0
            for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    /// A string the caller knows needs no escaping (percent-encoded URIs), written as is.
    public mutating func asciiString(_ s: [UInt8]) {
        beginItem()
        bytes.append(0x22)
        bytes.append(contentsOf: s)
        bytes.append(0x22)
    }
    public mutating func double(_ v: Double) {
        beginItem()
        if v.isFinite {
            if v.rounded() == v, abs(v) < 1e15 {
                bytes.append(contentsOf: String(Int(v)).utf8)
            } else {
                bytes.append(contentsOf: "\(v)".utf8)
            }
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }
    public mutating func bool(_ v: Bool) { beginItem(); bytes.append(contentsOf: (v ? "true" : "false").utf8) }
    public mutating func null() { beginItem(); bytes.append(contentsOf: "null".utf8) }

    /// Writes any value; objects with their keys sorted.
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items { value(item) }
            endArray()
        case .object(let fields):
            beginObject()
            for (k, v) in fields.sorted(by: { $0.key < $1.key }) {
                key(k)
                value(v)
            }
            endObject()
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Bytes that need an escape in a JSON string: controls, quote, backslash.
    private static let needsEscape: [Bool] = (0..<256).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }

    private mutating func writeString(_ s: String) {
        bytes.append(0x22)
        var s = s
        s.withUTF8 { utf8 in
            Self.needsEscape.withUnsafeBufferPointer { escape in
                var runStart = 0
                for idx in 0..<utf8.count where escape[Int(utf8[idx])] {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<idx]))
                    runStart = idx + 1
                    let c = utf8[idx]
                    switch c {
                    case 0x22: bytes.append(0x5C); bytes.append(0x22)
                    case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                    case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                    case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                    case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                    default:
                        bytes.append(contentsOf: "\\u00".utf8)
                        bytes.append(Self.hex[Int(c >> 4)])
                        bytes.append(Self.hex[Int(c & 0xF)])
                    }
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            }
        }
        bytes.append(0x22)
    }
}

extension JSONValue {
    /// Compact JSON with sorted keys: the wire form, and the golden-test form.
    public func encoded(pretty: Bool = false) -> [UInt8] {
        var w = JSONWriter(pretty: pretty)
        w.value(self)
        return w.bytes
    }

    public func text(pretty: Bool = false) -> String { String(decoding: encoded(pretty: pretty), as: UTF8.self) }
}
