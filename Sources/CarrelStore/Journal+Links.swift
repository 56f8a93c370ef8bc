import CarrelJSON

/// The links a rename or move rewrote, kept with its step so that undo
/// writes them back and redo makes them again. Each file is named where it
/// is once the step's operation is done, and each edit by where its text
/// stands in that file: undo rewrites a link only while the file still
/// holds, at that place, the text the operation wrote there.
public struct JournalLinkFile: Sendable, Equatable {
    public struct Edit: Sendable, Equatable {
        /// UTF-8 offset of the text in the file.
        public var at: Int
        /// What the operation wrote there.
        public var now: String
        /// What was there before, which undo writes back.
        public var back: String

        public init(at: Int, now: String, back: String) {
            self.at = at
            self.now = now
            self.back = back
        }

        public var end: Int { at + now.utf8.count }
    }

    /// "/"-separated, relative to the library, as a step's paths.
    public var path: String
    /// In order and apart.
    public var edits: [Edit]

    public init(path: String, edits: [Edit]) {
        self.path = path
        self.edits = edits.sorted { $0.at < $1.at }
    }

    /// A file's edits once undone: `back` stands where `now` stood, each
    /// place shifted by what the edits before it added or removed.
    public func reverted(to path: String) -> JournalLinkFile {
        var shift = 0
        var out: [Edit] = []
        for e in edits {
            out.append(Edit(at: e.at + shift, now: e.back, back: e.now))
            shift += e.back.utf8.count - e.now.utf8.count
        }
        return JournalLinkFile(path: path, edits: out)
    }

    /// No offset past what a file Carrel rewrites can hold, so nothing read
    /// back can overflow.
    static let offsetLimit = 1 << 30
    static let fileLimit = 10_000
    /// A link's target is on one line, and short: a forged journal can make
    /// undo write nothing else into a writer's file.
    static let linkTextLimit = 4096

    public static func isLinkText(_ text: String) -> Bool {
        text.utf8.count <= linkTextLimit && !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 })
    }

    var json: JSONValue {
        .object([
            "path": .string(path),
            "edits": .array(
                edits.map { .object(["at": .string(String($0.at)), "now": .string($0.now), "back": .string($0.back)]) }),
        ])
    }

    /// Nil unless exactly this shape: offsets decimal strings within the
    /// limit, edits in order and apart.
    init?(json: JSONValue) {
        guard let path = json["path"]?.stringValue, let list = json["edits"]?.arrayValue, !list.isEmpty else {
            return nil
        }
        var edits: [Edit] = []
        var end = 0
        for item in list {
            guard let text = item["at"]?.stringValue, text.utf8.count <= 10, let at = Int(text), at >= end,
                at <= Self.offsetLimit, let now = item["now"]?.stringValue, let back = item["back"]?.stringValue,
                Self.isLinkText(now), Self.isLinkText(back)
            else { return nil }
            edits.append(Edit(at: at, now: now, back: back))
            end = at + now.utf8.count
        }
        self.path = path
        self.edits = edits
    }

    static func list(_ value: JSONValue?) -> [JournalLinkFile]? {
        guard let value else { return [] }
        guard let items = value.arrayValue, items.count <= fileLimit else { return nil }
        var out: [JournalLinkFile] = []
        for item in items {
            guard let file = JournalLinkFile(json: item) else { return nil }
            out.append(file)
        }
        return out
    }
}
