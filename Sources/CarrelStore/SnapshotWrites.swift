import CCarrelSys
import CarrelJSON
import Glibc

/// A snapshot is written to a hidden temporary, then renamed
/// (`SnapshotFolder.write`): a crash between leaves the temporary. So that
/// an open need not walk every snapshot folder to find one, each write is
/// first noted in the device's state folder, `snapshot-writes/`, one small
/// file naming the folder and the temporary, made durable before the
/// temporary exists and removed once the rename is. The next open reads
/// only the notes (`Workspace.finishSnapshotWrites`). Device-local: the
/// crash, and so the repair, belong to this machine.
public enum SnapshotWrites {
    /// A write a crash may have cut short.
    public struct Note: Equatable {
        /// The absolute path of the snapshot folder the temporary is in.
        public let folder: [UInt8]
        public let temporary: [UInt8]
        /// The writer's pid, from the note's name.
        public let pid: Int32
    }

    static let folderName: [UInt8] = Array("snapshot-writes".utf8)
    /// More notes than any crash leaves: a forged folder cannot hold an open.
    static let readLimit = 1_000
    /// A path of at most `PATH_MAX`, as JSON.
    static let noteSizeLimit = 16 << 10

    static func folder(create: Bool) -> Directory? {
        guard let state = StateFiles.directory() else { return nil }
        if create { guard StateFiles.makeFolders(BytePath.join(state, folderName)) else { return nil } }
        return try? Directory.open(state).realSubdirectory(folderName)
    }

    /// Notes the write of `temporary` in `folder`, durably; the name to pass
    /// to `done`, or nil when there is no state folder (the temporary is then
    /// found only by a sweep, `Leftovers.removeSnapshotTemporaries`).
    public static func begin(folder path: [UInt8], temporary: [UInt8]) -> [UInt8]? {
        guard let dir = folder(create: true),
            let pid = Leftovers.owner(temporary, prefix: SnapshotFolder.tempPrefix, groups: 2)
        else { return nil }
        let name = Array("\(pid)-\(UInt32.random(in: 0...UInt32.max)).json".utf8)
        let fd = BytePath.withCString(name) {
            openat(dir.fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { return nil }
        // The note and its name made durable at once: one wait for the disk, not two.
        let fds = [fd, dir.fd]
        let ok =
            FileDescriptor.writeAll(fd, encode(folder: path, temporary: temporary)) == 0
            && withExtendedLifetime(dir) { fds.withUnsafeBufferPointer { carrel_fsync_all($0.baseAddress, 2) } } == 0
        close(fd)
        guard ok else {
            try? dir.unlinkFile(name)
            return nil
        }
        return name
    }

    public static func done(_ name: [UInt8]) {
        guard let dir = folder(create: false) else { return }
        try? dir.unlinkFile(name)
    }

    /// A path that is not UTF-8 is kept as hex, so every folder has a note.
    static func encode(folder: [UInt8], temporary: [UInt8]) -> [UInt8] {
        var value: [String: JSONValue] = ["temporary": .string(String(decoding: temporary, as: UTF8.self))]
        if let text = String(validating: folder, as: UTF8.self) {
            value["folder"] = .string(text)
        } else {
            value["folderHex"] = .string(folder.map { StateFiles.hex(UInt32($0)).suffix(2) }.joined())
        }
        return JSONValue.object(value).encoded()
    }

    /// The notes of writes whose process is gone, read untrusted: a note
    /// that is not a plain file holding one is listed with nil, to be
    /// removed. A note of a process still running is its write under way.
    public static func left() -> [(name: [UInt8], note: Note?)] {
        guard let dir = folder(create: false), let names = try? dir.list() else { return [] }
        var found: [(name: [UInt8], note: Note?)] = []
        for (name, _) in names where name.first != UInt8(ascii: ".") {
            guard found.count < readLimit else { break }
            guard let pid = owner(name) else {
                found.append((name, nil))
                continue
            }
            guard Leftovers.isGone(pid) else { continue }
            found.append((name, read(name, in: dir, pid: pid)))
        }
        return found
    }

    /// The pid in `<pid>-<random>.json`.
    static func owner(_ name: [UInt8]) -> Int32? {
        let suffix = Array(".json".utf8)
        guard name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        return Leftovers.owner(Array(name.dropLast(suffix.count)), prefix: [], groups: 2)
    }

    static func read(_ name: [UInt8], in dir: Directory, pid: Int32) -> Note? {
        guard let bytes = try? dir.readPlainFile(name, limit: noteSizeLimit), let json = try? JSONParser.parse(bytes),
            let temporary = json["temporary"]?.stringValue.map({ Array($0.utf8) }),
            Leftovers.owner(temporary, prefix: SnapshotFolder.tempPrefix, groups: 2) == pid
        else { return nil }
        let folder: [UInt8]?
        if let text = json["folder"]?.stringValue {
            folder = Array(text.utf8)
        } else {
            folder = json["folderHex"]?.stringValue.flatMap(bytes(hex:))
        }
        guard let folder, folder.first == UInt8(ascii: "/") else { return nil }
        return Note(folder: folder, temporary: temporary, pid: pid)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
            i += 2
        }
        return out
    }
}
