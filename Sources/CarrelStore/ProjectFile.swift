import CCarrelSys
import CarrelJSON
import CarrelModel
import Foundation
import Glibc

/// Reads and writes `.carrel/project.json`. Every write happens under a flock
/// on `.carrel/lock` and re-reads the file first, so two Carrel processes
/// never lose each other's changes; unknown keys survive the rewrite.
public enum ProjectFile {
    public enum Problem: Error, Sendable, Equatable {
        case sys(SysError)
        case unsupportedVersion(Int)
        case corrupt(String)
    }

    public static let directoryName = Array(".carrel".utf8)
    static let tempPrefix = ".project.json.tmp-"
    /// The previous version of project.json, rewritten in place and swapped
    /// in by the next write (see `writeBySwap`).
    static let spareName = Array(".project.json.previous".utf8)
    public static let fileName = Array("project.json".utf8)
    static let lockName = Array("lock".utf8)

    public static func markerPath(_ projectPath: [UInt8]) -> [UInt8] {
        BytePath.join(BytePath.join(projectPath, directoryName), fileName)
    }

    /// The metadata now on disk. The watcher calls this after every batch
    /// that touched `.carrel`, mostly for this process's own writes, so a
    /// file still at the version last seen is not parsed again.
    public static func read(_ projectPath: [UInt8]) throws(Problem) -> ProjectMetadata {
        let carrelDir: Directory
        do { carrelDir = try carrelFolder(projectPath) } catch { throw .sys(error) }
        let identity = Identity.of(fileName, in: carrelDir)
        if let identity, let known = versions.version(of: projectPath), known.identity == identity {
            return known.meta
        }
        let (raw, meta) = try readRaw(carrelDir)
        if let identity { versions.remember(projectPath, Version(identity: identity, raw: raw, meta: meta)) }
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
        try write(.object(encode(meta, over: [:])), in: carrelDir)
    }

    /// Locked read-modify-write. Returns the metadata as written.
    @discardableResult
    public static func update(_ projectPath: [UInt8], _ change: (inout ProjectMetadata) -> Void) throws(Problem)
        -> ProjectMetadata
    {
        try locked(projectPath) { lock throws(Problem) in try lock.update(change) }
    }

    /// Holds `.carrel/lock` for `body`: every process's project.json updates,
    /// and the moves they describe, happen one at a time. Trash records are
    /// written and their items moved under one lock, so another Carrel never
    /// sees a record whose move has not happened yet.
    public static func locked<R>(_ projectPath: [UInt8], _ body: (Lock) throws(Problem) -> R) throws(Problem) -> R {
        let carrelDir: Directory
        let lockFd: Int32
        do {
            carrelDir = try carrelFolder(projectPath)
            // Read-only: flock needs no more, and closing a file opened for
            // writing is an event for every watcher of `.carrel`.
            lockFd = try carrelDir.openPlainFile(lockName, O_RDONLY, create: true)
        } catch { throw .sys(error) }
        // Closing releases the flock (this fd is never duplicated), so no
        // separate unlock call.
        defer { close(lockFd) }
        _ = carrel_flock_exclusive(lockFd)
        return try body(Lock(projectPath: projectPath, carrelDir: carrelDir))
    }

    /// Whether `.carrel` holds temporary files of interrupted writes. Read
    /// without the lock, so opening a clean project writes nothing at all.
    public static func hasTemporaries(_ projectPath: [UInt8]) -> Bool {
        guard let dir = try? carrelFolder(projectPath), let items = try? dir.list() else { return false }
        return items.contains { $0.name.starts(with: Array(tempPrefix.utf8)) }
    }

    /// Proof of holding the lock; updates go through it.
    public struct Lock {
        let projectPath: [UInt8]
        let carrelDir: Directory

