import CarrelModel
import Glibc

/// Writing a compiled document: whole or not at all, and never over a file
/// that is there. The bytes go to a hidden temporary, are fsynced, and are
/// renamed no-replace to the first free name ("Manuscript.docx",
/// "Manuscript 2.docx", …); a failure removes the temporary.
extension Directory {
    /// A hidden name for a temporary of this process, unique in this folder.
    public static func temporaryName(_ purpose: String) -> [UInt8] {
        Array(".carrel-compile-\(getpid())-\(Clock.nowMs())-\(UInt32.random(in: 0...UInt32.max))-\(purpose)".utf8)
    }

    /// Writes `bytes` to a new temporary `name` (`O_EXCL`, no-follow) and fsyncs it.
    public func writeTemporary(_ name: [UInt8], _ bytes: [UInt8]) throws(SysError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(name) { openat(self.fd, $0, flags, 0o644) }
        guard fd >= 0 else { throw SysError("create", BytePath.display(BytePath.join(path, name))) }
        var code = FileDescriptor.writeAll(fd, bytes)
        if code == 0 && fsync(fd) != 0 { code = errno }
        close(fd)
        guard code == 0 else {
            _ = BytePath.withCString(name) { unlinkat(self.fd, $0, 0) }
            throw SysError("write", BytePath.display(BytePath.join(path, name)), code: code)
        }
    }

    /// Fsyncs the plain file `name` another program wrote.
    public func syncFile(_ name: [UInt8]) throws(SysError) {
        let fd = try openPlainFile(name, O_RDONLY)
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SysError("fsync", BytePath.display(BytePath.join(path, name))) }
    }

    /// Renames the temporary `temporary` to `preferred`, or to the first
    /// numbered name that is free, never replacing anything; fsyncs the
    /// folder. Returns the name taken. The temporary is removed on failure.
    public func publish(_ temporary: [UInt8], as preferred: String) throws(SysError) -> String {
        var n = 1
        while true {
            let name = n == 1 ? preferred : NameRules.numbered(preferred, n, isFolder: false)
            do {
                try move(temporary, to: self, as: Array(name.utf8))
                sync()
                return name
            } catch {
                guard error.code == EEXIST, n < 1000 else {
                    _ = BytePath.withCString(temporary) { unlinkat(fd, $0, 0) }
                    throw error
                }
                n += 1
            }
        }
    }

    /// Removes a temporary this process made, if it is still there.
    public func removeTemporary(_ name: [UInt8]) {
        _ = BytePath.withCString(name) { unlinkat(fd, $0, 0) }
    }
}
