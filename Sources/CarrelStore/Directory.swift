import CCarrelSys
import Foundation
import Glibc

/// An open directory file descriptor. Every mutation goes through one, with
/// names relative to it, so a symlink swapped in for a folder is never followed.
public final class Directory {
    public let fd: Int32
    public let path: [UInt8]

    private init(fd: Int32, path: [UInt8]) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Opens a trusted absolute path (a workspace folder).
    public static func open(_ path: [UInt8]) throws(SysError) -> Directory {
        let fd = BytePath.withCString(path) { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw SysError("open", BytePath.display(path)) }
        return Directory(fd: fd, path: path)
    }

    /// Opens `components` below `root`, refusing symlinks at every step.
    public static func open(root: [UInt8], components: [[UInt8]]) throws(SysError) -> Directory {
        try open(root).subdirectory(components)
    }

    /// Opens the folder `components` below this one, refusing symlinks at
    /// every step: in one system call where the kernel can, else one
    /// component at a time. A path that fails in one call is walked again
    /// step by step, so the error names the component at fault.
    public func subdirectory(_ components: [[UInt8]]) throws(SysError) -> Directory {
        if components.count > 1 {
            let relative = Array(components.joined(separator: [UInt8(ascii: "/")]))
            let fd = BytePath.withCString(relative) { carrel_open_dir_beneath(self.fd, $0) }
            if fd >= 0 { return Directory(fd: fd, path: BytePath.join(path, relative)) }
        }
        var dir = self
        for c in components { dir = try dir.subdirectory(c) }
        return dir
    }

    public func subdirectory(_ name: [UInt8]) throws(SysError) -> Directory {
        let fd = BytePath.withCString(name) { carrel_open_dir_nofollow(self.fd, $0) }
        let p = BytePath.join(path, name)
        guard fd >= 0 else {
            throw SysError("open", BytePath.display(p), code: errno == ELOOP ? ENOTDIR : errno)
        }
        return Directory(fd: fd, path: p)
    }

    public func stat(_ name: [UInt8]) -> carrel_stat_t? {
        var st = carrel_stat_t()
        let r = BytePath.withCString(name) { carrel_lstat_at(fd, $0, &st) }
        return r == 0 ? st : nil
    }

    public func exists(_ name: [UInt8]) -> Bool { stat(name) != nil }

    public func makeDirectory(_ name: [UInt8]) throws(SysError) {
        let r = BytePath.withCString(name) { mkdirat(fd, $0, 0o755) }
        guard r == 0 else { throw SysError("mkdir", BytePath.display(BytePath.join(path, name))) }
    }

    public func createEmptyFile(_ name: [UInt8]) throws(SysError) {
        let r = BytePath.withCString(name) { carrel_create_file_excl(fd, $0) }
        guard r == 0 else { throw SysError("create", BytePath.display(BytePath.join(path, name))) }
    }

    /// Whether the kernel and filesystem understand RENAME_NOREPLACE; when
    /// they do, EINVAL from `move` means the target lies inside the source.
    public static let renameNoReplaceSupported = carrel_rename_noreplace_supported() != 0

    /// Atomic rename that never replaces: EEXIST when `to` exists, EXDEV across disks.
    public func move(_ name: [UInt8], to target: Directory, as newName: [UInt8]) throws(SysError) {
        let r = BytePath.withCString(name) { src in
            BytePath.withCString(newName) { dst in carrel_rename_noreplace(fd, src, target.fd, dst) }
        }
        guard r == 0 else { throw SysError("rename", BytePath.display(BytePath.join(path, name))) }
    }

    public func unlinkFile(_ name: [UInt8]) throws(SysError) {
        let r = BytePath.withCString(name) { unlinkat(fd, $0, 0) }
        guard r == 0 else { throw SysError("unlink", BytePath.display(BytePath.join(path, name))) }
    }

    public func removeEmptyDirectory(_ name: [UInt8]) throws(SysError) {
        let r = BytePath.withCString(name) { unlinkat(fd, $0, AT_REMOVEDIR) }
        guard r == 0 else { throw SysError("rmdir", BytePath.display(BytePath.join(path, name))) }
    }

    /// Makes renames and creations in this directory durable.
    public func sync() {
        _ = carrel_fsync_dir(fd)
    }

    /// Makes a move durable: both folders fsynced at once, since each fsync
    /// mostly waits for the disk and the waits overlap.
    public static func sync(_ a: Directory, _ b: Directory) {
        sync([a, b])
    }

    /// Fsyncs every folder given, all at once: the first on this thread,
    /// each other on a helper thread of its own (`carrel_fsync_all`).
    public static func sync(_ folders: [Directory]) {
        withExtendedLifetime(folders) {
            _ = folders.map(\.fd).withUnsafeBufferPointer { carrel_fsync_all($0.baseAddress, Int32($0.count)) }
        }
    }

    /// Names and d_type kinds of the entries (without "." and "..").
    public func list() throws(SysError) -> [(name: [UInt8], type: Int32)] {
        let dupfd = dup(fd)
        guard dupfd >= 0, let d = carrel_dir_open_fd(dupfd) else { throw SysError("opendir", BytePath.display(path)) }
        defer { carrel_dir_close(d) }
        lseek(carrel_dir_fd(d), 0, SEEK_SET)
        var out: [(name: [UInt8], type: Int32)] = []
        var namePtr: UnsafePointer<CChar>?
        var type: Int32 = 0
        while true {
            let r = carrel_dir_next(d, &namePtr, &type)
            if r == 0 { break }
            if r < 0 { throw SysError("readdir", BytePath.display(path)) }
            let len = strlen(namePtr!)
            let bytes = UnsafeRawBufferPointer(start: namePtr!, count: len)
            out.append((Array(bytes), type))
        }
        return out
    }

    /// Deletes `name` and everything under it, without recursion and with at
    /// most two open directories, however deep the tree: subfolders are first
    /// renamed up to this directory, under hidden unique names, then emptied.
    /// Only ever called on items the writer confirmed deleting for good.
    public func removeTree(_ name: [UInt8]) throws(SysError) {
        guard let st = stat(name) else { throw SysError("stat", BytePath.display(BytePath.join(path, name))) }
        if !st.isDirectory { try unlinkFile(name); return }
        var pending: [[UInt8]] = [name]
        var counter = 0
        while let current = pending.popLast() {
            let dir = try subdirectory(current)
            for (child, type) in try dir.list() {
                var isDir = type == DiskType.directory
                if type == DiskType.other, let cst = dir.stat(child) { isDir = cst.isDirectory }
                if isDir {
                    counter += 1
                    let hoisted = Array(".carrel-purge-\(getpid())-\(counter)".utf8)
                    try dir.move(child, to: self, as: hoisted)
                    pending.append(hoisted)
                } else {
                    try dir.unlinkFile(child)
                }
            }
            try removeEmptyDirectory(current)
        }
        sync()
    }
}
