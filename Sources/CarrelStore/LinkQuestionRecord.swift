import CCarrelSys
import CarrelJSON
import CarrelModel
import Glibc

/// A rename or move through Carrel whose question about the links it breaks
/// is not answered yet: written and fsynced before the move, removed once
/// the writer answers (either way) or the setting decided. A Carrel stopped
/// in between (a crash, the editor closed on the question) leaves it, and
/// the next server asks the same question again, so a move never leaves
/// new names with old links without the writer having said so.
///
/// Device-local, beside the link update records
/// (`links/question-<FNV-1a of the real path>-<pid>-<ms>-<random>.json`),
/// for the same reasons: only this device's Carrel asked, and another
/// machine's answer would rewrite files sync is still bringing. It holds no
/// edits, only the move: the edits are found again from the files as they
/// are. Untrusted when read, as every record.
public struct LinkQuestionRecord: Equatable, Sendable {
    /// The library's real path, as the file name's hash was taken of.
    public var library: String
    /// Library paths (names from the library's folder) before and after the move.
    public var from: [String]
    public var to: [String]

    public init(library: [UInt8], from: [String], to: [String]) {
        self.library = BytePath.display(library)
        self.from = from
        self.to = to
    }

    /// A question holds two paths: far below this.
    public static let sizeLimit = 64 << 10
    static let partLimit = 4096

    static func prefix(_ realPath: [UInt8]) -> String {
        "question-" + String(LinkUpdateRecord.prefix(realPath).dropFirst("library-".count))
    }

    /// A record written where the next server finds it.
    public struct Written: Sendable {
        let name: [UInt8]
        /// Removes it: the question was answered, or needs no answer.
        public func remove() { LinkUpdateRecord.Written(name: name).remove() }
    }

    /// Writes the record whole and durably (a hidden temporary, fsynced,
    /// renamed no-replace, the folder fsynced). Nil when it could not be.
    public func write(for realPath: [UInt8]) -> Written? {
        guard let dir = LinkUpdateRecord.folder(create: true) else { return nil }
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
        return Written(name: name)
    }

    public func encoded() -> [UInt8] {
        let value: JSONValue = [
            "carrelLinkQuestion": .int(1), "library": .string(library),
            "from": .array(from.map { .string($0) }), "to": .array(to.map { .string($0) }),
        ]
        return value.encoded(pretty: false)
    }

    // MARK: Reading

    /// A record of the library found in the state folder.
    public struct Found: Sendable {
        /// Its path, for what the writer is told.
        public let path: String
        public let record: Result<LinkQuestionRecord, LinkRecordFlaw>
        public let written: Written
    }

    /// The questions a stopped Carrel left for the library at `realPath`,
    /// oldest first. One whose writer is still running (another Carrel on
    /// this device, or this one) is its own to ask; a hidden temporary
    /// whose writer is gone is removed.
    public static func left(for realPath: [UInt8]) -> [Found] {
        guard let dir = LinkUpdateRecord.folder(create: false), let entries = try? dir.list() else { return [] }
        let prefix = Array(prefix(realPath).utf8)
        var found: [Found] = []
        for (name, _) in entries.sorted(by: { $0.name.lexicographicallyPrecedes($1.name) }) {
            if name.first == UInt8(ascii: "."), name.dropFirst().starts(with: prefix) {
                if !writerIsAlive(name.dropFirst(1 + prefix.count)) {
                    _ = BytePath.withCString(name) { unlinkat(dir.fd, $0, 0) }
                }
                continue
            }
            guard name.starts(with: prefix), !writerIsAlive(name.dropFirst(prefix.count)) else { continue }
            let display = BytePath.display(BytePath.join(dir.path, name))
            found.append(
                Found(path: display, record: read(name, in: dir, realPath: realPath), written: Written(name: name)))
        }
        return found
    }

    /// Unlike an update, a question may be pending in this very process
    /// (a library removed and added again while it waits): its own are its.
    static func writerIsAlive(_ rest: ArraySlice<UInt8>) -> Bool {
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if digits.count <= 9, let pid = Int32(String(decoding: digits, as: UTF8.self)), pid == getpid() {
            return true
        }
        return LinkUpdateRecord.writerIsRunning(rest)
    }

    static func read(_ name: [UInt8], in dir: Directory, realPath: [UInt8]) -> Result<
        LinkQuestionRecord, LinkRecordFlaw
    > {
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

    public static func decode(_ bytes: [UInt8]) throws(LinkRecordFlaw) -> LinkQuestionRecord {
        guard let value = try? JSONParser.parse(bytes) else { throw .malformed(detail: "not JSON") }
        guard value["carrelLinkQuestion"]?.intValue == 1 else { throw .malformed(detail: "carrelLinkQuestion") }
        guard let library = value["library"]?.stringValue else { throw .malformed(detail: "library") }
        let from = try path(value["from"], "from")
        let to = try path(value["to"], "to")
        var record = LinkQuestionRecord(library: [], from: from, to: to)
        record.library = library
        return record
    }

    private static func path(_ value: JSONValue?, _ field: String) throws(LinkRecordFlaw) -> [String] {
        guard let parts = value?.arrayValue, !parts.isEmpty, parts.count <= partLimit else {
            throw .malformed(detail: field)
        }
        var path: [String] = []
        for part in parts {
            guard let name = part.stringValue else { throw .malformed(detail: field) }
            let bytes = Array(name.utf8)
            guard !bytes.isEmpty, bytes.count <= LinkUpdateRecord.nameLimit, name != ".", name != "..",
                !bytes.contains(UInt8(ascii: "/")), !bytes.contains(0)
            else { throw .pathOutsideLibrary }
            path.append(name)
        }
        return path
    }
}
