import CCarrelSys
import CarrelJSON
import CarrelModel
import Glibc

/// A record this device keeps about a library's links in the state folder's
/// `links` (a move's edits in flight, a question not yet answered). Both
/// kinds are written and read back the same way, so the rules for
/// untrusted state (no-follow, non-blocking, a plain file within the size
/// limit, every field checked, never another library's) hold for both in
/// one place.
protocol LinkStateRecord: Sendable {
    /// The library's real path, as the file name's hash was taken of.
    var library: String { get }
    static var sizeLimit: Int { get }
    /// The start of the library's record names, up to the writer's pid.
    static func prefix(_ realPath: [UInt8]) -> String
    static func decode(_ bytes: [UInt8]) throws(LinkRecordFlaw) -> Self
    func encoded() -> [UInt8]
}

/// The `links` folder in the state folder.
enum LinkStateFolder {
    static let name = Array("links".utf8)
    /// The longest name a path in a record may hold, as on ext4.
    static let nameLimit = 255

    /// The folder, made when `create`.
    static func open(create: Bool) -> Directory? {
        guard let state = StateFiles.directory() else { return nil }
        let path = BytePath.join(state, name)
        if let d = try? Directory.open(path) { return d }
        guard create, StateFiles.makeFolders(path) else { return nil }
        return try? Directory.open(path)
    }

    static func remove(_ record: [UInt8]) {
        guard let d = open(create: false) else { return }
        _ = BytePath.withCString(record) { unlinkat(d.fd, $0, 0) }
    }
}

/// A record written in the folder, kept until what it stands for is done.
public struct LinkStateFile: Sendable {
    let name: [UInt8]
    /// Removes it: its work is done, or needs doing no more.
    public func remove() { LinkStateFolder.remove(name) }
}

/// A record found in the folder: the file, its path for what the writer is
/// told, and what reading it gave.
struct LinkStateEntry<Record: LinkStateRecord> {
    let file: LinkStateFile
    let path: String
    let record: Result<Record, LinkRecordFlaw>
}

extension LinkStateRecord {
    /// Writes the record whole and durably: a hidden temporary, fsynced,
    /// renamed no-replace to a name no other process makes, the folder
    /// fsynced. Nil when it could not be (no state folder, a full disk).
    func writeRecord(for realPath: [UInt8]) -> LinkStateFile? {
        guard let dir = LinkStateFolder.open(create: true) else { return nil }
        var bytes = encoded()
        bytes.append(0x0A)
        guard bytes.count <= Self.sizeLimit else { return nil }
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let name = Array((Self.prefix(realPath) + "\(getpid())-\(Clock.nowMs())-\(random).json").utf8)
        let tmp = [UInt8(ascii: ".")] + name + Array(".tmp".utf8)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(tmp) { openat(dir.fd, $0, flags, 0o600) }
        guard fd >= 0 else { return nil }
        let ok = FileDescriptor.writeAll(fd, bytes) == 0 && fsync(fd) == 0
        close(fd)
        let renamed =
            ok
            && BytePath.withCString(tmp) { t in
                BytePath.withCString(name) { n in carrel_rename_noreplace(dir.fd, t, dir.fd, n) }
            } == 0
        guard renamed else {
            _ = BytePath.withCString(tmp) { unlinkat(dir.fd, $0, 0) }
            return nil
        }
        dir.sync()
        return LinkStateFile(name: name)
    }

    /// The records left for the library at `realPath`, in name order (oldest
    /// first), but those whose writer `isAlive` says is still at work (given
    /// what follows the prefix, `<pid>-…`). A hidden temporary whose writer
    /// is gone was never a record and is removed.
    static func entriesLeft(for realPath: [UInt8], writerIsAlive isAlive: (ArraySlice<UInt8>) -> Bool)
        -> [LinkStateEntry<Self>]
    {
        guard let dir = LinkStateFolder.open(create: false), let entries = try? dir.list() else { return [] }
        let prefix = Array(prefix(realPath).utf8)
        var found: [LinkStateEntry<Self>] = []
        for (name, _) in entries.sorted(by: { $0.name.lexicographicallyPrecedes($1.name) }) {
            if name.first == UInt8(ascii: "."), name.dropFirst().starts(with: prefix) {
                if !isAlive(name.dropFirst(1 + prefix.count)) {
                    _ = BytePath.withCString(name) { unlinkat(dir.fd, $0, 0) }
                }
                continue
            }
            guard name.starts(with: prefix), !isAlive(name.dropFirst(prefix.count)) else { continue }
            let display = BytePath.display(BytePath.join(dir.path, name))
            found.append(
                LinkStateEntry(
                    file: LinkStateFile(name: name), path: display, record: read(name, in: dir, realPath: realPath)))
        }
        return found
    }

    static func read(_ name: [UInt8], in dir: Directory, realPath: [UInt8]) -> Result<Self, LinkRecordFlaw> {
        let bytes: [UInt8]
        do throws(SysError) {
            bytes = try dir.readPlainFile(name, limit: sizeLimit)
        } catch {
            switch error.refusal {
            case .wrongKind(let found, _)?: return .failure(.found(found))
            case .tooLarge(let limit)?: return .failure(.tooLarge(limit: limit))
            default: return .failure(.failed(detail: error.message))
            }
        }
        do throws(LinkRecordFlaw) {
            let record = try decode(bytes)
            guard record.library == BytePath.display(realPath) else { throw .otherLibrary }
            return .success(record)
        } catch {
            return .failure(error)
        }
    }

    /// A library path (names from the library's folder) read from `value`:
    /// at most `partLimit` names, none of which leaves the library.
    static func libraryPath(_ value: JSONValue?, field: String, partLimit: Int) throws(LinkRecordFlaw) -> [String] {
        guard let parts = value?.arrayValue, !parts.isEmpty, parts.count <= partLimit else {
            throw .malformed(detail: field)
        }
        var path: [String] = []
        for part in parts {
            guard let name = part.stringValue else { throw .malformed(detail: field) }
            let bytes = Array(name.utf8)
            guard !bytes.isEmpty, bytes.count <= LinkStateFolder.nameLimit, name != ".", name != "..",
                !bytes.contains(UInt8(ascii: "/")), !bytes.contains(0)
            else { throw .pathOutsideLibrary }
            path.append(name)
        }
        return path
    }
}
