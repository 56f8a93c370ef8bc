import CCarrelSys
import CarrelJSON
import CarrelModel
import Foundation
import Glibc

/// Reads and writes a project's metadata: its settings in
/// `.carrel/project.json`, rewritten only when a setting changes, and its
/// Trash records (`TrashRecords`). Every write happens under the project's
/// lock and re-reads the file first, so two Carrel processes never lose
/// each other's changes; unknown keys survive the rewrite.
public enum ProjectFile {
    public enum Problem: Error, Sendable, Equatable {
        case sys(SysError)
        case unsupportedVersion(Int)
        case corrupt(String)
    }

    public static let directoryName = Array(".carrel".utf8)
    static let tempPrefix = ".project.json.tmp-"
    public static let fileName = Array("project.json".utf8)
    /// What older versions kept in `.carrel`: a lock file and a spare copy
    /// of project.json. Both mean nothing on another machine; they are removed.
    static let formerLockName = Array("lock".utf8)
    static let formerSpareName = Array(".project.json.previous".utf8)

    public static func markerPath(_ projectPath: [UInt8]) -> [UInt8] {
        BytePath.join(BytePath.join(projectPath, directoryName), fileName)
    }

    /// The metadata now on disk: the settings, and the records of
    /// `.carrel/trash`. Records project.json still holds from an older
    /// version count for items without a record file of their own.
    public static func read(_ projectPath: [UInt8]) throws(Problem) -> ProjectMetadata {
        let carrelDir: Directory
        do { carrelDir = try carrelFolder(projectPath) } catch { throw .sys(error) }
        var (_, meta) = try readRaw(carrelDir)
        if let records = try? TrashRecords.folder(in: carrelDir, create: false) {
            for (name, stored) in TrashRecords.scan(records).kept { meta.trash[name] = stored.record }
        }
        return meta
    }

    /// A project's `.carrel`, opened from the project's folder without
    /// following a link: everything Carrel reads or writes in it goes
    /// through this descriptor (see the invariants in Sources/ARCHITECTURE.md).
    public static func carrelFolder(_ projectPath: [UInt8]) throws(SysError) -> Directory {
        try Directory.open(projectPath).realSubdirectory(directoryName)
    }

    /// Creates `.carrel/project.json` in a new project folder.
    public static func create(in project: Directory, _ meta: ProjectMetadata) throws(SysError) {
        if !project.exists(directoryName) { try project.makeDirectory(directoryName) }
        let carrelDir = try project.realSubdirectory(directoryName)
        try write(encode(meta, over: [:], now: 0), in: carrelDir)
    }

    /// Locked read-modify-write of the settings. Returns the metadata as
    /// written, Trash records included.
    @discardableResult
    public static func update(_ projectPath: [UInt8], _ change: (inout ProjectMetadata) -> Void) throws(Problem)
        -> ProjectMetadata
    {
        try locked(projectPath) { lock throws(Problem) in try lock.update(change) }
    }

    /// Holds the project's lock for `body`: every process's metadata
    /// writes, and the moves they describe, happen one at a time. A Trash
    /// record is written and its item moved under one lock, so another
    /// Carrel never drops a record whose move has not happened yet.
    public static func locked<R>(_ projectPath: [UInt8], _ body: (Lock) throws(Problem) -> R) throws(Problem) -> R {
        let carrelDir: Directory
        do { carrelDir = try carrelFolder(projectPath) } catch { throw .sys(error) }
        // Closing releases each flock (these fds are never duplicated), so
        // no separate unlock call.
        let held = ProjectLock.acquire(projectPath, carrelDir: carrelDir)
        defer { for fd in held { close(fd) } }
        return try body(Lock(projectPath: projectPath, carrelDir: carrelDir))
    }

    /// Whether `.carrel` holds temporary files of interrupted writes, or
    /// the lock and spare of an older version. Read without the lock, so
    /// opening a clean project writes nothing at all.
    public static func hasLeftovers(_ projectPath: [UInt8]) -> Bool {
        guard let dir = try? carrelFolder(projectPath), let items = try? dir.list() else { return false }
        return items.contains { isLeftover($0.name) }
    }

    static func isLeftover(_ name: [UInt8]) -> Bool {
        name.starts(with: Array(tempPrefix.utf8)) || name == formerLockName || name == formerSpareName
    }

    /// Trash records an older version kept in project.json, when it still
    /// holds any.
    public static func formerTrashRecords(_ projectPath: [UInt8]) -> [String: ProjectMetadata.TrashRecord]? {
        guard let dir = try? carrelFolder(projectPath), let (raw, meta) = try? readRaw(dir), raw["trash"] != nil
        else { return nil }
        return meta.trash
    }

    /// Proof of holding the lock; updates go through it.
    public struct Lock {
        let projectPath: [UInt8]
        public let carrelDir: Directory

