import CarrelJSON
import CarrelModel
import Glibc

/// The link updates a move is about to make to closed files, written and
/// fsynced before the first file changes, removed once the last has: a
/// Carrel stopped in between finds it at the next open and finishes the
/// files that still hold the text the edits were made on.
///
/// Device-local, in the state folder (`links/library-<FNV-1a of the real
/// path>-<pid>-<ms>-<random>.json`), never in the library: it describes
/// files as this device read them (device, inode, mtime), a sync engine
/// already carries every file that was rewritten, and a record that
/// travelled would let another machine replay edits on files sync is
/// still bringing. It is untrusted when read all the same.
public struct LinkUpdateRecord: Equatable, Sendable, LinkStateRecord {
    public struct File: Equatable, Sendable {
        /// Library path (names from the library's folder) where the file is now.
        public var path: [String]
        /// The file as read when the edits were made on it.
        public var before: FileStamp
        public var beforeHash: UInt64
        /// The text the edits make, to recognise a file already rewritten.
        public var afterSize: UInt64
        public var afterHash: UInt64
        public var edits: [TextEdit]

        public init(path: [String], before: FileStamp, text: [UInt8], edits: [TextEdit]) {
            self.path = path
            self.before = before
            beforeHash = LinkUpdateRecord.hash(text)
            let after = LinkRewrite.apply(edits, to: text)
            afterSize = UInt64(after.count)
            afterHash = LinkUpdateRecord.hash(after)
            self.edits = edits.sorted { $0.start < $1.start }
        }

        init(
            path: [String], before: FileStamp, beforeHash: UInt64, afterSize: UInt64, afterHash: UInt64,
            edits: [TextEdit]
        ) {
            self.path = path
            self.before = before
            self.beforeHash = beforeHash
            self.afterSize = afterSize
            self.afterHash = afterHash
            self.edits = edits
        }
    }

    /// A move the edits belong to, made after the record is written (an
    /// undo puts the item back, then its links): the edits are finished
    /// only once the item is at `to` and nothing is at `from`, so a stop
    /// before the move leaves every link as it was.
    public struct Move: Equatable, Sendable {
        public var from: [String]
        public var to: [String]

        public init(from: [String], to: [String]) {
            self.from = from
            self.to = to
        }
    }

    /// The library's real path, as the file name's hash was taken of.
    public var library: String
    public var files: [File]
    public var move: Move?
    /// The file name of the question (`LinkQuestionRecord`) these edits
    /// answer. The question's record goes once this one is durable, and a
    /// stop in between leaves this naming it: the next open drops it as
    /// answered, so an update already made is never asked for again.
    public var answers: String?

    public init(library: [UInt8], files: [File]) {
        self.library = BytePath.display(library)
        self.files = files
    }

    /// Far above what a move of 500 links in 300 files writes.
    public static let sizeLimit = 16 << 20
    static let fileLimit = 1_000_000

    /// FNV-1a 64: a fingerprint of the text, to recognise it again, not a defence.
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    static func prefix(_ realPath: [UInt8]) -> String {
        let hex = String(hash(realPath), radix: 16)
        return "library-" + String(repeating: "0", count: 16 - hex.count) + hex + "-"
    }

    // MARK: Writing

    /// A record written where the next open of its library finds it,
    /// removed once every file it names is done (or was refused).
    public typealias Written = LinkStateFile

    /// Writes the record whole and durably. Nil when it could not be (no
    /// state folder, a full disk): then no file may be changed.
    public func write(for realPath: [UInt8]) -> Written? { writeRecord(for: realPath) }

    /// Names `question` as the one these edits answer.
    public mutating func answer(_ question: LinkStateFile) {
        answers = String(decoding: question.name, as: UTF8.self)
    }

    /// The record's JSON, one line.
    public func encoded() -> [UInt8] {
        let files: [JSONValue] = files.map { f in
            [
                "path": .array(f.path.map { .string($0) }),
                "before": [
                    "device": .string(String(f.before.device)), "inode": .string(String(f.before.inode)),
                    "size": .string(String(f.before.size)), "modifiedNs": .string(String(f.before.modifiedNs)),
                    "hash": .string(String(f.beforeHash, radix: 16)),
                ],
                "after": ["size": .string(String(f.afterSize)), "hash": .string(String(f.afterHash, radix: 16))],
                "edits": .array(
                    f.edits.map { ["start": .int($0.start), "end": .int($0.end), "newText": .string($0.newText)] }),
            ]
        }
        var value: JSONValue = ["carrelLinkUpdate": .int(1), "library": .string(library), "files": .array(files)]
        if let answers {
            value = .object(
                (value.objectValue ?? [:]).merging(["answers": .string(answers)], uniquingKeysWith: { a, _ in a }))
        }
        if let move {
            value = .object(
                (value.objectValue ?? [:]).merging(
                    [
                        "move": [
                            "from": .array(move.from.map { .string($0) }), "to": .array(move.to.map { .string($0) }),
                        ]
                    ], uniquingKeysWith: { a, _ in a }))
        }
        return value.encoded(pretty: false)
    }
}