        /// Removes temporary files of writes a crash cut short. Every writer
        /// holds this lock, so none of them is still being written. Returns how many.
        public func removeAbandonedTemporaries() -> Int {
            guard let items = try? carrelDir.list() else { return 0 }
            var removed = 0
            for (name, type) in items where type != 2 && name.starts(with: Array(tempPrefix.utf8)) {
                if (try? carrelDir.unlinkFile(name)) != nil { removed += 1 }
            }
            if removed > 0 { carrelDir.sync() }
            return removed
        }

        @discardableResult
        public func update(_ change: (inout ProjectMetadata) -> Void) throws(Problem) -> ProjectMetadata {
            guard let staged = try stage(change) else { return try readUnderLock().meta }
            return try commit(staged)
        }

        /// A new version of project.json, durable beside the current one but
        /// not yet in its place (see `stage` and `commit`).
        public struct Staged {
            public let meta: ProjectMetadata
            let json: [String: JSONValue]
            let bytes: [UInt8]
            let rendering: Rendering
            /// Written to the spare and fsynced, ready to swap in.
            let inSpare: Bool
            /// project.json as it was when staged: the spare once swapped.
            let replacing: Identity?
        }

        /// The first half of an update: writes the changed metadata into the
        /// spare and fsyncs it. Nothing a reader sees has changed yet. Nil
        /// when the change changes nothing.
        public func stage(_ change: (inout ProjectMetadata) -> Void) throws(Problem) -> Staged? {
            try stage(change, touching: nil)
        }

        /// `stage` for the one change a delete or restore makes: the Trash
        /// record `name` set, or dropped with nil. Only that record is
        /// compared and encoded, not every record in Trash.
        public func stage(trash name: String, _ record: ProjectMetadata.TrashRecord?) throws(Problem) -> Staged? {
            try stage({ $0.trash[name] = record }, touching: name)
        }

        /// `touching`: the one Trash record `change` may change, when that
        /// is all it may change.
        ///
        /// The last version seen is taken out of the cache rather than
        /// copied, so its JSON and rendering change in place: copying each
        /// and freeing the old one took time in proportion to the records in
        /// Trash. `commit` puts the new version in. A version staged and
        /// never committed leaves the cache empty, and the next reader parses
        /// project.json again.
        private func stage(_ change: (inout ProjectMetadata) -> Void, touching name: String?) throws(Problem) -> Staged?
        {
            var current = try takeUnderLock()
            let before = current.meta
            let identity = current.identity
            var meta = before
            let adopted = adoptRecordsStagedByOthers(into: &meta, current: identity, spareSeen: current.spareIdentity)
            change(&meta)
            let touched = name.map { name in [name] + adopted.filter { $0 != name } }
            let changed: Bool
            if let touched {
                changed = touched.contains(where: { meta.trash[$0] != before.trash[$0] })
            } else {
                changed = meta != before
            }
            guard changed else {
                putBack(current)
                return nil
            }
            // A version this process wrote (it has a rendering) is already encoded.
            let (json, trashChanges) = encodeTracking(
                meta, over: moveOut(&current.raw, [:]), was: before, touched: touched,
                rawIsEncoded: current.rendering != nil)
            let (bytes, rendering) = Rendering.render(
                json, reusing: moveOut(&current.rendering, nil), trashChanges: trashChanges,
                onlyTrashChanged: touched != nil)
            let inSpare: Bool
            do { inSpare = try writeSpare(bytes, in: carrelDir, overFile: identity != nil) } catch { throw .sys(error) }
            return Staged(
                meta: meta, json: json, bytes: bytes, rendering: rendering, inSpare: inSpare, replacing: identity)
        }

        /// project.json's last version, owned by the caller until it puts it back.
        struct Current {
            var raw: [String: JSONValue]
            var meta: ProjectMetadata
            var rendering: Rendering?
            var identity: Identity?
            var spareIdentity: Identity?
        }

        /// As `readUnderLock`, but the cached version is removed, so nothing
        /// else shares its storage.
        func takeUnderLock() throws(Problem) -> Current {
            let identity = Identity.of(fileName, in: carrelDir)
            if let identity, let known = versions.take(projectPath), known.identity == identity {
                return Current(
                    raw: known.raw, meta: known.meta, rendering: known.rendering, identity: identity,
                    spareIdentity: known.spareIdentity)
            }
            let (raw, meta) = try readRaw(carrelDir)
            return Current(raw: raw, meta: meta, rendering: nil, identity: identity, spareIdentity: nil)
        }

