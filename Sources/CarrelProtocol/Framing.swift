/// LSP base-protocol framing, separate from dispatch so tests can drive the
/// server without pipes. Feed bytes in any chunking; take frames out.
public struct MessageFramer {
    /// Bodies larger than this are skipped without being buffered.
    public static let maxBody = 64 << 20
    static let maxHeader = 8 << 10

    public enum Frame: Equatable {
        case body([UInt8])
        /// A header block that could not be understood; it was skipped.
        case malformedHeader(String)
        /// A body over the limit; its bytes are being skipped.
        case tooLarge(Int)
        /// A new header began before the body reached its `Content-Length`:
        /// the client lied about the length. The bytes before the header
        /// were dropped and reading resumed at it.
        case cutShort(declared: Int, received: Int)
    }

    private var buffer: [UInt8] = []
    private var start = 0
    private var expected: Int?
    /// How far past `start` the expected body is known to hold no header.
    private var scanned = 0
    private var skipping = 0

    public init() {}

    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    ///
    /// A body is cut short, and an oversized body's skip ends, where a
    /// plausible header line begins (see `sighting(at:)`): a well-formed
    /// JSON body can never hold one, so only a client that lied about a
    /// length loses anything, and it loses that one message.
    public mutating func next() -> Frame? {
        while true {
            if skipping > 0 {
                let limit = start + min(skipping, buffer.count - start)
                switch scanForHeader(from: start, to: limit) {
                case .header(let at):
                    skipping = 0
                    start = at
                case .undecided(let at):
                    skipping -= at - start
                    start = at
                    compact()
                    return nil
                case .clear:
                    skipping -= limit - start
                    start = limit
                    compact()
                    if skipping > 0 { return nil }
                }
            }
            if let length = expected {
                let end = start + length
                switch scanForHeader(from: start + scanned, to: min(end, buffer.count)) {
                case .header(let at):
                    let received = at - start
                    start = at
                    expected = nil
                    scanned = 0
                    compact()
                    return .cutShort(declared: length, received: received)
                case .undecided(let at):
                    scanned = at - start
                    return nil
                case .clear:
                    scanned = min(end, buffer.count) - start
                }
                guard buffer.count >= end else { return nil }
                let body = Array(buffer[start..<end])
                start = end
                expected = nil
                scanned = 0
                compact()
                return .body(body)
            }
            guard let end = headerEnd() else {
                if buffer.count - start > Self.maxHeader {
                    // No header terminator in sight: drop what we have, resync later.
                    start = buffer.count
                    compact()
                    return .malformedHeader("header longer than \(Self.maxHeader) bytes without a blank line")
                }
                return nil
            }
            let headerStart = start
            start = end.bodyStart
            switch Self.contentLength(buffer[headerStart..<end.headerEnd]) {
            case .success(let length):
                if length > Self.maxBody {
                    skipping = length
                    return .tooLarge(length)
                }
                expected = length
            case .failure(let problem):
                // After a body shorter than its Content-Length, the next
                // header is glued to leftover bytes: resume at it, so one
                // bad frame costs one message, not the rest of the session.
                if let k = Self.resyncOffset(buffer[headerStart..<end.headerEnd]) { start = headerStart + k }
                compact()
                return .malformedHeader(problem.text)
            }
        }
    }

    private enum Scan {
        case clear
        case header(Int)
        case undecided(Int)
    }

    /// The first place in `from..<to` where a header line begins, or where
    /// the bytes so far cannot tell yet.
    private func scanForHeader(from: Int, to: Int) -> Scan {
        var p = from
        while p < to {
            // "C" and "c" are the only bytes that become "c" with 0x20 set.
            if buffer[p] | 0x20 == 0x63 {
                switch sighting(at: p) {
                case .none: break
                case .header: return .header(p)
                case .undecided: return .undecided(p)
                }
            }
            p += 1
        }
        return .clear
    }

    private enum Sighting { case none, header, undecided }

