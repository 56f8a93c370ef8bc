import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// The real `carrel lsp` binary over pipes, as an editor runs it.
public final class ProcessClient: LSPTestClient, @unchecked Sendable {
    public let inbox = Inbox()
    public var answer = ConfirmAnswer.title("Delete")
    public var asked: [JSONValue] = []
    public let process = Process()
    private let stdin = Pipe()
    private let stdout = Pipe()
    private let stderr = Pipe()
    private var counter = 0
    private let writeLock = NSLock()

    /// The built binary: `CARREL` if set, else `.build/debug/carrel` of this checkout.
    public static var binary: String {
        if let b = ProcessInfo.processInfo.environment["CARREL"], !b.isEmpty { return b }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/debug/carrel").path
    }

    /// `launcher` runs the binary through another program, e.g.
    /// `["/usr/bin/setpriv", "--reuid=65534", ...]` to drop root.
    public init(arguments: [String] = ["lsp"], environment: [String: String] = [:], launcher: [String] = []) throws {
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [Self.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let handle = stdout.fileHandleForReading
        let inbox = self.inbox
        Thread.detachNewThread {
            var framer = MessageFramer()
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                framer.feed(data)
                while let frame = framer.next() {
                    if case .body(let b) = frame { inbox.put((try? JSONParser.parse(b)) ?? .null) }
                }
            }
        }
        let errHandle = stderr.fileHandleForReading
        Thread.detachNewThread { while !errHandle.availableData.isEmpty {} }
    }

    public func sendBody(_ body: [UInt8]) { sendRaw(MessageFramer.frame(body)) }

    /// Bytes exactly as given: for malformed framing.
    public func sendRaw(_ bytes: [UInt8]) {
        writeLock.lock()
        defer { writeLock.unlock() }
        try? stdin.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    public func closeInput() { try? stdin.fileHandleForWriting.close() }

    public func nextID() -> Int {
        counter += 1
        return counter
    }

    /// Waits for the process to end, killing it after `timeout`.
    public func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate(); return nil }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