        func putBack(_ current: Current) {
            guard let identity = current.identity else { return }
            versions.remember(
                projectPath,
                Version(
                    identity: identity, raw: current.raw, meta: current.meta,
                    rendering: current.rendering, spareIdentity: current.spareIdentity))
        }

        /// A spare newer than project.json is a version another Carrel
        /// staged and never swapped in: it was killed between moving an item
        /// into Trash and the swap, so the spare alone holds that item's
        /// record. Such records, for items in Trash without one, are taken
        /// over before the spare is rewritten. (On open, `Workspace.repair`
        /// does the same.) A spare this process swapped out is skipped
        /// without being read.
        /// Returns the names of the records taken over.
        /// `spareSeen`: the spare as this process last left it.
        func adoptRecordsStagedByOthers(into meta: inout ProjectMetadata, current: Identity?, spareSeen: Identity?)
            -> [String]
        {
            guard let spare = Identity.of(spareName, in: carrelDir) else { return [] }
            if spareSeen == spare { return [] }
            guard let current, spare.modifiedNs >= current.modifiedNs,
                let staged = readSpare(in: carrelDir), !staged.trash.isEmpty,
                let trash = meta.type.folder(.trash).flatMap({ meta.path(of: $0) })
            else { return [] }
            let trashPath = BytePath.join(projectPath, Array(trash.utf8))
            var adopted: [String] = []
            for (name, record) in staged.trash where meta.trash[name] == nil {
                guard Scanner.stat(BytePath.join(trashPath, Array(name.utf8))) != nil else { continue }
                meta.trash[name] = record
                adopted.append(name)
            }
            return adopted
        }

        /// The second half: puts a staged version in place, by swapping in
        /// the spare or, where that cannot be done, by a temporary file
        /// renamed over. Then fsyncs `.carrel` and `folders` at once, so a
        /// move made between `stage` and `commit` costs one wait for the
        /// disk, not two. A crash before that wait leaves project.json old
        /// or new, whole, and the new version in the spare either way.
        public func commit(_ staged: Staged, alsoSyncing folders: [Directory] = []) throws(Problem) -> ProjectMetadata {
            let swapped = staged.inSpare && exchangeSpare(in: carrelDir)
            if !swapped {
                do { try writeByRename(staged.bytes, in: carrelDir, sync: false) } catch {
                    Directory.sync(folders)
                    throw .sys(error)
                }
            }
            Directory.sync([carrelDir] + folders)
            if let identity = Identity.of(fileName, in: carrelDir) {
                versions.remember(
                    projectPath,
                    Version(
                        identity: identity, raw: staged.json, meta: staged.meta,
                        rendering: staged.rendering,
                        spareIdentity: swapped ? staged.replacing : nil))
            }
            return staged.meta
        }

        /// project.json as it is now: the version this process last saw when
        /// the file is still that version, else read and parsed again.
        func readUnderLock() throws(Problem) -> (
            raw: [String: JSONValue], meta: ProjectMetadata, rendering: Rendering?, identity: Identity?
        ) {
            let identity = Identity.of(fileName, in: carrelDir)
            if let identity, let known = versions.version(of: projectPath), known.identity == identity {
                return (known.raw, known.meta, known.rendering, identity)
            }
            let (raw, meta) = try readRaw(carrelDir)
            if let identity { versions.remember(projectPath, Version(identity: identity, raw: raw, meta: meta)) }
            return (raw, meta, nil, identity)
        }
    }

    // MARK: The last version seen

    /// Which version of a file this is. Carrel replaces project.json by
    /// rename, so every write is a new inode; an editor writing in place
    /// changes the mtime or the size. (Two in-place writes of the same size
    /// within one kernel clock tick would look alike; no writer does that.)
    struct Identity: Equatable {
        let device: UInt64, inode: UInt64, size: UInt64, modifiedNs: Int64

