import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// The real `carrel lsp` as a child process, spoken to over pipes exactly as
/// an editor does. Started with `posix_spawn`, so its owner holds the pid,
/// can SIGKILL it at any moment and reaps it with `waitpid`, which returns
/// the moment it exits (Foundation's `Process.waitUntilExit` polls every
/// 50 ms).
///
/// This type only writes frames and reads raw bytes. `LanguageClient` adds
/// a reader thread and matching by id; the benchmark reads on its own
/// thread through `read(into:)`, so no thread hand-off is in its timings.
public final class ServerProcess: @unchecked Sendable {
    public let processIdentifier: pid_t
    private let stdinFd: Int32
    private let stdoutFd: Int32
    private let writeLock = NSLock()
    private var stdinClosed = false
    private let statusLock = NSLock()
    private var waitStatus: Int32?

    /// Where the server's standard error goes.
    public enum ErrorOutput: Sendable {
        case discard
        case append(path: String)
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Pipes are made and spawned one process at a time: a child spawned
    /// between another's `pipe` and its `FD_CLOEXEC` would keep that one's
    /// stdin open, and it would never see end of input.
    private static let spawnLock = NSLock()

    /// `environment` is the child's whole environment (see `inheriting`).
    /// `launcher` runs the binary through another program, e.g.
    /// `["/usr/bin/setpriv", "--reuid=65534", ...]` to drop root.
    public init(
        binary: String, arguments: [String] = ["lsp"], environment: [String: String],
        launcher: [String] = [], errors: ErrorOutput = .discard
    ) throws {
        let program = launcher.first ?? binary
        let argv = launcher + [binary] + arguments
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&outPipe) == 0 else {
            close(inPipe[0])
            close(inPipe[1])
            throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        switch errors {
        case .discard: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .append(let path):
            posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        let cArgv: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnv { free(p) }
        }
        var child: pid_t = 0
        let r = posix_spawn(&child, program, &actions, nil, cArgv, cEnv)
        close(inPipe[0])
        close(outPipe[1])
        guard r == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            throw SpawnError(description: "cannot start \(program): \(String(cString: strerror(r)))")
        }
        // A server that dies must not kill its client with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        processIdentifier = child
        stdinFd = inPipe[1]
        stdoutFd = outPipe[0]
    }

    /// This process's environment with `changes` applied.
    public static func inheriting(_ changes: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in changes { env[k] = v }
        return env
    }

    // MARK: Writing

    public func send(_ message: JSONValue) { sendBody(message.encoded()) }

    public func sendBody(_ body: [UInt8]) { sendRaw(MessageFramer.frame(body)) }

    /// Bytes exactly as given: for malformed framing. Whole, or not at all
    /// once the input is closed or the server gone.
    public func sendRaw(_ bytes: [UInt8]) {
        writeLock.lock()
        defer { writeLock.unlock() }
        if stdinClosed { return }
        bytes.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = write(stdinFd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                off += n
            }
        }
    }

    /// Ends the server's input, as an editor that quits does.
    public func closeInput() {
        writeLock.lock()
        defer { writeLock.unlock() }
        if !stdinClosed { close(stdinFd) }
        stdinClosed = true
    }

    // MARK: Reading

    private var readBuffer = [UInt8](repeating: 0, count: 1 << 20)

    /// Reads what the server has written, up to 1 MiB at a time, as an
    /// editor's event loop does, and feeds it to `framer`. False at end of
    /// output. One reader at a time. (`FileHandle.availableData` reads a
    /// pipe 8 KiB at a time and copies each piece into a new `Data`: 6,300
    /// reads for the benchmark's full tree.)
    public func read(into framer: inout MessageFramer) -> Bool {
        while true {
            let n = readBuffer.withUnsafeMutableBytes { Glibc.read(stdoutFd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            readBuffer.withUnsafeBufferPointer { framer.feed(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            return true
        }
    }

    // MARK: Life and death

    public func kill(_ signal: Int32 = SIGKILL) { _ = Glibc.kill(processIdentifier, signal) }

    /// Waits for the process to end (after a kill or an exit) and returns
    /// its wait status; closes its input.
    @discardableResult
    public func reap() -> Int32 {
        if let s = recordedStatus { closeInput(); return s }
        var status: Int32 = 0
        var r: pid_t
        repeat { r = waitpid(processIdentifier, &status, 0) } while r < 0 && errno == EINTR
        if r == processIdentifier { record(status) }
        closeInput()
        return recordedStatus ?? status
    }

    public var isRunning: Bool {
        if recordedStatus != nil { return false }
        var status: Int32 = 0
        let r = waitpid(processIdentifier, &status, WNOHANG)
        if r == processIdentifier { record(status); return false }
        return r == 0
    }

    /// The exit code, or the signal that ended it, as Foundation's `Process` has it.
    public var terminationStatus: Int32 {
        let s = recordedStatus ?? reap()
        return s & 0x7f == 0 ? (s >> 8) & 0xff : s & 0x7f
    }

    /// SIGTERM, as Foundation's `Process.terminate()` sends.
    public func terminate() { kill(SIGTERM) }

    /// Waits for the process to end, however long it takes.
    public func waitUntilExit() { reap() }

    /// Waits for the process to end, killing it after `timeout`: its exit
    /// code, or nil when it had to be killed.
    public func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(5_000) }
        if isRunning {
            kill()
            reap()
            return nil
        }
        return terminationStatus
    }

    /// The server's peak resident set, from /proc.
    public var peakRSSKiB: Int {
        let status = "/proc/\(processIdentifier)/status"
        guard let text = try? String(contentsOfFile: status, encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }

    private var recordedStatus: Int32? {
        statusLock.lock()
        defer { statusLock.unlock() }
        return waitStatus
    }

    private func record(_ status: Int32) {
        statusLock.lock()
        waitStatus = status
        statusLock.unlock()
    }

    /// The output end is closed with the process, not before: a reader
    /// thread may still be in `read`.
    deinit {
        if recordedStatus == nil {
            kill()
            reap()
        }
        close(stdoutFd)
    }
}
