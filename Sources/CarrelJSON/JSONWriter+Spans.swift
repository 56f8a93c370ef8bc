/// Where each span of a document ended, in the order the spans began (a
/// span holds the spans begun inside it). A large document is written
/// twice, to learn its length and then to send it; the first writing keeps
/// its first bytes, and the second skips every span those bytes hold
/// instead of writing it again.
public struct SpanLog: Sendable {
    var ends: [Int] = []
    /// Spans in each span, itself included.
    var sizes: [Int32] = []
    public init() {}
}

extension JSONWriter {
    struct Replay {
        let log: SpanLog
        /// Bytes already sent: nothing below this is written again.
        let kept: Int
        var next = 0
    }

    /// Records the spans begun from now on; `spanLog` then holds them.
    public mutating func recordSpans() { spans = SpanLog() }
    public var spanLog: SpanLog? { spans }

    /// A second writing of a document whose first `kept` bytes were sent,
    /// with the span log of the first: it hands `drain` only what follows.
    public init(
        replaying log: SpanLog, after kept: Int, piece: Int, capacity: Int, drain: @escaping ([UInt8]) -> Void
    ) {
        self.init(piece: piece, capacity: capacity, drain: drain)
        replay = Replay(log: log, kept: kept)
    }

    /// Call before writing a value that may be skipped; nil means the value
    /// was skipped whole and must not be written. Pass what it returns to `endSpan`.
    public mutating func beginSpan() -> Int? {
        if var r = replay {
            let index = r.next
            // The documents diverged: nothing is skipped, and the sink's length check has the last word.
            guard index < r.log.ends.count else { return index }
            let end = r.log.ends[index]
            // A span the first writing never closed is written, not skipped.
            guard end >= 0, end <= r.kept else {
                r.next += 1
                replay = r
                return index
            }
            r.next += Int(r.log.sizes[index])
            replay = r
            bytes.removeAll(keepingCapacity: true)
            drained = end
            markItemWritten()
            return nil
        }
        guard spans != nil else { return -1 }
        let index = spans!.ends.count
        spans!.ends.append(-1)
        spans!.sizes.append(0)
        return index
    }

    public mutating func endSpan(_ index: Int) {
        guard replay == nil, spans != nil, index >= 0 else { return }
        spans!.ends[index] = count
        spans!.sizes[index] = Int32(spans!.ends.count - index)
    }
}