        static func of(_ name: [UInt8], in dir: Directory) -> Identity? {
            dir.stat(name).flatMap(Identity.init)
        }

        private init?(_ st: carrel_stat_t) {
            guard st.type == 1 else { return nil }
            self.init(device: st.device, inode: st.inode, size: st.size, modifiedNs: st.change_ns)
        }

        init(device: UInt64, inode: UInt64, size: UInt64, modifiedNs: Int64) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modifiedNs = modifiedNs
        }
    }

    struct Version {
        let identity: Identity
        let raw: [String: JSONValue]
        let meta: ProjectMetadata
        /// Its bytes as this process wrote them, when it did.
        var rendering: Rendering? = nil
        /// The spare as this process left it: the version it swapped out.
        var spareIdentity: Identity? = nil
    }

    /// Each project's project.json as this process last read or wrote it.
    /// Reading and parsing it again under the lock was a fifth of the cost of
    /// a delete once the Trash held a few hundred records.
    final class Versions: @unchecked Sendable {
        private let lock = NSLock()
        private var byProject: [[UInt8]: Version] = [:]

        func version(of project: [UInt8]) -> Version? {
            lock.lock()
            defer { lock.unlock() }
            return byProject[project]
        }

        /// Removes and returns the project's version: its storage is then
        /// the caller's alone.
        func take(_ project: [UInt8]) -> Version? {
            lock.lock()
            defer { lock.unlock() }
            return byProject.removeValue(forKey: project)
        }

        func remember(_ project: [UInt8], _ version: Version) {
            lock.lock()
            defer { lock.unlock() }
            byProject[project] = version
        }
    }

    static let versions = Versions()

    /// `value`, leaving `empty` in its place, so the returned copy is the
    /// only reference to its storage and can be changed in place.
    static func moveOut<T>(_ value: inout T, _ empty: T) -> T {
        let taken = value
        value = empty
        return taken
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

    /// Writes project.json atomically and durably: by swapping in the spare
    /// copy when the filesystem can, else by a temporary file renamed over it.
    static func write(_ json: JSONValue, in carrelDir: Directory) throws(SysError) {
        var bytes = json.encoded(pretty: true)
        bytes.append(0x0A)
        if try writeSpare(bytes, in: carrelDir), exchangeSpare(in: carrelDir) {
            carrelDir.sync()
            return
        }
        try writeByRename(bytes, in: carrelDir, sync: true)
    }

    /// Rewrites the spare copy in place and fsyncs it, ready to be swapped
    /// with project.json in one atomic rename (`exchangeSpare`), after which
    /// the old version is the spare. project.json itself is never written in
    /// place: a crash leaves it whole, old or new. The point is speed: a
    /// rename over project.json frees the old file's blocks, and on ext4 that
    /// took as long as an fsync; rewriting blocks already allocated costs
    /// almost nothing.
    /// Returns false, having changed nothing that matters, when the spare
    /// cannot be used (a spare that is not a plain file of its own, no
    /// project.json yet). `overFile`: the caller has just seen project.json
    /// is a plain file.
    static func writeSpare(_ bytes: [UInt8], in carrelDir: Directory, overFile: Bool = false) throws(SysError) -> Bool {
        guard overFile || carrelDir.stat(fileName)?.type == 1 else { return false }
        guard let fd = try? carrelDir.openPlainFile(spareName, O_RDWR, create: true) else { return false }
        defer { close(fd) }
        // A spare hard-linked to project.json would make this an in-place write of project.json.
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1 else { return false }
        var failed: Int32 = 0
        let unchanged = unchangedPrefix(of: fd, size: Int(st.st_size), comparedWith: bytes)
        bytes.withUnsafeBytes { buf in
            var off = unchanged
            while off < buf.count {
                let n = pwrite(fd, buf.baseAddress! + off, buf.count - off, off_t(off))
                if n < 0 { if errno == EINTR { continue }; failed = errno; return }
                off += n
            }
        }
        if failed == 0 && Int(st.st_size) != bytes.count && ftruncate(fd, off_t(bytes.count)) != 0 { failed = errno }
        if failed == 0 && fsync(fd) != 0 { failed = errno }
        guard failed == 0 else {
            throw SysError("write", BytePath.display(BytePath.join(carrelDir.path, fileName)), code: failed)
        }
        return true
    }

    /// How many leading bytes of the open spare already read as `bytes`, so
    /// only the rest is written. Every byte written dirties its block, and
    /// fsync writes each dirty block: in a C loop, the fsync of a 200 KB
    /// file rewritten whole took 390 µs, and 275 µs written from the first
    /// change. At least the last byte is always written, so the spare's
    /// mtime moves on: `adoptRecordsStagedByOthers` takes a spare newer
    /// than project.json for a version staged and never swapped in.
    /// Reading costs a copy from the page cache, which the spare is in.
    static func unchangedPrefix(of fd: Int32, size: Int, comparedWith bytes: [UInt8]) -> Int {
        let comparable = min(size, bytes.count - 1)
        guard comparable > 0 else { return 0 }
        let onDisk = [UInt8](unsafeUninitializedCapacity: comparable) { buf, count in
            count = 0
            while count < comparable {
                let n = pread(fd, buf.baseAddress! + count, comparable - count, off_t(count))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                count += n
            }
        }
        return onDisk.withUnsafeBytes { old in
            bytes.withUnsafeBytes { new in
                var same = 0
                let stride = 256
                while same + stride <= old.count, memcmp(old.baseAddress! + same, new.baseAddress! + same, stride) == 0
                {
                    same += stride
                }
                while same < old.count, old[same] == new[same] { same += 1 }
                return same
            }
        }
    }

    /// Swaps the spare with project.json. False where the filesystem has no
    /// RENAME_EXCHANGE; nothing changed then.
    static func exchangeSpare(in carrelDir: Directory) -> Bool {
        BytePath.withCString(spareName) { a in
            BytePath.withCString(fileName) { b in carrel_rename_exchange(carrelDir.fd, a, b) }
        } == 0
    }

    /// The spare: the version before the last write, or, after a crash
    /// between `Lock.stage`'s fsync and `Lock.commit`'s, the version that was
    /// about to go in. Nil when it is missing or unreadable; it is only ever
    /// a hint.
    public static func readSpare(_ projectPath: [UInt8]) -> ProjectMetadata? {
        (try? carrelFolder(projectPath)).flatMap(readSpare(in:))
    }

    static func readSpare(in carrelDir: Directory) -> ProjectMetadata? {
        guard let bytes = try? carrelDir.readPlainFile(spareName), let json = try? JSONParser.parse(bytes),
            case .object(let raw) = json
        else { return nil }
        return try? decode(raw)
    }

    /// Temp file, fsync, rename over the old file, fsync of the folder. The
    /// temp name is hidden, so a crash never leaves anything visible.
    /// Without `sync`, the caller fsyncs the folder.
    static func writeByRename(_ bytes: [UInt8], in carrelDir: Directory, sync: Bool) throws(SysError) {
        let tmp = Array("\(tempPrefix)\(getpid())-\(Clock.nowMs())".utf8)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(tmp) { openat(carrelDir.fd, $0, flags, 0o644) }
        guard fd >= 0 else { throw SysError("create", BytePath.display(BytePath.join(carrelDir.path, tmp))) }
        var ok = true
        bytes.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 { if errno == EINTR { continue }; ok = false; return }
                off += n
            }
        }
        let code = errno
        if ok && fsync(fd) != 0 { ok = false }
        close(fd)
        guard ok else {
            _ = BytePath.withCString(tmp) { unlinkat(carrelDir.fd, $0, 0) }
            throw SysError(
                "write", BytePath.display(BytePath.join(carrelDir.path, fileName)), code: code == 0 ? errno : code)
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
