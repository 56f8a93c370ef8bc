import CarrelJSON
import CarrelModel
import Glibc

/// Reading records back at open. A record is untrusted: it is opened
/// no-follow and non-blocking, must be a plain file within the size limit,
/// and every field is checked before any file is touched.
extension LinkUpdateRecord {
    /// A record of the library found in the state folder.
    public struct Found: Sendable {
        /// Its path, for what the writer is told.
        public let path: String
        public let record: Result<LinkUpdateRecord, LinkRecordFlaw>
        let file: LinkStateFile

        /// Drops a record whose work is finished.
        public func remove() { file.remove() }
    }

    /// The records a stopped Carrel left for the library at `realPath`, in
    /// name order (oldest first). A record whose writer is still running
    /// (another Carrel on this device, mid-update) is left to it; a hidden
    /// temporary whose writer is gone was never a record and is removed.
    public static func left(for realPath: [UInt8]) -> [Found] {
        entriesLeft(for: realPath, writerIsAlive: writerIsRunning).map {
            Found(path: $0.path, record: $0.record, file: $0.file)
        }
    }

    /// The pid at the start of `rest` (`<pid>-…`) is a running process
    /// other than this one. This process is never mid-update when it
    /// opens a library, so its own pid is a former process's, reused.
    static func writerIsRunning(_ rest: ArraySlice<UInt8>) -> Bool {
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count <= 9, let pid = Int32(String(decoding: digits, as: UTF8.self)),
            pid > 0, pid != getpid()
        else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    public static func decode(_ bytes: [UInt8]) throws(LinkRecordFlaw) -> LinkUpdateRecord {
        guard let value = try? JSONParser.parse(bytes) else { throw .malformed(detail: "not JSON") }
        guard value["carrelLinkUpdate"]?.intValue == 1 else { throw .malformed(detail: "carrelLinkUpdate") }
        guard let library = value["library"]?.stringValue else { throw .malformed(detail: "library") }
        guard let items = value["files"]?.arrayValue, items.count <= fileLimit else {
            throw .malformed(detail: "files")
        }
        var files: [File] = []
        for item in items {
            let path = try libraryPath(item["path"], field: "path", partLimit: .max)
            guard let b = item["before"], let device = number(b["device"]), let inode = number(b["inode"]),
                let size = number(b["size"]), let ns = b["modifiedNs"]?.stringValue.flatMap({ Int64($0) }),
                let beforeHash = hex(b["hash"])
            else { throw .malformed(detail: "before") }
            guard let a = item["after"], let afterSize = number(a["size"]), let afterHash = hex(a["hash"]) else {
                throw .malformed(detail: "after")
            }
            guard let list = item["edits"]?.arrayValue, !list.isEmpty else { throw .malformed(detail: "edits") }
            var edits: [TextEdit] = []
            // In order, apart, within the text read: any other list was not made by a move.
            var end = 0
            for e in list {
                guard let s = e["start"]?.intValue, let t = e["end"]?.intValue, let text = e["newText"]?.stringValue,
                    s >= end, t >= s, UInt64(t) <= size
                else { throw .malformed(detail: "edits") }
                edits.append(TextEdit(start: s, end: t, newText: text))
                end = t
            }
            files.append(
                File(
                    path: path, before: FileStamp(device: device, inode: inode, size: size, modifiedNs: ns),
                    beforeHash: beforeHash, afterSize: afterSize, afterHash: afterHash, edits: edits))
        }
        var record = LinkUpdateRecord(library: [], files: files)
        record.library = library
        if let answers = value["answers"] {
            // Only ever a question's file name in the same folder: no path.
            guard let name = answers.stringValue, name.hasPrefix("question-"),
                name.utf8.count <= LinkStateFolder.nameLimit,
                !name.utf8.contains(UInt8(ascii: "/")), !name.utf8.contains(0)
            else { throw .malformed(detail: "answers") }
            record.answers = name
        }
        if let move = value["move"] {
            record.move = Move(
                from: try libraryPath(move["from"], field: "move", partLimit: .max),
                to: try libraryPath(move["to"], field: "move", partLimit: .max))
        }
        return record
    }

    private static func number(_ v: JSONValue?) -> UInt64? { v?.stringValue.flatMap { UInt64($0) } }
    private static func hex(_ v: JSONValue?) -> UInt64? { v?.stringValue.flatMap { UInt64($0, radix: 16) } }
}
