import CarrelModel
import Glibc

/// Opening what Carrel keeps in `.carrel` (and its permanent folders): it
/// travels with every cloned or synced library, so it may be a link, a
/// named pipe or anything else. Nothing is followed, nothing blocks, and
/// anything that is not a plain file or a real folder is refused by name.
extension Directory {
    /// What `name` is here, not following a link; nil when nothing is there.
    public func kind(of name: [UInt8]) -> FoundKind? {
        var st = Glibc.stat()
        guard BytePath.withCString(name, { fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else { return nil }
        return Self.kind(st.st_mode)
    }

    static func kind(_ mode: mode_t) -> FoundKind {
        switch mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        case S_IFIFO: return .pipe
        case S_IFSOCK: return .socket
        default: return .device
        }
    }

    /// Opens the real folder `name` below this one. A link, or anything but
    /// a folder, is refused with what it is.
    public func realSubdirectory(_ name: [UInt8]) throws(SysError) -> Directory {
        if let found = kind(of: name), found != .folder {
            let display = BytePath.display(BytePath.join(path, name))
            throw SysError("open", display, refusal: .wrongKind(found: found, expected: .folder))
        }
        return try subdirectory(name)
    }

    /// Opens the plain file `name` with `flags`, never following a link and
    /// never waiting (a named pipe would block an open or a read forever),
    /// and checks with fstat that what was opened is a plain file. With
    /// `create`, a missing file is made (mode 0644). The caller closes the fd.
    public func openPlainFile(_ name: [UInt8], _ flags: Int32, create: Bool = false) throws(SysError) -> Int32 {
        var st = Glibc.stat()
        return try openPlainFile(name, flags, create: create, stat: &st)
    }

    /// `openPlainFile`, with the fstat of what was opened in `st`.
    func openPlainFile(_ name: [UInt8], _ flags: Int32, create: Bool = false, stat st: inout Glibc.stat)
        throws(SysError) -> Int32
    {
        var display: String { BytePath.display(BytePath.join(path, name)) }
        if let found = kind(of: name), found != .file {
            throw SysError("open", display, refusal: .wrongKind(found: found, expected: .file))
        }
        let all = flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (create ? O_CREAT : 0)
        let opened = BytePath.withCString(name) { openat(fd, $0, all, 0o644) }
        guard opened >= 0 else {
            let code = errno
            // Swapped in since the check above.
            if let found = kind(of: name), found != .file {
                throw SysError("open", display, refusal: .wrongKind(found: found, expected: .file))
            }
            throw SysError("open", display, code: code)
        }
        guard fstat(opened, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            let found = Self.kind(st.st_mode)
            close(opened)
            throw SysError("open", display, refusal: .wrongKind(found: found, expected: .file))
        }
        return opened
    }

    /// The bytes of the plain file `name`, refused when it is larger than `limit`.
    /// Read into one buffer of the size fstat gives (a compile reads
    /// thousands of small files, so no per-file scratch buffer).
    public func readPlainFile(_ name: [UInt8], limit: Int = 16 << 20) throws(SysError) -> [UInt8] {
        var st = Glibc.stat()
        let file = try openPlainFile(name, O_RDONLY, stat: &st)
        defer { close(file) }
        let size = Int(st.st_size)
        if size > limit {
            throw SysError("read", BytePath.display(BytePath.join(path, name)), refusal: .tooLarge(limit: limit))
        }
        // One byte more than fstat said, so a file that grew is seen in the same read.
        var out = [UInt8](repeating: 0, count: max(size, 0) + 1)
        var filled = 0
        while true {
            if filled == out.count {
                // Grown while being read.
                if out.count > limit {
                    throw SysError(
                        "read", BytePath.display(BytePath.join(path, name)), refusal: .tooLarge(limit: limit))
                }
                out.append(contentsOf: repeatElement(0, count: min(max(4096, out.count), limit + 1 - out.count)))
            }
            let n = out.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw SysError("read", BytePath.display(BytePath.join(path, name)), code: code)
            }
            if n == 0 { break }
            filled += n
        }
        if filled > limit {
            throw SysError("read", BytePath.display(BytePath.join(path, name)), refusal: .tooLarge(limit: limit))
        }
        out.removeSubrange(filled...)
        return out
    }
}
