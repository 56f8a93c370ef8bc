import CarrelProtocol
import Foundation
import Glibc

/// Where the server's outgoing messages go: stdout, or a test client.
public protocol MessageSink: AnyObject, Sendable {
    /// One JSON body, unframed.
    func send(_ body: [UInt8])
    /// One JSON body of `length` bytes, handed over in pieces by `write`.
    func send(length: Int, _ write: (_ piece: ([UInt8]) -> Void) -> Void)
}

extension MessageSink {
    /// Gathers the pieces: for sinks that keep messages whole anyway.
    public func send(length: Int, _ write: (_ piece: ([UInt8]) -> Void) -> Void) {
        var fit = DeclaredLength(length)
        var body: [UInt8] = []
        body.reserveCapacity(length)
        write { body += fit.fit($0) }
        send(body + fit.padding())
    }
}

/// Log lines go to stderr (never stdout, which carries the protocol), and
/// with `--log-file` the raw traffic too.
public final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private let file: UnsafeMutablePointer<FILE>?

    public init(trafficFile: String? = nil) {
        file = trafficFile.flatMap { fopen($0, "a") }
    }

    public func line(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        let line = "carrel: \(text)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        if let file { fputs("-- \(text)\n", file); fflush(file) }
    }

    public func traffic(_ direction: String, _ body: [UInt8]) {
        trafficPiece(direction, body[...], first: true, last: true)
    }

    /// Part of a body sent in pieces, logged as one line.
    public func trafficPiece(_ direction: String, _ piece: ArraySlice<UInt8>, first: Bool, last: Bool) {
        guard let file else { return }
        lock.lock()
        defer { lock.unlock() }
        if first { fputs("\(direction) ", file) }
        _ = piece.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if last { fputs("\n", file) }
        fflush(file)
    }
}

/// LSP framing over stdin/stdout.
public final class StdioTransport: MessageSink, @unchecked Sendable {
    private let lock = NSLock()
    private let log: Log
    private let output: Int32

    /// `output` is stdout but in tests of the framing itself.
    public init(log: Log, output: Int32 = 1) {
        self.log = log
        self.output = output
        signal(SIGPIPE, SIG_IGN)
    }

    public func send(_ body: [UInt8]) {
        log.traffic("<-", body)
        let header = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        lock.lock()
        defer { lock.unlock() }
        // A small message goes out in one write, so the client wakes once;
        // a large one (a 50 MB tree) is never copied to be framed.
        if body.count <= 1 << 16 {
            writeAll(header + body)
        } else {
            writeAll(header)
            writeAll(body)
        }
    }

    /// The header goes out first, then each piece as it is rendered, so the
    /// body is never whole in memory; the lock keeps other messages out of it.
    /// A thread of its own writes the pieces, so that rendering the next
    /// ones goes on while the client reads; at most `queuedLimit` bytes wait.
    public func send(length: Int, _ write: (_ piece: ([UInt8]) -> Void) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        writeAll(Array("Content-Length: \(length)\r\n\r\n".utf8)[...])
        let queue = PieceQueue(limit: Self.queuedLimit)
        let done = DispatchSemaphore(value: 0)
        let writer = Thread { [self] in
            while let piece = queue.take() { writeAll(piece[...]) }
            done.signal()
        }
        writer.name = "carrel-reply-writer"
        writer.start()
        var fit = DeclaredLength(length)
        var first = true
        write { piece in
            let fitting = fit.fit(piece)
            log.trafficPiece("<-", fitting, first: first, last: false)
            first = false
            queue.put(fitting.count == piece.count ? piece : Array(fitting))
        }
        let padding = fit.padding()
        log.trafficPiece("<-", padding[...], first: first, last: true)
        queue.put(padding)
        queue.close()
        done.wait()
        if fit.mismatched {
            log.line("a \(length)-byte reply came out at another length the second time; sent cut or padded to fit")
        }
    }

    /// Bytes rendered and not yet written that a streamed reply may hold.
    static let queuedLimit = 8 << 20

    private func writeAll(_ bytes: [UInt8]) { writeAll(bytes[...]) }

    private func writeAll(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = write(output, buf.baseAddress! + off, buf.count - off)
                if n < 0 { if errno == EINTR { continue }; return }
                off += n
            }
        }
    }

    /// Reads stdin until it closes, handing each body to `server`, then
    /// exits. The reading happens on a thread with the work thread's stack,
    /// so a request that finds the server idle runs right there.
    public func run(_ server: Server) -> Never {
        let reader = Thread { [self] in self.readLoop(into: server) }
        reader.name = "carrel-stdin"
        reader.stackSize = Server.workStackSize
        reader.start()
        while true { pause() }
    }

    private func readLoop(into server: Server) -> Never {
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var frames: [MessageFramer.Frame] = []
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            framer.feed(chunk[0..<n])
            while let frame = framer.next() { frames.append(frame) }
            for (i, frame) in frames.enumerated() {
                switch frame {
                case .body(let body):
                    log.traffic("->", body)
                    // Only the last message of a read may run here, so a
                    // cancellation read with a request is noted before it runs.
                    server.receive(body, mayRunHere: i == frames.count - 1)
                case .malformedHeader(let why):
                    log.line("skipped a frame with a malformed header: \(why)")
                case .tooLarge(let size):
                    log.line("skipped a \(size)-byte body: larger than \(MessageFramer.maxBody) bytes")
                case .cutShort(let declared, let received):
                    log.line("dropped a body cut short: a new header began after \(received) of its \(declared) bytes")
                }
            }
            frames.removeAll(keepingCapacity: true)
        }
        server.inputClosed()
        exit(server.exitCode)
    }
}

/// Pieces of one reply on their way from the renderer to the writer thread.
/// `put` waits while more than `limit` bytes are queued.
final class PieceQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pieces: [[UInt8]] = []
    private var head = 0
    private var queued = 0
    private var closed = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func put(_ piece: [UInt8]) {
        guard !piece.isEmpty else { return }
        condition.lock()
        while queued > limit { condition.wait() }
        pieces.append(piece)
        queued += piece.count
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next piece, or nil once the queue is closed and empty.
    func take() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while head == pieces.count && !closed { condition.wait() }
        guard head < pieces.count else { return nil }
        let piece = pieces[head]
        pieces[head] = []
        head += 1
        queued -= piece.count
        if head == pieces.count { pieces.removeAll(keepingCapacity: true); head = 0 }
        condition.broadcast()
        return piece
    }
}
