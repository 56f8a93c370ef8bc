import Foundation
import Glibc

/// `carrel ARGS` as a shell user runs it, with a bound on how long it may take.
enum CLIProcess {
    struct Result {
        /// The exit code, or nil when it had to be killed.
        var status: Int32?
        /// The signal that ended it, if one did.
        var signal: Int32?
        var stderr: String
    }

    /// Standard error goes to the file `errors` (a pipe could fill and block the CLI).
    static func run(_ binary: String, _ args: [String], env: [String: String], errors: String, timeout: TimeInterval)
        -> Result
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        p.environment = env
        Disk.write(errors, "")
        guard let err = FileHandle(forWritingAtPath: errors) else {
            return Result(status: 127, signal: nil, stderr: "cannot open \(errors)")
        }
        defer { try? err.close() }
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return Result(status: 127, signal: nil, stderr: "\(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(2_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return Result(status: nil, signal: SIGKILL, stderr: "")
        }
        let text = String(decoding: Disk.read(errors) ?? [], as: UTF8.self)
        if p.terminationReason == .uncaughtSignal {
            return Result(status: nil, signal: p.terminationStatus, stderr: text)
        }
        return Result(status: p.terminationStatus, signal: nil, stderr: text)
    }
}
