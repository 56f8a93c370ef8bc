import CCarrelSys
import Glibc

/// The lock that serialises Carrel processes on one machine working in
/// one project. It means nothing on another machine, so nothing of it is
/// in the library: it is a file in the user's state folder, where no sync
/// engine carries it, `locks/project-<hash of the project's real path>.lock`
/// (every path to the project resolves to the same real path, so to the
/// same lock), held together with a flock on the project's `.carrel`
/// folder itself. The state file works wherever the library lives, even on
/// a filesystem without flock; the folder's flock also serialises
/// processes whose state folders differ (another user, an editor
/// sandboxed with its own `XDG_STATE_HOME`), and writes nothing.
enum ProjectLock {
    static let folderName = Array("locks".utf8)

    /// Takes the lock, waiting for it: the folder first, then the file, in
    /// that order in every process. Returns the fds to close to release it.
    static func acquire(_ projectPath: [UInt8], carrelDir: Directory) -> [Int32] {
        var held: [Int32] = []
        // A new open of the folder, not a dup: a flock belongs to one open
        // file, and closing this one must release it.
        let folder = openat(carrelDir.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = carrel_flock_exclusive(folder)
            held.append(folder)
        }
        if let file = openLockFile(projectPath) {
            _ = carrel_flock_exclusive(file)
            held.append(file)
        }
        return held
    }

    static func openLockFile(_ projectPath: [UInt8]) -> Int32? {
        guard let state = StateFiles.directory() else { return nil }
        let locks = BytePath.join(state, folderName)
        // Made once; every later lock finds it.
        guard
            let dir = (try? Directory.open(locks)) ?? (StateFiles.makeFolders(locks) ? try? Directory.open(locks) : nil)
        else { return nil }
        // Read-only: flock needs no more.
        return try? dir.openPlainFile(fileName(projectPath), O_RDONLY, create: true)
    }

    /// `project-<FNV-1a 64 of the real path, in hex>.lock`.
    static func fileName(_ projectPath: [UInt8]) -> [UInt8] {
        let real = realPath(projectPath) ?? projectPath
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in real {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return Array("project-\(String(repeating: "0", count: 16 - hex.count))\(hex).lock".utf8)
    }

    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        BytePath.withCString(path) { p -> [UInt8]? in
            guard let resolved = Glibc.realpath(p, nil) else { return nil }
            defer { free(resolved) }
            return Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
        }
    }
}
