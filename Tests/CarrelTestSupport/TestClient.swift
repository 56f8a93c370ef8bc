import CarrelClient
import CarrelJSON
import CarrelProtocol
import CarrelServer
import Foundation

public struct TestTimeout: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "timed out waiting for \(what)" }
}

/// Collects the server's messages and lets a test wait for one, with a timeout.
public final class Inbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var messages: [JSONValue] = []

    public init() {}

    public func put(_ m: JSONValue) {
        condition.lock()
        messages.append(m)
        condition.broadcast()
        condition.unlock()
    }

    /// Removes and returns the first message matching `match`.
    public func take(_ what: String, timeout: TimeInterval = 10, _ match: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let i = messages.firstIndex(where: match) { return messages.remove(at: i) }
            if !condition.wait(until: deadline) { throw TestTimeout(what: what) }
        }
    }

    public var pending: [JSONValue] {
        condition.lock()
        defer { condition.unlock() }
        return messages
    }
}

/// How the fake editor answers `window/showMessageRequest`.
public enum ConfirmAnswer: Sendable {
    case title(String)
    case null
    case error
}

/// Shared request logic for the in-process and the stdio clients.
public protocol LSPTestClient: AnyObject {
    var inbox: Inbox { get }
    var answer: ConfirmAnswer { get set }
    var asked: [JSONValue] { get set }
    func sendBody(_ body: [UInt8])
    func nextID() -> Int
}

extension LSPTestClient {
    public func send(_ message: JSONValue) { sendBody(message.encoded()) }

    public func notify(_ method: String, _ params: JSONValue = .object([:])) {
        send(Envelope.notification(method, params))
    }

    /// Sends a request and waits for its response, answering confirmations on the way.
    public func request(_ method: String, _ params: JSONValue = .object([:]), timeout: TimeInterval = 10) throws
        -> JSONValue
    {
        let id = nextID()
        send(Envelope.request(id: .int(id), method, params))
        return try response(id: RequestID.int(id), timeout: timeout)
    }

    public func response(id: JSONValue, timeout: TimeInterval = 10) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let m = try inbox.take(
                "response \(id) (or a server request)", timeout: max(0.01, deadline.timeIntervalSinceNow)
            ) {
                ($0["id"] == id && $0["method"] == nil) || ($0["method"] != nil && $0["id"] != nil)
            }
            if m["method"] == nil { return m }
            asked.append(m)
            switch answer {
            case .title(let t): send(["jsonrpc": "2.0", "id": m["id"]!, "result": ["title": .string(t)]])
            case .null: send(["jsonrpc": "2.0", "id": m["id"]!, "result": .null])
            case .error: send(["jsonrpc": "2.0", "id": m["id"]!, "error": ["code": -32601, "message": "unsupported"]])
            }
        }
    }

    public func response(id: RequestID, timeout: TimeInterval = 10) throws -> JSONValue {
        try response(id: id.json, timeout: timeout)
    }

    /// The result, or a thrown description of the error.
    public func result(_ method: String, _ params: JSONValue = .object([:])) throws -> JSONValue {
        let r = try request(method, params)
        if let e = r["error"] { throw ResponseFailure(error: e) }
        return r["result"] ?? .null
    }

    public func command(_ name: String, _ args: JSONValue) throws -> JSONValue {
        try request(ExecuteCommand.method, ExecuteCommand(name, args).params)
    }

    public func initialize(_ folders: [String], locale: String = "en") throws -> JSONValue {
        let r = try result(Initialize.method, Initialize(folders: folders, locale: locale).params)
        notify("initialized")
        return r
    }

    /// Waits for a carrel/didChange whose changes satisfy `match`.
    public func waitForChange(timeout: TimeInterval = 5, _ match: @escaping ([JSONValue]) -> Bool) throws -> [JSONValue]
    {
        let m = try inbox.take("carrel/didChange", timeout: timeout) {
            $0["method"] == "carrel/didChange" && match($0["params"]?["changes"]?.arrayValue ?? [])
        }
        return m["params"]?["changes"]?.arrayValue ?? []
    }
}

public struct ResponseFailure: Error, CustomStringConvertible {
    public let error: JSONValue
    public var description: String { error.text() }
    public var reason: String? { error["data"]?["reason"]?.stringValue }
}

/// Drives a `Server` in process: no pipes, no framing.
public final class InProcessClient: LSPTestClient, MessageSink, @unchecked Sendable {
    public let inbox = Inbox()
    public var answer = ConfirmAnswer.title("Delete")
    public var asked: [JSONValue] = []
    public private(set) var exitCode: Int32?
    private var counter = 0
    private var server: Server!

    public init() {
        let forward = Forward()
        server = Server(sink: forward, log: Log()) { [weak self] code in self?.exitCode = code }
        forward.client = self
    }

    /// The server holds its sink; through this one it does not hold the
    /// client, so a test that drops its client ends its server's watching.
    private final class Forward: MessageSink, @unchecked Sendable {
        weak var client: InProcessClient?
        func send(_ body: [UInt8]) { client?.send(body) }
    }

    deinit { server.stopWatching() }

    public func send(_ body: [UInt8]) {
        inbox.put((try? JSONParser.parse(body)) ?? .null)
    }

    public func sendBody(_ body: [UInt8]) { server.receive(body) }

    public func nextID() -> Int {
        counter += 1
        return counter
    }
}
