import CCarrelSys
import CarrelJSON
import CarrelModel
import Glibc

/// What an operation left on disk, to tell later whether another program
/// or machine has touched the item since: its identity, and for a file its
/// size and modification time (a folder's own times change with its
/// children, and with a move between folders, so only its identity counts).
public struct Fingerprint: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var isFolder: Bool
    public var size: UInt64
    public var modifiedMs: Int64

    public init(device: UInt64, inode: UInt64, isFolder: Bool, size: UInt64, modifiedMs: Int64) {
        self.device = device
        self.inode = inode
        self.isFolder = isFolder
        self.size = size
        self.modifiedMs = modifiedMs
    }

    /// A file or a folder, never a link or anything else.
    public init?(_ st: carrel_stat_t) {
        guard st.type == 1 || st.type == 2 else { return nil }
        self.init(
            device: st.device, inode: st.inode, isFolder: st.type == 2, size: st.size, modifiedMs: st.modified_ms)
    }

    /// Whether `now` is still the item this fingerprint was taken of, unchanged.
    public func matches(_ now: Fingerprint) -> Bool {
        guard device == now.device, inode == now.inode, isFolder == now.isFolder else { return false }
        return isFolder || (size == now.size && modifiedMs == now.modifiedMs)
    }
}

/// One operation a writer can take back: what was done, where the item is
/// now and where it was, relative to the library ("/"-separated names).
/// Both stacks hold the operation the writer made: undo takes it back and
/// puts it on the redo stack with the places swapped, and redo the reverse.
public struct JournalEntry: Sendable, Equatable {
    public enum Operation: String, Sendable, CaseIterable {
        case created, duplicated, renamed, moved, trashed, restored
        /// Settings: a sort, a folder's binder order, a word target, whether deleting asks first.
        case sorted, reordered, targetSet, askingChanged

        public var isSetting: Bool {
            switch self {
            case .sorted, .reordered, .targetSet, .askingChanged: return true
            default: return false
            }
        }
    }
    public var operation: Operation
    /// The item moved, or the item whose setting changed ("" for the library itself).
    public var path: String
    /// Nil for a new item or a copy, which came from nowhere, and for a setting.
    public var origin: String?
    /// What an item operation left; nil for a setting.
    public var fingerprint: Fingerprint?
    /// A setting's values before and after, each a short text by name
    /// (`CarrelWorkspace` chooses the names): undo puts `before` back
    /// only while the setting still reads `after`.
    public var before: [String: String]?
    public var after: [String: String]?
    /// The links a rename or move rewrote, written back by its undo.
    public var links: [JournalLinkFile] = []

    public init(_ operation: Operation, path: String, origin: String?, fingerprint: Fingerprint) {
        self.operation = operation
        self.path = path
        self.origin = origin
        self.fingerprint = fingerprint
    }

    public init(setting operation: Operation, path: String, before: [String: String], after: [String: String]) {
        self.operation = operation
        self.path = path
        self.before = before
        self.after = after
    }
}

/// A library's undo and redo stacks, device-local: kept in the state folder
/// (`undo/library-<FNV-1a of the library's real path>.json`), never in the
/// library, so it is never synced and needs no merge rule. Bounded: the
/// newest `maxEntries` of each stack, and no more than `maxBytes` written,
/// the oldest dropped first. Read as untrusted input: no-follow, a plain
/// file, at most `readLimit` bytes; anything else is set aside.
public struct Journal: Sendable, Equatable {
    public static let version = 1
    public static let maxEntries = 200
    public static let maxBytes = 256 << 10
    public static let readLimit = 1 << 20
    public static let folderName = "undo"

    public var undo: [JournalEntry] = []
    public var redo: [JournalEntry] = []

    public init(undo: [JournalEntry] = [], redo: [JournalEntry] = []) {
        self.undo = undo
        self.redo = redo
    }

    /// Why a journal file was not used.
    public enum Unusable: Error, Equatable {
        case newer(version: Int)
        case unreadable(String)
    }

    // MARK: The file

    /// The library's journal, or an empty one. A journal that cannot be
    /// used is renamed aside (never deleted) and the reason returned, for
    /// the writer to be told once.
    public static func load(for library: [UInt8]) -> (Journal, setAside: (path: String, why: Unusable)?) {
        guard let dir = folder(create: false) else { return (Journal(), nil) }
        let name = fileName(library)
        let stamp = JournalMemo.stamp(of: name, in: dir)
        let key = BytePath.join(dir.path, name)
        if let stamp, let known = JournalMemo.shared.journal(key, stamp) { return (known, nil) }
        let bytes: [UInt8]
        do {
            bytes = try dir.readPlainFile(name, limit: readLimit)
        } catch {
            if error.code == ENOENT { return (Journal(), nil) }
            return (Journal(), setAside(name, in: dir, .unreadable(error.message)))
        }
        do {
            let journal = try decode(bytes)
            // Stamped before the read: a file replaced meanwhile differs from the stamp and is read again.
            if let stamp { JournalMemo.shared.keep(journal, key, stamp) }
            return (journal, nil)
        } catch {
            return (Journal(), setAside(name, in: dir, error))
        }
    }

