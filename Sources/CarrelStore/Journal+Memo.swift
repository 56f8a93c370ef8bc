import Foundation
import Glibc

/// The journal this process last read or wrote, by its file's path, with what
/// its file was then (device, inode, size, change time): every journaled
/// command and every undo reads the journal, and a full one takes longer
/// to parse than the command takes. A journal whose file is still that
/// one is not read again; one another process replaced has a new inode,
/// and is read. (A rewrite in place, of the same size, within one tick of
/// the kernel's clock would go unseen; no Carrel writes it in place, and
/// every step is checked against the disk before it is taken back.)
final class JournalMemo: @unchecked Sendable {
    static let shared = JournalMemo()

    struct Stamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var changedSeconds: Int
        var changedNanoseconds: Int
    }

    private let lock = NSLock()
    private var kept: [[UInt8]: (stamp: Stamp, journal: Journal)] = [:]

    func journal(_ path: [UInt8], _ stamp: Stamp) -> Journal? {
        lock.lock()
        defer { lock.unlock() }
        guard let known = kept[path], known.stamp == stamp else { return nil }
        return known.journal
    }

    func keep(_ journal: Journal, _ path: [UInt8], _ stamp: Stamp) {
        lock.lock()
        defer { lock.unlock() }
        kept[path] = (stamp, journal)
    }

    /// The stamp of `name` in `dir`, not following a link; nil for anything but a plain file.
    static func stamp(of name: [UInt8], in dir: Directory) -> Stamp? {
        var st = stat()
        guard BytePath.withCString(name, { fstatat(dir.fd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else { return nil }
        return stamp(st)
    }

    static func stamp(of fd: Int32) -> Stamp? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return stamp(st)
    }

    private static func stamp(_ st: stat) -> Stamp? {
        guard st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Stamp(
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
            changedSeconds: Int(st.st_ctim.tv_sec), changedNanoseconds: Int(st.st_ctim.tv_nsec))
    }
}
