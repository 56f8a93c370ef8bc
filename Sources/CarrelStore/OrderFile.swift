import CCarrelSys
import CarrelModel
import Glibc

/// A folder's binder order on disk: `.carrel-order` in the folder itself,
/// one child name per line (`BinderOrder`). It lives beside what it orders,
/// so it moves, syncs and merges with its folder, and two machines
/// reordering different folders touch different files. It is hidden from
/// the binder (a dot name), written only when the writer orders things, and
/// untrusted when read: opened no-follow and without waiting, a plain file
/// of at most `sizeLimit` bytes, or ignored.
public enum OrderFile {
    public static let name = Array(".carrel-order".utf8)
    static let tempPrefix = Array(".carrel-order.tmp-".utf8)
    /// A thousand long names; anything larger is not an order Carrel wrote.
    public static let sizeLimit = 1 << 20
    /// The line written to the library's `.gitattributes`, so git merges two
    /// machines' orders of one folder by keeping both sides' lines.
    public static let gitAttributesLine = Array(".carrel-order merge=union\n".utf8)
    static let gitAttributesName = Array(".gitattributes".utf8)
    private static let syncConflict = Array("sync-conflict".utf8)

    /// The order file, a sync engine's conflict copy of it, or a temporary
    /// file of an interrupted write: whatever reading the order must see.
    public static func isOrderFile(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard raw.count >= name.count, raw.first == UInt8(ascii: ".") else { return false }
        if raw.starts(with: name) { return true }
        return isConflictCopy(raw)
    }

    /// Syncthing names a conflict copy `.sync-conflict-<date>-<time>-<device>.carrel-order`
    /// (it keeps what it takes for the extension last).
    static func isConflictCopy(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard raw.count > name.count, raw.suffix(name.count).elementsEqual(name) || raw.starts(with: name) else {
            return false
        }
        let bytes = Array(raw)
        return bytes.indices.contains { bytes[$0...].starts(with: syncConflict) }
    }

    public static func isTemporary(_ raw: [UInt8]) -> Bool { raw.starts(with: tempPrefix) }

    /// What a folder's order files hold.
    public struct Found {
        /// The order file's order, with every conflict copy's merged in after it.
        public var order: BinderOrder
        /// Whether `.carrel-order` itself was read.
        public var hasFile: Bool
        /// Conflict copies merged into `order`, to be removed once it is written.
        public var conflictCopies: [[UInt8]]
        /// Temporary files of writes a crash interrupted.
        public var temporaries: [[UInt8]]
    }

    /// Reads the order of the folder `dir`. A missing, unreadable or
    /// refused file (a link, a pipe, a folder, too large) reads as no order.
    public static func read(in dir: Directory) -> Found {
        var found = Found(order: BinderOrder(), hasFile: false, conflictCopies: [], temporaries: [])
        if let bytes = try? dir.readPlainFile(name, limit: sizeLimit) {
            found.order = BinderOrder(parsing: bytes)
            found.hasFile = true
        }
        guard let items = try? dir.list() else { return found }
        for (item, _) in items where item != name && item.first == UInt8(ascii: ".") {
            if isTemporary(item) {
                found.temporaries.append(item)
            } else if item.withUnsafeBytes({ isConflictCopy($0) }) {
                found.conflictCopies.append(item)
            }
        }
        // Every machine folds copies in one order, so they agree on the result.
        found.conflictCopies.sort { $0.lexicographicallyPrecedes($1) }
        // A copy that cannot be read is not merged, so it is not listed for removal.
        found.conflictCopies = found.conflictCopies.filter { copy in
            guard let bytes = try? dir.readPlainFile(copy, limit: sizeLimit) else { return false }
            found.order = found.order.merged(with: BinderOrder(parsing: bytes))
            return true
        }
        return found
    }

    /// The order file of the folder at `components` below the library
    /// `root`, when it is first needed: nil when it cannot be read or is
    /// not a plain file (read untrusted, as `read(in:)` does).
    public static func read(root: [UInt8], components: [[UInt8]]) -> BinderOrder? {
        guard let dir = try? Directory.open(root: root, components: components),
            let bytes = try? dir.readPlainFile(name, limit: sizeLimit)
        else { return nil }
        return BinderOrder(parsing: bytes)
    }

    /// Removes plain files among `names` (conflict copies already merged,
    /// temporaries), never through a link.
    public static func removeLeftovers(_ names: [[UInt8]], in dir: Directory) {
        for n in names where dir.kind(of: n) == .file { try? dir.unlinkFile(n) }
    }

    /// Which file an order file is: its inode, size and mtime. The order a
    /// server wrote itself need not be read back when its watcher reports it.
    public struct Stamp: Equatable, Sendable {
        let inode: UInt64
        let size: UInt64
        let modifiedNs: Int64
    }

    /// The stamp of the folder's order file now, or nil when there is none.
    public static func stamp(in dir: [UInt8]) -> Stamp? {
        var st = carrel_stat_t()
        let r = BytePath.withCString(BytePath.join(dir, name)) { carrel_lstat_at(AT_FDCWD, $0, &st) }
        guard r == 0, st.isFile else { return nil }
        return Stamp(inode: st.inode, size: st.size, modifiedNs: st.change_ns)
    }

