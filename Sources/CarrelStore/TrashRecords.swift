import CCarrelSys
import CarrelJSON
import CarrelModel
import Foundation
import Glibc

/// Where each Trash item came from, one small file per deletion in
/// `.carrel/trash`. Each file is written once, under a name no other
/// deletion on any machine uses, and removed when its item leaves the
/// Trash: two machines deleting different items touch different files, so
/// a sync engine merges them without a conflict.
public enum TrashRecords {
    public static let folderName = Array("trash".utf8)
    static let suffix = Array(".json".utf8)
    /// A record is a few lines; anything larger is not one.
    static let sizeLimit = 64 << 10

    /// A record as found on disk: `id` is its file name.
    public struct Stored: Equatable {
        public let id: String
        public let name: String
        public let record: ProjectMetadata.TrashRecord
    }

    /// What `.carrel/trash` holds: the record kept for each Trash item
    /// name (the newest deletion), and every other record naming the same
    /// item, which loses.
    public struct Scan {
        public var kept: [String: Stored] = [:]
        public var superseded: [Stored] = []
        /// Empty plain files: a record whose writer was killed between
        /// creating and writing it. Its item never moved.
        public var torn: [String] = []
    }

    /// `.carrel/trash` opened without following a link, or nil when it is
    /// missing. Anything there but a real folder is refused.
    public static func folder(in carrelDir: Directory, create: Bool) throws(SysError) -> Directory? {
        if !carrelDir.exists(folderName) {
            guard create else { return nil }
            do { try carrelDir.makeDirectory(folderName) } catch {
                if error.code != EEXIST { throw error }
            }
            carrelDir.sync()
        }
        return try carrelDir.realSubdirectory(folderName)
    }

    /// Every readable record. A file that is not a plain file, not valid
    /// JSON or not a record is skipped and left alone.
    public static func scan(_ dir: Directory) -> Scan {
        var out = Scan()
        guard let items = try? dir.list() else { return out }
        for (fileName, type) in items where type == DiskType.file || type == DiskType.other {
            guard fileName.count > suffix.count, fileName.suffix(suffix.count).elementsEqual(suffix) else { continue }
            guard let stored = read(fileName, in: dir) else {
                if let st = dir.stat(fileName), st.isFile, st.size == 0,
                    let id = String(validating: fileName, as: UTF8.self)
                {
                    out.torn.append(id)
                }
                continue
            }
            guard let other = out.kept[stored.name] else {
                out.kept[stored.name] = stored
                continue
            }
            if newer(stored, than: other) {
                out.kept[stored.name] = stored
                out.superseded.append(other)
            } else {
                out.superseded.append(stored)
            }
        }
        return out
    }

    /// The newest deletion wins; of one deletion's record and a sync
    /// engine's conflict copy of it, the record; ids break a tie the same
    /// way on every machine.
    static func newer(_ a: Stored, than b: Stored) -> Bool {
        let (copyA, copyB) = (ConflictCopy.isCopy(a.id), ConflictCopy.isCopy(b.id))
        if a.record.deleted == b.record.deleted && copyA != copyB { return copyB }
        return (a.record.deleted, a.id) > (b.record.deleted, b.id)
    }

    /// Gives a record kept under a sync engine's conflict-copy name a name
    /// of its own, by one no-replace rename: the record is in one place at
    /// every instant. The caller holds the lock and fsyncs the folder.
    public static func adopt(_ id: String, in dir: Directory) -> Bool {
        let name = Array(id.utf8)
        guard ConflictCopy.isCopy(id), dir.kind(of: name) == .file else { return false }
        cache.set(BytePath.join(dir.path, name), nil)
        return (try? dir.move(name, to: dir, as: Array(newID().utf8))) != nil
    }

    static func read(_ fileName: [UInt8], in dir: Directory) -> Stored? {
        guard let id = String(validating: fileName, as: UTF8.self) else { return nil }
        let path = BytePath.join(dir.path, fileName)
        let identity = dir.stat(fileName).map { CacheKey(inode: $0.inode, size: $0.size, changeNs: $0.change_ns) }
        if let identity, let known = cache.get(path), known.key == identity { return known.stored }
        guard let bytes = try? dir.readPlainFile(fileName, limit: sizeLimit),
            let json = try? JSONParser.parse(bytes),
            let name = json["name"]?.stringValue, isItemName(name),
            let from = json["from"]?.stringValue, !from.isEmpty
        else { return nil }
        let deleted = Int64(json["deleted"]?.intValue ?? 0)
        let deletedAs = json["deletedAs"]?.stringValue.flatMap { isItemName($0) ? $0 : nil }
        let stored = Stored(
            id: id, name: name, record: .init(originalPath: from, deleted: deleted, id: id, deletedAs: deletedAs))
        if let identity { cache.set(path, (identity, stored)) }
        return stored
    }

