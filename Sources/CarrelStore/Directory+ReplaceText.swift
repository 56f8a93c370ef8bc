import CCarrelSys
import Glibc

extension Directory {
    /// Why a text was not replaced. Nothing was written in each case.
    public enum ReplaceRefusal: Error, Equatable {
        /// Not the file that was read any more (another program wrote it, or
        /// it is now a link, a pipe, a hard link).
        case changedMeanwhile
        /// The filesystem cannot swap two names atomically.
        case noAtomicSwap
        case failed(errno: Int32)
    }

    /// Replaces the plain file `name`, read as `stamp`, with `bytes`: a
    /// hidden temporary (named as an order file's, so a crash's leftover is
    /// removed when the folder's order is next read) is written and fsynced,
    /// then exchanged with the file (`RENAME_EXCHANGE`). What came out is
    /// checked to be the file read, unchanged (device, inode, size, mtime);
    /// otherwise it is swapped back, so a file another program wrote
    /// meanwhile is never overwritten with text made from what it held before.
    public func replaceText(_ name: [UInt8], readAs stamp: FileStamp, with bytes: [UInt8]) throws(ReplaceRefusal) {
        var before = Glibc.stat()
        guard BytePath.withCString(name, { fstatat(fd, $0, &before, AT_SYMLINK_NOFOLLOW) }) == 0,
            (before.st_mode & S_IFMT) == S_IFREG, before.st_nlink == 1, fileStamp(name) == stamp
        else { throw .changedMeanwhile }
        let tmp = OrderFile.tempPrefix + Array("links-\(getpid())-\(UInt32.random(in: 0...UInt32.max))".utf8)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let file = BytePath.withCString(tmp) { openat(fd, $0, flags, before.st_mode & 0o7777) }
        guard file >= 0 else { throw .failed(errno: errno) }
        var code = FileDescriptor.writeAll(file, bytes)
        if code == 0 && fchmod(file, before.st_mode & 0o7777) != 0 { code = errno }
        if code == 0 && fsync(file) != 0 { code = errno }
        close(file)
        func unlinkTemporary() { _ = BytePath.withCString(tmp) { unlinkat(fd, $0, 0) } }
        guard code == 0 else {
            unlinkTemporary()
            throw .failed(errno: code)
        }
        func exchange() -> Int32 {
            BytePath.withCString(tmp) { t in BytePath.withCString(name) { n in carrel_rename_exchange(fd, t, n) } }
        }
        guard exchange() == 0 else {
            let e = errno
            unlinkTemporary()
            throw e == EINVAL ? .noAtomicSwap : .failed(errno: e)
        }
        // The same stamp as reading takes: device, inode, size and mtime.
        guard fileStamp(tmp) == stamp else {
            if exchange() == 0 { unlinkTemporary() }
            throw .changedMeanwhile
        }
        sync()
        // The old text goes only once the new is durable.
        unlinkTemporary()
    }
}
