import CarrelClient
import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// The real `carrel lsp` binary over pipes, as an editor runs it: the
/// shared `LanguageClient`, with every message put in the inbox so the
/// test drives responses and confirmations itself (`LSPTestClient`).
public final class ProcessClient: LSPTestClient, @unchecked Sendable {
    public let inbox = Inbox()
    public var answer = ConfirmAnswer.title("Delete")
    public var asked: [JSONValue] = []
    /// The child: `isRunning`, `processIdentifier`, `terminationStatus`.
    public let process: ServerProcess
    private let client: LanguageClient
    private let counter = NSLock()
    private var counted = 0

    /// The built binary: `CARREL` if set, else `.build/debug/carrel` of this checkout.
    public static var binary: String {
        if let b = ProcessInfo.processInfo.environment["CARREL"], !b.isEmpty { return b }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/debug/carrel").path
    }

    /// A server whose home is `home` and whose state folder is `state`
    /// below it, so it reads and leaves no other test's device-local state.
    public convenience init(home: Fixture) throws {
        try self.init(environment: ["XDG_STATE_HOME": home.path + "/state", "HOME": home.path])
    }

    /// `launcher` runs the binary through another program, e.g.
    /// `["/usr/bin/setpriv", "--reuid=65534", ...]` to drop root.
    public init(arguments: [String] = ["lsp"], environment: [String: String] = [:], launcher: [String] = []) throws {
        process = try ServerProcess(
            binary: Self.binary, arguments: arguments,
            environment: ServerProcess.inheriting(environment), launcher: launcher)
        let inbox = self.inbox
        client = LanguageClient(process) { inbox.put($0) }
    }

    public func sendBody(_ body: [UInt8]) { process.sendBody(body) }

    /// Bytes exactly as given: for malformed framing.
    public func sendRaw(_ bytes: [UInt8]) { process.sendRaw(bytes) }

    public func closeInput() { process.closeInput() }

    public func nextID() -> Int {
        counter.lock()
        defer { counter.unlock() }
        counted += 1
        return counted
    }

    /// Waits for the process to end, killing it after `timeout`.
    public func waitForExit(timeout: TimeInterval = 10) -> Int32? { process.waitForExit(timeout: timeout) }
}
