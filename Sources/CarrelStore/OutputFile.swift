import CarrelModel
import Glibc

/// Writing a compiled document: whole or not at all, and never over a file
/// that is there. The bytes go to a hidden temporary, are fsynced, and are
/// renamed no-replace to the first free name ("Manuscript.docx",
/// "Manuscript 2.docx", …); a failure removes the temporary.
extension Directory {
    static let compileTemporaryPrefix = ".carrel-compile-"

    /// A hidden name for a temporary of this process, unique in this folder.
    /// `purpose` is `out`, `in.md`, `out.<extension>` or `reference.<extension>`.
    public static func temporaryName(_ purpose: String) -> [UInt8] {
        Array(
            "\(compileTemporaryPrefix)\(getpid())-\(Clock.nowMs())-\(UInt32.random(in: 0...UInt32.max))-\(purpose)".utf8
        )
    }

    /// The pid that made `name`, when `name` is exactly a name
    /// `temporaryName` gives, so a writer's file that only looks like one
    /// is never taken for it.
    static func compileTemporaryOwner(_ name: [UInt8]) -> Int32? {
        guard let text = String(validating: name, as: UTF8.self), text.hasPrefix(compileTemporaryPrefix) else {
            return nil
        }
        let parts = text.dropFirst(compileTemporaryPrefix.count).split(separator: "-", maxSplits: 3)
        func digits(_ s: Substring) -> Bool { !s.isEmpty && s.count <= 20 && s.allSatisfy { $0 >= "0" && $0 <= "9" } }
        guard parts.count == 4, digits(parts[0]), digits(parts[1]), digits(parts[2]), let pid = Int32(parts[0])
        else { return nil }
        let purpose = parts[3]
        let (head, dot, ext) =
            purpose.firstIndex(of: ".").map { (purpose[..<$0], true, purpose[purpose.index(after: $0)...]) }
            ?? (purpose, false, "")
        let lower = !ext.isEmpty && ext.count <= 8 && ext.allSatisfy { $0 >= "a" && $0 <= "z" }
        switch head {
        case "out": return !dot || lower ? pid : nil
        case "in": return dot && ext == "md" ? pid : nil
        case "reference": return dot && lower ? pid : nil
        default: return nil
        }
    }

    /// Removes the temporaries a compile cut short left here: those of a
    /// process that no longer runs. A live process's are a compile under
    /// way (another Carrel's), and are left alone; so is anything that is
    /// not exactly a temporary's name, or is a folder. A link is unlinked,
    /// never followed. Returns how many were removed.
    @discardableResult
    public func removeCompileLeftovers() -> Int {
        var removed = 0
        for (name, _) in (try? list()) ?? [] {
            guard let pid = Self.compileTemporaryOwner(name), pid > 0 else { continue }
            if pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
            if BytePath.withCString(name, { unlinkat(fd, $0, 0) }) == 0 { removed += 1 }
        }
        return removed
    }

    /// Writes `bytes` to a new temporary `name` (`O_EXCL`, no-follow) and
    /// fsyncs it when it is to become the document (`durable`). Pandoc's
    /// input and reference are removed once pandoc has run, and a crash's
    /// are removed at open, so nothing waits on the disk for them.
    public func writeTemporary(_ name: [UInt8], _ bytes: [UInt8], durable: Bool = true) throws(SysError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(name) { openat(self.fd, $0, flags, 0o644) }
        guard fd >= 0 else { throw SysError("create", BytePath.display(BytePath.join(path, name))) }
        var code = FileDescriptor.writeAll(fd, bytes)
        if code == 0 && durable && fsync(fd) != 0 { code = errno }
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