    /// Replaces the library's journal whole: a temporary, synced, renamed
    /// over it. False when it could not be written: the operations stand,
    /// and only the ability to take them back is lost.
    ///
    /// The folder is not synced after the rename, which would be a second
    /// wait for the disk after every command the journal follows. A crash
    /// may then bring back an older journal, whole: the steps made since
    /// cannot be undone, and a step it lists that was taken back since no
    /// longer matches its item's fingerprint and is refused. Only the
    /// ability to undo is lost, never a file.
    @discardableResult
    public static func save(_ journal: Journal, for library: [UInt8]) -> Bool {
        guard let dir = folder(create: true) else { return false }
        let name = fileName(library)
        let tmp = Array(".\(String(decoding: name, as: UTF8.self)).tmp-\(getpid())".utf8)
        _ = BytePath.withCString(tmp) { unlinkat(dir.fd, $0, 0) }
        let fd = BytePath.withCString(tmp) {
            openat(dir.fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let (bytes, kept) = journal.encodedKeeping()
        guard FileDescriptor.writeAll(fd, bytes) == 0, fsync(fd) == 0 else {
            _ = BytePath.withCString(tmp) { unlinkat(dir.fd, $0, 0) }
            return false
        }
        // The journal is this device's own file, replaced by its own temporary.
        let renamed = BytePath.withCString(tmp) { src in
            BytePath.withCString(name) { renameat(dir.fd, src, dir.fd, $0) }
        }
        guard renamed == 0 else { return false }
        // Stamped from the file written, renamed: if another process replaced
        // it since, the name's stamp is not this one and it is read again.
        if let stamp = JournalMemo.stamp(of: fd) {
            JournalMemo.shared.keep(kept, BytePath.join(dir.path, name), stamp)
        }
        return true
    }

    /// Runs `body` holding the library's journal lock (`library-<hash>.lock`
    /// beside it), so that the server and the CLI, or two editors, never
    /// read the journal between another's read and write and lose its step.
    /// Waited for 2 s at most; past that, or where no lock can be had, the
    /// body runs unlocked, best effort: a lost step loses an undo, never a file.
    public static func locked<T, E: Error>(for library: [UInt8], _ body: () throws(E) -> T) throws(E) -> T {
        let lock = takeLock(library)
        defer { if let lock { close(lock) } }
        return try body()
    }

    static let lockWaitMs = 2000

    static func takeLock(_ library: [UInt8]) -> Int32? {
        guard let dir = folder(create: true) else { return nil }
        var name = fileName(library)
        name.removeLast(".json".utf8.count)
        guard let fd = try? dir.openPlainFile(name + Array(".lock".utf8), O_RDONLY, create: true) else { return nil }
        for _ in 0..<(lockWaitMs / 5) {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
            guard errno == EWOULDBLOCK || errno == EINTR else { break }
            usleep(5000)
        }
        close(fd)
        return nil
    }

    /// The full path of a library's journal lock, for tests.
    public static func lockPath(for library: [UInt8]) -> [UInt8]? {
        guard var path = self.path(for: library) else { return nil }
        path.removeLast(".json".utf8.count)
        return path + Array(".lock".utf8)
    }

    /// `library-<FNV-1a 64 of the real path, in hex>.json`.
    public static func fileName(_ library: [UInt8]) -> [UInt8] {
        let real =
            BytePath.withCString(library) { p -> [UInt8]? in
                guard let r = realpath(p, nil) else { return nil }
                defer { free(r) }
                return Array(UnsafeRawBufferPointer(start: r, count: strlen(r)))
            } ?? library
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in real {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return Array("library-\(String(repeating: "0", count: 16 - hex.count))\(hex).json".utf8)
    }

    /// The full path of a library's journal, for messages and tests.
    public static func path(for library: [UInt8]) -> [UInt8]? {
        guard let state = StateFiles.directory() else { return nil }
        return BytePath.join(BytePath.join(state, Array(folderName.utf8)), fileName(library))
    }

    static func folder(create: Bool) -> Directory? {
        guard let state = StateFiles.directory() else { return nil }
        let path = BytePath.join(state, Array(folderName.utf8))
        if create, !StateFiles.makeFolders(path) { return nil }
        return try? Directory.open(path)
    }

    /// Renames an unusable journal to `<name>.set-aside-<ms>`, no-replace.
    static func setAside(_ name: [UInt8], in dir: Directory, _ why: Unusable) -> (path: String, why: Unusable) {
        let aside = name + Array(".set-aside-\(Clock.nowMs())".utf8)
        try? dir.move(name, to: dir, as: aside)
        dir.sync()
        return (BytePath.display(BytePath.join(dir.path, aside)), why)
    }

    // MARK: Encoding

    /// The journal's JSON, the oldest entries dropped until it fits
    /// `maxBytes`. Each step is encoded once and the file put together from
    /// those bytes (the keys in the writer's sorted order), so a full
    /// journal costs one encoding, not one to measure and one to write.
    public func encoded() -> [UInt8] { encodedKeeping().bytes }

    /// The bytes `encoded` gives, and the journal they hold.
    func encodedKeeping() -> (bytes: [UInt8], kept: Journal) {
        var kept = Journal(undo: Array(undo.suffix(Self.maxEntries)), redo: Array(redo.suffix(Self.maxEntries)))
        var undo = self.undo.suffix(Self.maxEntries).map { $0.json.encoded(pretty: false) }
        var redo = self.redo.suffix(Self.maxEntries).map { $0.json.encoded(pretty: false) }
        let head = Array(#"{"redo":["#.utf8)
        let middle = Array(#"],"undo":["#.utf8)
        let tail = Array("],\"version\":\(Self.version)}\n".utf8)
        // Each step costs its bytes and a comma; the frame one comma fewer per list.
        var total = head.count + middle.count + tail.count
        for step in undo { total += step.count + 1 }
        for step in redo { total += step.count + 1 }
        while total > Self.maxBytes, !(undo.isEmpty && redo.isEmpty) {
            if redo.count > undo.count {
                total -= redo.removeFirst().count + 1
                kept.redo.removeFirst()
            } else {
                total -= undo.removeFirst().count + 1
                kept.undo.removeFirst()
            }
        }
        var bytes = head
        bytes.reserveCapacity(total)
        for (i, step) in redo.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += step
        }
        bytes += middle
        for (i, step) in undo.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += step
        }
        bytes += tail
        return (bytes, kept)
    }

    var json: JSONValue {
        .object([
            "version": .int(Self.version),
            "undo": .array(undo.map(\.json)),
            "redo": .array(redo.map(\.json)),
        ])
    }

    public static func decode(_ bytes: [UInt8]) throws(Unusable) -> Journal {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .unreadable("not JSON") }
        guard let version = value["version"]?.intValue else { throw .unreadable("no version") }
        if version > Self.version { throw .newer(version: version) }
        guard version == Self.version else { throw .unreadable("version \(version)") }
        guard let undo = value["undo"]?.arrayValue, let redo = value["redo"]?.arrayValue else {
            throw .unreadable("no undo and redo lists")
        }
        guard undo.count <= Self.maxEntries, redo.count <= Self.maxEntries else {
            throw .unreadable("more than \(Self.maxEntries) steps")
        }
        var journal = Journal()
        for item in undo {
            guard let e = JournalEntry(json: item) else { throw .unreadable("a step that cannot be read") }
            journal.undo.append(e)
        }
        for item in redo {
            guard let e = JournalEntry(json: item) else { throw .unreadable("a step that cannot be read") }
            journal.redo.append(e)
        }
        return journal
    }
}

extension JournalEntry {
    /// Numbers that may pass 2^53 (device, inode, size) are decimal strings,
    /// parsed without arithmetic, so no number read back can trap.
    var json: JSONValue {
        var o: [String: JSONValue] = ["op": .string(operation.rawValue), "path": .string(path)]
        if let fingerprint {
            o["device"] = .string(String(fingerprint.device))
            o["inode"] = .string(String(fingerprint.inode))
            o["folder"] = .bool(fingerprint.isFolder)
            o["size"] = .string(String(fingerprint.size))
            o["modified"] = .string(String(fingerprint.modifiedMs))
        }
        if let origin { o["origin"] = .string(origin) }
        if let before { o["before"] = .object(before.mapValues { .string($0) }) }
        if let after { o["after"] = .object(after.mapValues { .string($0) }) }
        if !links.isEmpty { o["links"] = .array(links.map(\.json)) }
        return .object(o)
    }

    /// An object whose every value is a string, or nil.
    static func texts(_ value: JSONValue?) -> [String: String]? {
        guard let object = value?.objectValue else { return nil }
        var out: [String: String] = [:]
        for (key, value) in object {
            guard let text = value.stringValue else { return nil }
            out[key] = text
        }
        return out
    }

    init?(json: JSONValue) {
        guard let op = json["op"]?.stringValue.flatMap(Operation.init(rawValue:)),
            let path = json["path"]?.stringValue
        else { return nil }
        if op.isSetting {
            guard let before = Self.texts(json["before"]), let after = Self.texts(json["after"]) else { return nil }
            self.init(setting: op, path: path, before: before, after: after)
            return
        }
        guard let device = json["device"]?.stringValue.flatMap({ UInt64($0) }),
            let inode = json["inode"]?.stringValue.flatMap({ UInt64($0) }),
            let folder = json["folder"]?.boolValue,
            let size = json["size"]?.stringValue.flatMap({ UInt64($0) }),
            let modified = json["modified"]?.stringValue.flatMap({ Int64($0) })
        else { return nil }
        let origin = json["origin"]
        guard origin == nil || origin?.stringValue != nil, let links = JournalLinkFile.list(json["links"]) else {
            return nil
        }
        self.init(
            op, path: path, origin: origin?.stringValue,
            fingerprint: Fingerprint(device: device, inode: inode, isFolder: folder, size: size, modifiedMs: modified))
        self.links = links
    }
}
