import CarrelModel
import Glibc

/// A project's snapshots on disk: `.carrel/snapshots/`, then the file's
/// path in the project, as folders, and in the file's folder one plain
/// file per snapshot (`SnapshotName`). Everything there travels with the
/// library, so it is opened no-follow, one component at a time, and read
/// untrusted.
public enum SnapshotFolder {
    public static let name: [UInt8] = Array("snapshots".utf8)
    /// A snapshot is written under this hidden prefix, then renamed to its name.
    public static let tempPrefix: [UInt8] = Array(".carrel-snapshot-".utf8)

    /// What a file's snapshot folder holds under one name.
    public struct Found {
        public let name: [UInt8]
        /// Nil when the name vanished between listing and looking.
        public let kind: FoundKind?
        public let size: Int
    }

    /// The folder of `path` (components below the project) in the project's
    /// `.carrel/snapshots`; nil when it does not exist and `create` is false.
    public static func open(project: Directory, _ path: [[UInt8]], create: Bool) throws(SysError) -> Directory? {
        var dir = project
        for part in [Array(".carrel".utf8), name] + path {
            if dir.kind(of: part) == nil {
                guard create else { return nil }
                do { try dir.makeDirectory(part) } catch  where error.code == EEXIST {}
                dir.sync()
            }
            dir = try dir.realSubdirectory(part)
        }
        return dir
    }

    /// Every name in a file's snapshot folder but hidden ones (a snapshot
    /// being written), with what it is, never following a link.
    public static func list(_ dir: Directory) -> [Found] {
        guard let names = try? dir.list() else { return [] }
        return names.compactMap { entry in
            guard entry.name.first != UInt8(ascii: ".") else { return nil }
            var st = Glibc.stat()
            guard BytePath.withCString(entry.name, { fstatat(dir.fd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else {
                return Found(name: entry.name, kind: nil, size: 0)
            }
            return Found(name: entry.name, kind: Directory.kind(st.st_mode), size: Int(clamping: st.st_size))
        }
    }

    /// Writes `bytes` as the snapshot `name`: a hidden temporary, fsynced,
    /// renamed no-replace to its name, then the folder fsynced. A crash
    /// leaves the snapshot whole or only a hidden temporary, never listed,
    /// and noted (`SnapshotWrites`) from before it exists until the rename
    /// is durable, so the next open finds it without looking for it.
    public static func write(_ bytes: [UInt8], as snapshot: [UInt8], in dir: Directory) throws(SysError) {
        let tmp = tempPrefix + Array("\(getpid())-\(UInt32.random(in: 0...UInt32.max))".utf8)
        let note = SnapshotWrites.begin(folder: dir.path, temporary: tmp)
        defer { if let note { SnapshotWrites.done(note) } }
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let file = BytePath.withCString(tmp) { openat(dir.fd, $0, flags, 0o644) }
        guard file >= 0 else { throw SysError("create", BytePath.display(BytePath.join(dir.path, tmp))) }
        var code = FileDescriptor.writeAll(file, bytes)
        if code == 0 && fsync(file) != 0 { code = errno }
        close(file)
        guard code == 0 else {
            try? dir.unlinkFile(tmp)
            throw SysError("write", BytePath.display(BytePath.join(dir.path, snapshot)), code: code)
        }
        do { try dir.move(tmp, to: dir, as: snapshot) } catch {
            try? dir.unlinkFile(tmp)
            throw error
        }
        dir.sync()
    }

    /// Moves everything under `from` (a file's or a folder's snapshots) to
    /// `to`, never over anything: a name already at the destination is a
    /// folder merged into, name by name (snapshot names are unique, so two
    /// files never meet). Nothing is followed. Returns the names left where
    /// they were because the destination held something else there.
    @discardableResult
    public static func move(
        _ fromName: [UInt8], in fromDir: Directory, to toName: [UInt8], in toDir: Directory
    ) -> Int {
        guard fromDir.kind(of: fromName) == .folder else { return 0 }
        if toDir.kind(of: toName) == nil, (try? fromDir.move(fromName, to: toDir, as: toName)) != nil {
            Directory.sync(fromDir, toDir)
            return 0
        }
        guard toDir.kind(of: toName) == .folder, let source = try? fromDir.realSubdirectory(fromName),
            let destination = try? toDir.realSubdirectory(toName)
        else { return 1 }
        var left = 0
        // A pending list, not recursion: a forged tree may be deep.
        var pending: [(Directory, Directory)] = [(source, destination)]
        while let (src, dst) = pending.popLast() {
            for (child, _) in (try? src.list()) ?? [] {
                if dst.kind(of: child) == nil, (try? src.move(child, to: dst, as: child)) != nil { continue }
                if src.kind(of: child) == .folder, dst.kind(of: child) == .folder,
                    let s = try? src.realSubdirectory(child), let d = try? dst.realSubdirectory(child)
                {
                    pending.append((s, d))
                } else {
                    left += 1
                }
            }
            Directory.sync(src, dst)
        }
        // The emptied source folders go, deepest first; one still holding something stays.
        removeEmptyFolders(fromName, in: fromDir)
        return left
    }

    /// Removes `name` and the folders below it that hold nothing, never
    /// following a link. A forged tree may be deep: below 64 levels,
    /// folders are left as they are (rmdir refuses a folder that holds any).
    static func removeEmptyFolders(_ name: [UInt8], in parent: Directory, depth: Int = 0) {
        guard depth < 64, parent.kind(of: name) == .folder, let dir = try? parent.realSubdirectory(name) else {
            return
        }
        for (child, _) in (try? dir.list()) ?? [] where dir.kind(of: child) == .folder {
            removeEmptyFolders(child, in: dir, depth: depth + 1)
        }
        try? parent.removeEmptyDirectory(name)
    }
}