    /// Writes `order` as the folder's order file, whole or not at all: a
    /// temporary file, fsynced, then swapped in for the old one in one
    /// atomic step (no-replace when there is none), so a crash leaves the
    /// old order or the new, never a torn one. What is there and could not be
    /// read as an order is refused, never replaced (`checkReplaceable`). Without
    /// `sync`, the caller fsyncs the folder.
    @discardableResult
    public static func write(_ order: BinderOrder, in dir: Directory, sync: Bool = true) throws(SysError) -> Stamp? {
        let display = BytePath.display(BytePath.join(dir.path, name))
        let existing = dir.kind(of: name)
        if existing != nil { try checkReplaceable(in: dir) }
        let tmp = tempPrefix + Array("\(getpid())-\(Clock.nowMs())-\(UInt32.random(in: 0...UInt32.max))".utf8)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(tmp) { openat(dir.fd, $0, flags, 0o644) }
        guard fd >= 0 else { throw SysError("create", BytePath.display(BytePath.join(dir.path, tmp))) }
        var code = writeAll(order.bytes, to: fd)
        if code == 0 && fsync(fd) != 0 { code = errno }
        var written = carrel_stat_t()
        let stamp =
            BytePath.withCString(tmp) { carrel_lstat_at(dir.fd, $0, &written) } == 0
            ? Stamp(inode: written.inode, size: written.size, modifiedNs: written.change_ns) : nil
        close(fd)
        func dropTemp() { _ = BytePath.withCString(tmp) { unlinkat(dir.fd, $0, 0) } }
        guard code == 0 else { dropTemp(); throw SysError("write", display, code: code) }
        let swapped: Bool
        do { swapped = try swapIn(tmp, in: dir, replacing: existing != nil) } catch {
            dropTemp()
            throw error
        }
        if swapped, let refusal = unreadable(tmp, in: dir) {
            // Another program put a file Carrel could not have read there
            // since the check: it goes back, and our order goes.
            _ = BytePath.withCString(tmp) { t in
                BytePath.withCString(name) { n in carrel_rename_exchange(dir.fd, t, n) }
            }
            dropTemp()
            throw SysError("open", display, refusal: refusal)
        }
        if sync { dir.sync() }
        // The old order, now under the temporary's name, goes after the
        // fsync: the new order is durable without waiting for its removal,
        // and a crash before it leaves a temporary the next read removes.
        if swapped, dir.kind(of: tmp) == .file { dropTemp() }
        return stamp
    }

    /// An order file is replaced only when it is one Carrel could read: a
    /// plain file of at most `sizeLimit` bytes that opens. Anything else (a
    /// link, a pipe, a folder, a file too large, one that will not open) is
    /// the writer's or another program's, and reads as no order, so
    /// replacing it would lose what it holds.
    static func checkReplaceable(in dir: Directory) throws(SysError) {
        let fd = try dir.openPlainFile(name, O_RDONLY)
        defer { close(fd) }
        var st = Glibc.stat()
        guard fstat(fd, &st) == 0 else { throw SysError("stat", BytePath.display(BytePath.join(dir.path, name))) }
        if st.st_size > sizeLimit {
            throw SysError(
                "open", BytePath.display(BytePath.join(dir.path, name)), refusal: .tooLarge(limit: sizeLimit))
        }
    }

    /// Why what now has the name `other` could not have been read as an
    /// order, or nil when it could.
    private static func unreadable(_ other: [UInt8], in dir: Directory) -> SysError.Refusal? {
        var st = Glibc.stat()
        guard BytePath.withCString(other, { fstatat(dir.fd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else { return nil }
        let kind = Directory.kind(st.st_mode)
        if kind != .file { return .wrongKind(found: kind, expected: .file) }
        return st.st_size > sizeLimit ? .tooLarge(limit: sizeLimit) : nil
    }

    /// The temporary takes the order file's name. Whether they were
    /// swapped, leaving the old order under the temporary's name.
    private static func swapIn(_ tmp: [UInt8], in dir: Directory, replacing: Bool) throws(SysError) -> Bool {
        let display = BytePath.display(BytePath.join(dir.path, name))
        if !replacing {
            let r = BytePath.withCString(tmp) { t in
                BytePath.withCString(name) { n in carrel_rename_noreplace(dir.fd, t, dir.fd, n) }
            }
            if r == 0 { return false }
            guard errno == EEXIST else { throw SysError("rename", display) }
        }
        var r = BytePath.withCString(tmp) { t in
            BytePath.withCString(name) { n in carrel_rename_exchange(dir.fd, t, n) }
        }
        if r != 0 && errno == EINVAL {
            // A filesystem without the exchange: a rename over our own file,
            // as atomic for readers.
            r = BytePath.withCString(tmp) { t in BytePath.withCString(name) { n in renameat(dir.fd, t, dir.fd, n) } }
            guard r == 0 else { throw SysError("rename", display) }
            return false
        }
        guard r == 0 else { throw SysError("rename", display) }
        return true
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return errno }
            offset += n
        }
        return 0
    }
}
