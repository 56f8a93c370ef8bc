import CarrelJSON
import CarrelProtocol
import Foundation

/// A JSON-RPC client of one `ServerProcess`: a reader thread parses what
/// the server writes, files the responses to this client's requests by id,
/// and hands every other message (notifications, the server's own
/// requests, responses to bodies sent raw) to `other`, on the reader
/// thread. Waits are bounded: a dead or silent server ends them.
public final class LanguageClient: @unchecked Sendable {
    public let process: ServerProcess
    private let state: State

    /// What happened to a request.
    public enum Failure: Error, CustomStringConvertible {
        /// The server answered with an error.
        case response(method: String, error: JSONValue)
        /// No answer within the timeout.
        case timeout(method: String)
        /// The server's output ended first.
        case serverGone(method: String)
        /// The result is not the shape the request promises.
        case unexpected(method: String, result: JSONValue)

        public var description: String {
            switch self {
            case .response(let m, let e): return "\(m) failed: \(e.text())"
            case .timeout(let m): return "\(m): no response in time"
            case .serverGone(let m): return "\(m): the server exited first"
            case .unexpected(let m, let r): return "\(m): unexpected result \(r.text())"
            }
        }
    }

    /// `other` receives each message that is not a response to `request`
    /// or `call`, unparseable bodies as `.null`. Without it, the server's
    /// requests (confirmations) are answered "Delete" and counted, and
    /// notifications are kept for `notification(timeout:_:)`.
    public init(_ process: ServerProcess, other: (@Sendable (JSONValue) -> Void)? = nil) {
        self.process = process
        let state = State()
        self.state = state
        let handle =
            other ?? { [weak process] m in
                guard m["method"] != nil else { return }
                if let id = m["id"] {
                    state.countConfirmation()
                    process?.send(["jsonrpc": "2.0", "id": id, "result": ["title": "Delete"]])
                } else {
                    state.keep(m)
                }
            }
        Thread.detachNewThread {
            var framer = MessageFramer()
            while process.read(into: &framer) {
                while let frame = framer.next() {
                    guard case .body(let body) = frame else { continue }
                    let m = (try? JSONParser.parse(body)) ?? .null
                    if m["method"] == nil, let id = m["id"]?.intValue, state.file(id, m) { continue }
                    handle(m)
                }
            }
            state.end()
        }
    }

    deinit {
        if process.isRunning { process.kill() }
    }

    /// How many of the server's requests were answered "Delete".
    public var confirmations: Int { state.confirmations }

    /// True once the server's output has ended.
    public var isDead: Bool { state.isEnded }

    public func notify(_ method: String, _ params: JSONValue = .object([:])) {
        process.send(Envelope.notification(method, params))
    }

    /// Sends a request and returns its id, for `response(_:timeout:)`.
    public func request(_ method: String, _ params: JSONValue) -> Int {
        let id = state.newID()
        process.send(Envelope.request(id: .int(id), method, params))
        return id
    }

    /// The whole response message, or nil when the server died or the
    /// bounded wait ran out.
    public func response(_ id: Int, timeout: TimeInterval = 30) -> JSONValue? {
        state.take(id, until: Date().addingTimeInterval(timeout))
    }

    /// Sends a request and returns its result, throwing its error.
    public func call(_ method: String, _ params: JSONValue, timeout: TimeInterval = 30) throws -> JSONValue {
        let id = request(method, params)
        guard let r = response(id, timeout: timeout) else {
            throw isDead ? Failure.serverGone(method: method) : Failure.timeout(method: method)
        }
        if let e = r["error"] { throw Failure.response(method: method, error: e) }
        return r["result"] ?? .null
    }

    /// A typed request: its params out, its `Response` back.
    @discardableResult
    public func send<R: ClientRequest>(_ request: R, timeout: TimeInterval = 30) throws -> R.Response {
        let result = try call(R.method, request.params, timeout: timeout)
        guard let response = R.decode(result) else { throw Failure.unexpected(method: R.method, result: result) }
        return response
    }

    /// Removes and returns the first kept notification matching `match`.
    public func notification(timeout: TimeInterval, _ match: (JSONValue) -> Bool) -> JSONValue? {
        state.takeKept(match, until: Date().addingTimeInterval(timeout))
    }

    /// Forgets the notifications kept so far.
    public func dropNotifications() { state.dropKept() }
}

/// What the reader thread and the callers share, under one condition.
private final class State: @unchecked Sendable {
    private let condition = NSCondition()
    private var responses: [Int: JSONValue] = [:]
    private var awaited: Set<Int> = []
    private var kept: [JSONValue] = []
    private var ended = false
    private var lastID = 0
    private var confirmed = 0

    func newID() -> Int {
        condition.lock()
        defer { condition.unlock() }
        lastID += 1
        awaited.insert(lastID)
        return lastID
    }

    /// Files a response to one of ours; false when it is not one.
    func file(_ id: Int, _ m: JSONValue) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard awaited.contains(id) else { return false }
        responses[id] = m
        condition.broadcast()
        return true
    }

    func take(_ id: Int, until deadline: Date) -> JSONValue? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let r = responses.removeValue(forKey: id) {
                awaited.remove(id)
                return r
            }
            if ended || !condition.wait(until: deadline) {
                awaited.remove(id)
                return nil
            }
        }
    }

    func keep(_ m: JSONValue) {
        condition.lock()
        kept.append(m)
        condition.broadcast()
        condition.unlock()
    }

    func takeKept(_ match: (JSONValue) -> Bool, until deadline: Date) -> JSONValue? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let i = kept.firstIndex(where: match) { return kept.remove(at: i) }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    func dropKept() {
        condition.lock()
        kept.removeAll()
        condition.unlock()
    }

    func countConfirmation() {
        condition.lock()
        confirmed += 1
        condition.unlock()
    }

    var confirmations: Int {
        condition.lock()
        defer { condition.unlock() }
        return confirmed
    }

    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    var isEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }
}
