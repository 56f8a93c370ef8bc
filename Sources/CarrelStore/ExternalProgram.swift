import Glibc

/// A program writers already use (pandoc, a PDF engine), found on PATH and
/// run as a process: never a library linked in.
public enum ExternalProgram {
    /// The full path of `name` on `path` (the PATH variable), or nil.
    public static func find(_ name: String, path: String? = nil) -> String? {
        let search = path ?? (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
        for dir in search.split(separator: ":") where dir.hasPrefix("/") {
            let full = "\(dir)/\(name)"
            var st = stat()
            if stat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(full, X_OK) == 0 { return full }
        }
        return nil
    }

    /// How a run ended: the exit status (or 128 + the signal) and the
    /// start of what it wrote to stderr.
    public struct Ended: Sendable {
        public let status: Int32
        public let errors: String
    }

    /// Runs `program` with `arguments` (absolute paths: the child keeps our
    /// working folder), stdin from /dev/null, stdout discarded, stderr kept
    /// (its first 4 KiB); waits for it to end.
    public static func run(_ program: String, _ arguments: [String]) throws(SysError) -> Ended {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw SysError("pipe", program) }
        // Our end must not leak into other children the server starts.
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        close(pipeFDs[1])
        guard spawned == 0 else {
            close(pipeFDs[0])
            throw SysError("run", program, code: spawned)
        }
        var errors: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            if errors.count < 4096 { errors.append(contentsOf: chunk[0..<min(n, 4096 - errors.count)]) }
        }
        close(pipeFDs[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let text = String(decoding: errors, as: UTF8.self).split(separator: "\n").prefix(3).joined(separator: " ")
        return Ended(status: code, errors: text)
    }
}
