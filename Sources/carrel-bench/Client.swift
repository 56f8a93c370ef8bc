import CarrelClient
import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// The real `carrel lsp` (the shared `ServerProcess`), read on the
/// calling thread: a reader thread would put a hand-off between threads
/// into every timing.
final class BenchClient {
    let server: ServerProcess
    private var framer = MessageFramer()
    private var notifications: [JSONValue] = []
    private var responses: [Int: JSONValue] = [:]
    private var nextID = 1
    /// The title the server's questions are answered with: confirmations
    /// are accepted, and the links question gets "Update Links" when set so.
    var answer = "Delete"

    init(binary: String, environment: [String: String]) throws {
        server = try ServerProcess(binary: binary, environment: ServerProcess.inheriting(environment))
    }

    func send(_ message: JSONValue) { server.send(message) }

    /// Reads until a notification matching `match` arrives; others are kept for later.
    func wait(_ match: (JSONValue) -> Bool) -> JSONValue {
        var checked = 0
        while true {
            if let i = notifications[checked...].firstIndex(where: match) { return notifications.remove(at: i) }
            checked = notifications.count
            readMessages()
        }
    }

    /// Reads what has arrived and files each message: a response by its id,
    /// a notification in order. The server's own requests are confirmations,
    /// which the benchmark always accepts. Responses are looked up by id, not
    /// searched for among the notifications that every command sends, which
    /// had charged each command a scan of hundreds of them.
    private func readMessages() {
        if !fileFramedMessages() {
            readAvailable()
            fileFramedMessages()
        }
    }

    /// Files the whole messages already read. False when there were none.
    @discardableResult
    private func fileFramedMessages() -> Bool {
        var bodies = unfiled
        unfiled.removeAll()
        while let frame = framer.next() {
            if case .body(let body) = frame { bodies.append(body) }
        }
        for body in bodies { file(body) }
        return !bodies.isEmpty
    }

    private func file(_ body: [UInt8]) {
        guard let m = try? JSONParser.parse(body) else { return }
        if m["method"] != nil {
            if let id = m["id"] {
                send(["jsonrpc": "2.0", "id": id, "result": ["title": .string(answer)]])
            } else {
                notifications.append(m)
            }
        } else if case .int(let id)? = m["id"] {
            responses[id] = m
        }
    }

    /// Bodies read while waiting for a response, kept unparsed until a
    /// notification is waited for.
    private var unfiled: [[UInt8]] = []

    /// A typed request, parsed: for setting up, never timed alone.
    @discardableResult
    func send<R: ClientRequest>(_ request: R) -> R.Response {
        let result = self.request(R.method, request.params)
        guard let response = R.decode(result) else { fatalError("\(R.method): unexpected result \(result.text())") }
        return response
    }

    @discardableResult
    func request(_ method: String, _ params: JSONValue) -> JSONValue {
        let id = nextID
        nextID += 1
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        var response: JSONValue?
        while true {
            response = responses.removeValue(forKey: id)
            if response != nil { break }
            readMessages()
        }
        let r = response!
        if let e = r["error"] { fatalError("\(method) failed: \(e.text())") }
        return r["result"] ?? .null
    }

    /// Sends a request and returns when its whole response has arrived,
    /// without parsing it or anything read before it: the figure is the
    /// server's, not this parser's. The server writes keys in order, so a
    /// result starts with its id, and an error with "error" (parsed: rare).
    func requestUnparsed(_ method: String, _ params: JSONValue) -> [UInt8] {
        let id = nextID
        nextID += 1
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        let result = Array(#"{"id":\#(id),"jsonrpc":"2.0","result":"#.utf8)
        let error = Array(#"{"error":"#.utf8)
        let request = Array(#"{"id":"#.utf8)
        while true {
            while let frame = framer.next() {
                guard case .body(let body) = frame else { continue }
                if body.starts(with: result) { return body }
                if body.starts(with: error), (try? JSONParser.parse(body))?["id"] == .int(id) { return body }
                // The server's own request (a confirmation) is answered at
                // once, or it would wait for the answer instead of responding.
                if body.starts(with: request) || body.starts(with: error) { file(body) } else { unfiled.append(body) }
            }
            readAvailable()
        }
    }

    /// A command whose response is checked later (`checkCommands`), so
    /// its timing holds no parsing.
    func commandUnparsed(_ name: String, _ args: JSONValue) {
        unchecked.append(
            (name, requestUnparsed("workspace/executeCommand", ["command": .string(name), "arguments": [args]])))
    }

    /// Stops the benchmark if any command since the last check failed.
    func checkCommands() {
        for (name, body) in unchecked {
            guard let m = try? JSONParser.parse(body) else { fatalError("\(name): unreadable response") }
            if let e = m["error"] { fatalError("\(name) failed: \(e.text())") }
        }
        unchecked.removeAll()
    }

    private var unchecked: [(name: String, body: [UInt8])] = []

    /// Reads what the server has written, up to 1 MiB at a time, as an
    /// editor's event loop does (`ServerProcess.read(into:)`).
    private func readAvailable() {
        if !server.read(into: &framer) { fatalError("carrel lsp exited") }
    }

    func dropNotifications() {
        notifications.removeAll()
        unfiled.removeAll()
    }

    var peakRSSKiB: Int { server.peakRSSKiB }

    /// The server's resident set now, from /proc (0 when unreadable).
    var rssKiB: Int {
        let status = "/proc/\(server.processIdentifier)/status"
        guard let text = try? String(contentsOfFile: status, encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }

    /// Starts the server's peak resident set again from what it holds now
    /// (`clear_refs` 5), so a later `peakRSSKiB` is the peak of what came
    /// after: a compile's, not the scan's before it.
    func resetPeakRSS() {
        let fd = open("/proc/\(server.processIdentifier)/clear_refs", O_WRONLY)
        guard fd >= 0 else { fatalError("carrel-bench: cannot reset the server's peak RSS") }
        _ = write(fd, "5", 1)
        close(fd)
    }

    func stop() {
        server.kill()
        server.reap()
    }
}

/// Runs a program with its output discarded and waits for it with
/// `waitpid`, which returns the moment it exits.
func runToExit(_ program: String, _ arguments: [String]) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) }
    defer { for arg in argv { free(arg) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, program, &actions, nil, argv + [nil], environ) == 0 else {
        fatalError("could not run \(program)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
}

func uri(_ path: String) -> String { FileURI.uri(Array(path.utf8)) }

func nowNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Runs `body` `n` times and returns each duration in milliseconds.
/// Times `body` `n` times, pausing `pausingMs` before each but the first, untimed.
func measure(_ n: Int, pausingMs: UInt32 = 0, _ body: (Int) -> Void) -> [Double] {
    (0..<n).map { i in
        if i > 0, pausingMs > 0 { usleep(pausingMs * 1000) }
        let t = nowNs()
        body(i)
        return Double(nowNs() - t) / 1e6
    }
}