    /// One name at the top of the Trash folder.
    static func isItemName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    /// A name no other deletion uses, here or on another machine: the time
    /// and 64 random bits.
    static func newID() -> String {
        let random = UInt64.random(in: 0...UInt64.max)
        let hex = String(random, radix: 16)
        return "\(Clock.nowMs())-\(String(repeating: "0", count: 16 - hex.count))\(hex).json"
    }

    /// The record's bytes: one key per line, keys sorted. The id is
    /// written too, though the file's name says it: a rename in Trash on
    /// two machines replaces one record by two that differ only in "name",
    /// and git would pair such look-alikes as two renames of one file, in
    /// conflict. The id keeps them apart.
    static func encode(id: String, name: String, _ record: ProjectMetadata.TrashRecord) -> [UInt8] {
        var fields: [String: JSONValue] = [
            "name": .string(name), "from": .string(record.originalPath), "deleted": .int(Int(record.deleted)),
            "id": .string(String(id.dropLast(suffix.count))),
        ]
        if let deletedAs = record.deletedAs { fields["deletedAs"] = .string(deletedAs) }
        let json: JSONValue = .object(fields)
        return json.encoded(pretty: true) + [0x0A]
    }

    /// Writes a new record for the Trash item `name` and makes it durable,
    /// the file and the folder's entry in one wait for the disk. Returns
    /// the record with its id. Never replaces a file.
    public static func write(_ name: String, _ record: ProjectMetadata.TrashRecord, in dir: Directory)
        throws(SysError) -> ProjectMetadata.TrashRecord
    {
        let id = newID()
        let bytes = encode(id: id, name: name, record)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let fd = BytePath.withCString(Array(id.utf8)) { openat(dir.fd, $0, flags, 0o644) }
        let display = BytePath.display(BytePath.join(dir.path, Array(id.utf8)))
        guard fd >= 0 else { throw SysError("create", display) }
        var failed = FileDescriptor.writeAll(fd, bytes)
        if failed == 0 {
            let fds = [fd, dir.fd]
            if fds.withUnsafeBufferPointer({ carrel_fsync_all($0.baseAddress, 2) }) != 0 { failed = errno }
        }
        close(fd)
        guard failed == 0 else {
            _ = BytePath.withCString(Array(id.utf8)) { unlinkat(dir.fd, $0, 0) }
            throw SysError("write", display, code: failed)
        }
        var written = record
        written.id = id
        return written
    }

    /// Removes the record `id` when it is a plain file; the caller fsyncs
    /// the folder. Anything else under that name is left alone.
    @discardableResult
    public static func remove(_ id: String, in dir: Directory) -> Bool {
        let name = Array(id.utf8)
        guard !id.isEmpty, !id.contains("/"), dir.kind(of: name) == .file else { return false }
        cache.set(BytePath.join(dir.path, name), nil)
        return (try? dir.unlinkFile(name)) != nil
    }

    // MARK: Records already read

    /// Records are written once, so a file still at the inode, size and
    /// ctime last seen is that record. The watcher reloads a project after
    /// every change in `.carrel`; parsing hundreds of records each time
    /// would cost more than the change.
    struct CacheKey: Equatable {
        let inode: UInt64, size: UInt64, changeNs: Int64
    }

    final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var byPath: [[UInt8]: (key: CacheKey, stored: Stored)] = [:]

        func get(_ path: [UInt8]) -> (key: CacheKey, stored: Stored)? {
            lock.lock()
            defer { lock.unlock() }
            return byPath[path]
        }

        func set(_ path: [UInt8], _ value: (key: CacheKey, stored: Stored)?) {
            lock.lock()
            defer { lock.unlock() }
            byPath[path] = value
        }
    }

    static let cache = Cache()
}
