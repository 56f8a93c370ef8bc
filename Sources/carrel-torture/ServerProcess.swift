import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// One real `carrel lsp` over pipes, started with posix_spawn so the harness
/// owns its pid and can SIGKILL it at any moment.
final class ServerProcess: @unchecked Sendable {
    let pid: pid_t
    private let stdinFd: Int32
    private let stdoutFd: Int32
    private let cond = NSCondition()
    private var responses: [Int: JSONValue] = [:]
    private var isDead = false
    private let writeLock = NSLock()
    private var stdinClosed = false
    private var nextID = 1
    /// How many confirmations the server asked for (answered "Delete").
    private(set) var confirmations = 0

    struct SpawnError: Error, CustomStringConvertible { let description: String }

    init(binary: String, arguments: [String], environment: [String: String], stderrPath: String) throws {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var child: pid_t = 0
        let r = posix_spawn(&child, binary, &actions, nil, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        guard r == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            throw SpawnError(description: "cannot start \(binary): \(String(cString: strerror(r)))")
        }
        pid = child
        stdinFd = inPipe[1]
        stdoutFd = outPipe[0]
        let reader = Thread { [self] in self.readLoop() }
        reader.start()
    }

    private func readLoop() {
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(stdoutFd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            framer.feed(chunk[0..<n])
            while let frame = framer.next() {
                guard case .body(let body) = frame, let m = try? JSONParser.parse(body) else { continue }
                if m["method"] != nil, let id = m["id"] {
                    // A confirmation: the writer always says Delete.
                    cond.lock(); confirmations += 1; cond.unlock()
                    send(["jsonrpc": "2.0", "id": id, "result": ["title": "Delete"]])
                } else if m["method"] == nil, let id = m["id"]?.intValue {
                    cond.lock()
                    responses[id] = m
                    cond.broadcast()
                    cond.unlock()
                }
            }
        }
        close(stdoutFd)
        cond.lock()
        isDead = true
        cond.broadcast()
        cond.unlock()
    }

    func send(_ message: JSONValue) {
        let frame = MessageFramer.frame(message.encoded())
        writeLock.lock()
        defer { writeLock.unlock() }
        if stdinClosed { return }
        frame.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = write(stdinFd, buf.baseAddress! + off, buf.count - off)
                if n < 0 { if errno == EINTR { continue }; return }
                off += n
            }
        }
    }

    /// Sends a request; returns its id.
    func request(_ method: String, _ params: JSONValue) -> Int {
        cond.lock()
        let id = nextID
        nextID += 1
        cond.unlock()
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        return id
    }

    /// The response, or nil when the server died (or the bounded wait ran out).
    func response(_ id: Int, timeout: TimeInterval = 30) -> JSONValue? {
        let deadline = Date().addingTimeInterval(timeout)
        cond.lock()
        defer { cond.unlock() }
        while true {
            if let r = responses.removeValue(forKey: id) { return r }
            if isDead { return nil }
            if !cond.wait(until: deadline) { return nil }
        }
    }

    var dead: Bool {
        cond.lock()
        defer { cond.unlock() }
        return isDead
    }

    func kill9() { _ = Glibc.kill(pid, SIGKILL) }

    /// Waits for the process to end (after a kill or exit); returns the wait status.
    @discardableResult
    func reap() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        writeLock.lock()
        close(stdinFd)
        stdinClosed = true
        writeLock.unlock()
        // The reader sees EOF once the process is gone.
        cond.lock()
        let deadline = Date().addingTimeInterval(10)
        while !isDead && cond.wait(until: deadline) {}
        cond.unlock()
        return status
    }
}
