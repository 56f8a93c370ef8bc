import CCarrelSys
import Glibc

/// What says a file is unchanged since its words were counted.
public struct FileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: UInt64
    public var modifiedNs: Int64

    public init(device: UInt64, inode: UInt64, size: UInt64, modifiedNs: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNs = modifiedNs
    }

    init(_ st: carrel_stat_t) {
        self.init(device: st.device, inode: st.inode, size: st.size, modifiedNs: st.change_ns)
    }
}

extension Directory {
    /// Files larger than this are not read for words: no writer's chapter
    /// comes near it, and a huge log or data file must not stall counting.
    public static let countLimit = 16 << 20

    /// The stamp of `name` when it is a plain file, without following a link.
    public func fileStamp(_ name: [UInt8]) -> FileStamp? {
        guard let st = stat(name), st.type == 1 else { return nil }
        return FileStamp(st)
    }

    /// The text of the plain file `name` and its stamp as read, or nil when
    /// it is not a plain file (a link, a named pipe: opened no-follow and
    /// non-blocking, checked with fstat), cannot be read, or is larger than `limit`.
    public func readText(_ name: [UInt8], limit: Int = Directory.countLimit) -> (bytes: [UInt8], stamp: FileStamp)? {
        Self.readText(in: fd, name, limit: limit)
    }

    /// `readText` relative to a folder's fd, callable from any thread.
    static func readText(in dirfd: Int32, _ name: [UInt8], limit: Int) -> (bytes: [UInt8], stamp: FileStamp)? {
        // Taken before the read, so the text is never older than its stamp:
        // a write in between makes the next stamp differ and the file is read again.
        var st = carrel_stat_t()
        guard BytePath.withCString(name, { carrel_lstat_at(dirfd, $0, &st) }) == 0, st.type == 1 else { return nil }
        let stamp = FileStamp(st)
        let file = BytePath.withCString(name) { openat(dirfd, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard file >= 0 else { return nil }
        defer { close(file) }
        var info = Glibc.stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= limit else {
            return nil
        }
        var out = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == out.count {
                // Grown since fstat: read on, within the limit.
                guard out.count <= limit else { return nil }
                out.append(contentsOf: repeatElement(0, count: max(4096, out.count)))
            }
            let n = out.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            filled += n
        }
        guard filled <= limit else { return nil }
        out.removeSubrange(filled...)
        return (out, stamp)
    }
}
