import Foundation
import Glibc

/// The real `carrel` binary run once as a command, in a sandbox: its own
/// HOME and XDG folders (the system trash lands there), English messages,
/// and no CARREL_LIBRARY unless the caller sets one.
public struct CLIRunner {
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    public let sandbox: Fixture

    public init() throws {
        sandbox = try Fixture("home/\ndata/\nstate/\n")
    }

    public var environment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
            "HOME": sandbox.path + "/home", "XDG_DATA_HOME": sandbox.path + "/data",
            "XDG_STATE_HOME": sandbox.path + "/state",
        ]
    }

    /// Whatever went to the system trash.
    public var systemTrash: [String] { sandbox.listing("data/Trash/files") }

    /// Runs `carrel args` in `directory`; `stdin` nil is /dev/null, else a
    /// pipe carrying that text. `input` (a terminal's fd, say) overrides both.
    public func run(
        _ args: [String], in directory: String, environment extra: [String: String] = [:],
        stdin: String? = nil, input: FileHandle? = nil
    ) -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ProcessClient.binary)
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        p.environment = environment.merging(extra) { $1 }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let inPipe = Pipe()
        if let input {
            p.standardInput = input
        } else if stdin != nil {
            p.standardInput = inPipe
        } else {
            p.standardInput = FileHandle.nullDevice
        }
        do { try p.run() } catch { return Result(status: -1, stdout: "", stderr: "\(error)") }
        if let stdin, input == nil {
            inPipe.fileHandleForWriting.write(Data(stdin.utf8))
            try? inPipe.fileHandleForWriting.close()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }
}

extension Fixture {
    /// A digest of everything below `relative` (hidden files too): each path,
    /// its kind, a link's target and a file's bytes. Equal digests, same tree.
    public func digest(_ relative: String = "") -> String {
        let base = relative.isEmpty ? path : path + "/" + relative
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: [UInt8]) {
            for b in bytes + [0] { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        var paths = (FileManager.default.enumerator(atPath: base)?.allObjects as? [String]) ?? []
        paths.sort()
        for p in paths {
            let full = base + "/" + p
            var st = stat()
            guard lstat(full, &st) == 0 else { continue }
            mix(Array(p.utf8))
            switch st.st_mode & S_IFMT {
            case S_IFDIR: mix(Array("dir".utf8))
            case S_IFLNK: mix(Array(((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "").utf8))
            default: mix(Array((FileManager.default.contents(atPath: full) ?? Data())))
            }
        }
        return String(hash, radix: 16)
    }
}
