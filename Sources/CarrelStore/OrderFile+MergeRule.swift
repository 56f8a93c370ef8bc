import CCarrelSys
import CarrelModel
import Glibc

/// The union merge for order files, declared in the library's
/// `.gitattributes`. That file is the writer's as much as Carrel's, so it
/// is written as every other file is, never in place: a temporary holding
/// its text and the line, fsynced, swapped in for it in one atomic step.
/// What Carrel cannot replace without touching something else (another
/// name of the same file, a link's target) or losing something (a file it
/// cannot read whole) is left alone, and the caller says why.
extension OrderFile {
    /// Makes sure the library's `.gitattributes` holds the merge rule: nil
    /// when it does (written now or already there), else why it was left
    /// without it.
    public static func declareMerge(in library: Directory) -> MergeRuleObstacle? {
        if library.kind(of: gitAttributesName) == nil {
            let code = create(in: library)
            if code == 0 { return nil }
            // Made by another program meanwhile: it is read below like any other.
            if code != EEXIST { return .failed(detail: String(cString: strerror(code))) }
        }
        let fd: Int32
        do { fd = try library.openPlainFile(gitAttributesName, O_RDONLY) } catch {
            if case .wrongKind(let found, _)? = error.refusal { return .found(found) }
            return .failed(detail: error.message)
        }
        defer { close(fd) }
        var read = Glibc.stat()
        guard fstat(fd, &read) == 0 else { return .failed(detail: String(cString: strerror(errno))) }
        if read.st_nlink > 1 { return .sharedNames(count: Int(clamping: read.st_nlink)) }
        if read.st_size > sizeLimit { return .tooLarge(limit: sizeLimit) }
        guard let current = FileDescriptor.readAll(fd, limit: sizeLimit) else { return .changedMeanwhile }
        let line = gitAttributesLine.dropLast()
        if current.split(separator: UInt8(ascii: "\n")).contains(where: { $0.elementsEqual(line) }) { return nil }
        var text = current
        if !text.isEmpty && text.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
        text += gitAttributesLine
        return replace(text, readAs: read, in: library)
    }

    /// A temporary named like an order file's, so a crash's leftover is
    /// hidden and removed the next time the library's own order is read.
    private static func temporaryName() -> [UInt8] {
        tempPrefix + Array("gitattributes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))".utf8)
    }

    /// Writes `bytes` to a new temporary with `mode`: its name, or the errno.
    private static func writeTemporary(_ bytes: [UInt8], mode: mode_t, in library: Directory) -> ([UInt8]?, Int32) {
        let tmp = temporaryName()
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(tmp) { openat(library.fd, $0, flags, mode) }
        guard fd >= 0 else { return (nil, errno) }
        var code = FileDescriptor.writeAll(fd, bytes)
        // The writer's permissions, whatever the umask took away.
        if code == 0 && fchmod(fd, mode) != 0 { code = errno }
        if code == 0 && fsync(fd) != 0 { code = errno }
        close(fd)
        guard code == 0 else {
            unlink(tmp, in: library)
            return (nil, code)
        }
        return (tmp, 0)
    }

    private static func unlink(_ name: [UInt8], in library: Directory) {
        _ = BytePath.withCString(name) { unlinkat(library.fd, $0, 0) }
    }

    /// A missing `.gitattributes` is made whole, renamed into place
    /// no-replace: 0, or the errno (EEXIST when one appeared meanwhile).
    private static func create(in library: Directory) -> Int32 {
        let (written, code) = writeTemporary(gitAttributesLine, mode: 0o644, in: library)
        guard let tmp = written else { return code }
        let r = BytePath.withCString(tmp) { t in
            BytePath.withCString(gitAttributesName) { n in carrel_rename_noreplace(library.fd, t, library.fd, n) }
        }
        let renamed = r == 0 ? 0 : errno
        if renamed != 0 { unlink(tmp, in: library) } else { library.sync() }
        return renamed
    }

    /// Swaps `text` in for the `.gitattributes` read as `read`. The old
    /// file comes out under the temporary's name and is removed only when
    /// it is still the file read, unchanged; otherwise it goes back.
    private static func replace(_ text: [UInt8], readAs read: Glibc.stat, in library: Directory) -> MergeRuleObstacle? {
        let (written, code) = writeTemporary(text, mode: read.st_mode & 0o7777, in: library)
        guard let tmp = written else { return .failed(detail: String(cString: strerror(code))) }
        func exchange() -> Int32 {
            BytePath.withCString(tmp) { t in
                BytePath.withCString(gitAttributesName) { n in carrel_rename_exchange(library.fd, t, n) }
            }
        }
        guard exchange() == 0 else {
            let code = errno
            unlink(tmp, in: library)
            // Never a rename over it: nothing would be left to check or put back.
            return code == EINVAL ? .noAtomicSwap : .failed(detail: String(cString: strerror(code)))
        }
        var old = Glibc.stat()
        let same =
            BytePath.withCString(tmp) { fstatat(library.fd, $0, &old, AT_SYMLINK_NOFOLLOW) } == 0
            && old.st_dev == read.st_dev && old.st_ino == read.st_ino && old.st_size == read.st_size
            && old.st_mtim.tv_sec == read.st_mtim.tv_sec && old.st_mtim.tv_nsec == read.st_mtim.tv_nsec
        guard same else {
            if exchange() == 0 { unlink(tmp, in: library) }
            return .changedMeanwhile
        }
        library.sync()
        // The old text goes only once the new is durable; a crash before
        // leaves a temporary that the next open removes.
        unlink(tmp, in: library)
        return nil
    }
}
