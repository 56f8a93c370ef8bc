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
    }

    private var buffer: [UInt8] = []
    private var start = 0
    private var expected: Int?
    private var skipping = 0

    public init() {}

    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    public mutating func next() -> Frame? {
        while true {
            if skipping > 0 {
                let n = min(skipping, buffer.count - start)
                start += n
                skipping -= n
                compact()
                if skipping > 0 { return nil }
            }
            if let length = expected {
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start..<(start + length)])
                start += length
                expected = nil
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
            let header = String(decoding: buffer[start..<end.headerEnd], as: UTF8.self)
            start = end.bodyStart
            switch Self.contentLength(header) {
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

    private struct Problem: Error { let text: String }

    private static func contentLength(_ header: String) -> Result<Int, Problem> {
        var length: Int?
        for line in header.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { return .failure(Problem(text: "header line without ':'")) }
            let name = line[..<colon].trimmingSpaces.lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            if name == "content-length" {
                guard !value.isEmpty, value.allSatisfy(\.isASCIIDigit), value.count <= 12, let n = Int(value) else {
                    return .failure(Problem(text: "Content-Length is not a non-negative integer: “\(value)”"))
                }
                length = n
            }
        }
        guard let length else { return .failure(Problem(text: "no Content-Length header")) }
        return .success(length)
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
            while j < name.count, block[i + j] | (block[i + j] >= 0x41 && block[i + j] <= 0x5A ? 0x20 : 0) == name[j] { j += 1 }
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

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