    /// Whether a header line begins at `p`: "Content-Length:" in any case,
    /// at most 16 spaces or tabs, 1 to 12 digits, at most 16 spaces or tabs,
    /// then CR or LF. JSON allows letters only inside strings and a string
    /// cannot hold a raw CR or LF, so no well-formed JSON body holds one.
    private func sighting(at p: Int) -> Sighting {
        var k = p
        for c in Self.contentLengthName {
            guard k < buffer.count else { return .undecided }
            guard buffer[k] | (buffer[k] &- 0x41 < 26 ? 0x20 : 0) == c else { return .none }
            k += 1
        }
        func run(_ limit: Int, _ accept: (UInt8) -> Bool) -> Int? {
            var n = 0
            while k < buffer.count, accept(buffer[k]) {
                n += 1
                k += 1
                if n > limit { return nil }
            }
            return n
        }
        let isSpace = { (b: UInt8) in b == 0x20 || b == 0x09 }
        guard run(16, isSpace) != nil, let digits = run(12, { $0 &- 0x30 < 10 }) else { return .none }
        guard k < buffer.count else { return .undecided }
        guard digits > 0 else { return .none }
        guard run(16, isSpace) != nil else { return .none }
        guard k < buffer.count else { return .undecided }
        return buffer[k] == 0x0D || buffer[k] == 0x0A ? .header : .none
    }

    private struct Problem: Error { let text: String }

    /// Reads the header block's bytes without making Strings: every request
    /// passes here before it can run, and the String version cost a few
    /// microseconds of each one. Lines end at CR, LF or both; names compare
    /// ASCII case-insensitively; spaces and tabs around names and values
    /// are ignored.
    private static func contentLength(_ header: ArraySlice<UInt8>) -> Result<Int, Problem> {
        var length: Int?
        var lineStart = header.startIndex
        while lineStart < header.endIndex {
            var lineEnd = lineStart
            while lineEnd < header.endIndex, header[lineEnd] != 0x0D, header[lineEnd] != 0x0A { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            guard lineEnd > lineStart else { continue }
            guard let colon = header[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(Problem(text: "header line without ':'"))
            }
            guard isContentLength(trimmingSpaces(header[lineStart..<colon])) else { continue }
            let value = trimmingSpaces(header[(colon + 1)..<lineEnd])
            guard !value.isEmpty, value.count <= 12, value.allSatisfy({ $0 &- 0x30 < 10 }) else {
                return .failure(
                    Problem(
                        text:
                            "Content-Length is not a non-negative integer: “\(String(decoding: value, as: UTF8.self))”")
                )
            }
            length = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let length else { return .failure(Problem(text: "no Content-Length header")) }
        return .success(length)
    }

    private static func trimmingSpaces(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = bytes
        while let b = s.first, b == 0x20 || b == 0x09 { s.removeFirst() }
        while let b = s.last, b == 0x20 || b == 0x09 { s.removeLast() }
        return s
    }

    private static func isContentLength(_ name: ArraySlice<UInt8>) -> Bool {
        name.count == contentLengthName.count - 1
            && zip(name, contentLengthName).allSatisfy { $0 | ($0 &- 0x41 < 26 ? 0x20 : 0) == $1 }
    }

    private static let contentLengthName = Array("content-length:".utf8)

    /// Where a "Content-Length:" starts inside a rejected header block, if
    /// anywhere but its very beginning (ASCII case-insensitive).
    static func resyncOffset(_ block: ArraySlice<UInt8>) -> Int? {
        let name = contentLengthName
        guard block.count > name.count else { return nil }
        var i = block.startIndex + 1
        while i + name.count <= block.endIndex {
            var j = 0
            while j < name.count, block[i + j] | (block[i + j] >= 0x41 && block[i + j] <= 0x5A ? 0x20 : 0) == name[j] {
                j += 1
            }
            if j == name.count { return i - block.startIndex }
            i += 1
        }
        return nil
    }

    /// Finds "\r\n\r\n" (or a bare "\n\n", from lenient clients).
    private func headerEnd() -> (headerEnd: Int, bodyStart: Int)? {
        var i = start
        while i < buffer.count {
            if buffer[i] == 0x0A {
                if i + 1 < buffer.count, buffer[i + 1] == 0x0A { return (i, i + 2) }
                if i + 2 < buffer.count, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return (i, i + 3) }
            }
            i += 1
        }
        return nil
    }

    private mutating func compact() {
        if start > 0 && (start == buffer.count || start > 1 << 20) {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// Frames a body for sending.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        var out = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        out.append(contentsOf: body)
        return out
    }
}