        /// Removes temporary files of writes a crash cut short, and the
        /// lock and spare of an older version, never following a link.
        /// Every writer holds this lock, so none of them is still being
        /// written. Returns how many.
        public func removeLeftovers() -> Int {
            guard let items = try? carrelDir.list() else { return 0 }
            var removed = 0
            for (name, _) in items where ProjectFile.isLeftover(name) && carrelDir.kind(of: name) != .folder {
                if (try? carrelDir.unlinkFile(name)) != nil { removed += 1 }
            }
            if removed > 0 { carrelDir.sync() }
            return removed
        }

        /// Changes the settings, writing project.json only when one of
        /// them changed. Trash records are not settings: a change to
        /// `trash` here is ignored.
        @discardableResult
        public func update(_ change: (inout ProjectMetadata) -> Void) throws(Problem) -> ProjectMetadata {
            let (raw, before) = try readRaw(carrelDir)
            var meta = before
            change(&meta)
            meta.trash = before.trash
            if meta != before {
                do { try write(encode(meta, over: raw), in: carrelDir) } catch { throw .sys(error) }
            }
            if let records = try? TrashRecords.folder(in: carrelDir, create: false) {
                for (name, stored) in TrashRecords.scan(records).kept { meta.trash[name] = stored.record }
            }
            return meta
        }

        /// Finishes moving the Trash records an older version kept in
        /// project.json into record files: each record whose item is in
        /// Trash and has no record file with the same name and origin gets
        /// one, durably, and only then is project.json rewritten without
        /// them. A crash between the two leaves both, and the next call
        /// skips the records already written. `inTrash` says whether an
        /// item is in the Trash folder. Returns how many records were written.
        public func migrateFormerTrashRecords(inTrash: (String) -> Bool) throws(Problem) -> Int {
            let (raw, meta) = try readRaw(carrelDir)
            guard raw["trash"] != nil else { return 0 }
            var written = 0
            do {
                let records = try TrashRecords.folder(in: carrelDir, create: true)!
                var present = Set<[String]>()
                let scan = TrashRecords.scan(records)
                for stored in Array(scan.kept.values) + scan.superseded {
                    present.insert([stored.name, stored.record.originalPath])
                }
                for (name, record) in meta.trash.sorted(by: { $0.key < $1.key })
                where inTrash(name) && !present.contains([name, record.originalPath]) {
                    _ = try TrashRecords.write(name, record, in: records)
                    written += 1
                }
                var rest = raw
                rest["trash"] = nil
                try ProjectFile.write(rest, in: carrelDir)
            } catch {
                throw .sys(error)
            }
            return written
        }
    }

    // MARK: Reading

    static func readRaw(_ carrelDir: Directory) throws(Problem) -> ([String: JSONValue], ProjectMetadata) {
        let bytes: [UInt8]
        do { bytes = try carrelDir.readPlainFile(fileName) } catch { throw .sys(error) }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw .corrupt(error.reason) }
        guard case .object(let raw) = json else { throw .corrupt("not a JSON object") }
        return (raw, try decode(raw))
    }

    // MARK: Writing

    /// Writes project.json atomically and durably, one key per line with
    /// the keys sorted, so a text merge of two machines' changes to
    /// different settings touches different lines.
    static func write(_ json: [String: JSONValue], in carrelDir: Directory) throws(SysError) {
        var bytes = JSONValue.object(json).encoded(pretty: true)
        bytes.append(0x0A)
        try writeByRename(bytes, in: carrelDir, sync: true)
    }

    /// Temp file, fsync, rename over the old file, fsync of the folder. The
    /// temp name is hidden, so a crash never leaves anything visible.
    /// Without `sync`, the caller fsyncs the folder.
    static func writeByRename(_ bytes: [UInt8], in carrelDir: Directory, sync: Bool) throws(SysError) {
        let tmp = Array("\(tempPrefix)\(getpid())-\(Clock.nowMs())".utf8)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(tmp) { openat(carrelDir.fd, $0, flags, 0o644) }
        guard fd >= 0 else { throw SysError("create", BytePath.display(BytePath.join(carrelDir.path, tmp))) }
        var code = FileDescriptor.writeAll(fd, bytes)
        if code == 0 && fsync(fd) != 0 { code = errno }
        close(fd)
        guard code == 0 else {
            _ = BytePath.withCString(tmp) { unlinkat(carrelDir.fd, $0, 0) }
            throw SysError("write", BytePath.display(BytePath.join(carrelDir.path, fileName)), code: code)
        }
        // The one deliberate replacing rename: our own metadata file, atomically.
        let r = BytePath.withCString(tmp) { src in
            BytePath.withCString(fileName) { dst in renameat(carrelDir.fd, src, carrelDir.fd, dst) }
        }
        guard r == 0 else {
            let e = SysError("rename", BytePath.display(BytePath.join(carrelDir.path, fileName)))
            _ = BytePath.withCString(tmp) { unlinkat(carrelDir.fd, $0, 0) }
            throw e
        }
        if sync { carrelDir.sync() }
    }

    public static func readFile(_ path: [UInt8], limit: Int = 16 << 20) throws(SysError) -> [UInt8] {
        let fd = BytePath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw SysError("open", BytePath.display(path)) }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw SysError("read", BytePath.display(path)) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }
}
