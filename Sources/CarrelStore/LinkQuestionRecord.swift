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
public struct LinkQuestionRecord: Equatable, Sendable, LinkStateRecord {
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

    /// A record written where the next server finds it, removed once the
    /// question is answered or needs no answer.
    public typealias Written = LinkStateFile

    /// Writes the record whole and durably. Nil when it could not be.
    public func write(for realPath: [UInt8]) -> Written? { writeRecord(for: realPath) }

    /// Removes the question named `name`, which an update record of the
    /// library at `realPath` says it answered; nothing when the name is not
    /// one of that library's questions.
    public static func removeAnswered(_ name: String, for realPath: [UInt8]) {
        guard name.hasPrefix(prefix(realPath)), !name.utf8.contains(UInt8(ascii: "/")) else { return }
        LinkStateFolder.remove(Array(name.utf8))
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
        entriesLeft(for: realPath, writerIsAlive: writerIsAlive).map {
            Found(path: $0.path, record: $0.record, written: $0.file)
        }
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

    public static func decode(_ bytes: [UInt8]) throws(LinkRecordFlaw) -> LinkQuestionRecord {
        guard let value = try? JSONParser.parse(bytes) else { throw .malformed(detail: "not JSON") }
        guard value["carrelLinkQuestion"]?.intValue == 1 else { throw .malformed(detail: "carrelLinkQuestion") }
        guard let library = value["library"]?.stringValue else { throw .malformed(detail: "library") }
        let from = try libraryPath(value["from"], field: "from", partLimit: partLimit)
        let to = try libraryPath(value["to"], field: "to", partLimit: partLimit)
        var record = LinkQuestionRecord(library: [], from: from, to: to)
        record.library = library
        return record
    }
}
