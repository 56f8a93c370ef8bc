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
                return .failure(Problem(text: "Content-Length is not a non-negative integer: “\(String(decoding: value, as: UTF8.self))”"))
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
