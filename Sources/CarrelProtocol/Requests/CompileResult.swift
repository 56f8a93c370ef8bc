import CarrelJSON

/// What `carrel.compile` answers: where the document went, its counts,
/// and what a client's "Submit this packet…" needs.
public struct CompileResult: Sendable {
    public struct Poem: Sendable {
        public var title: String
        public var lines: Int
        public init(title: String, lines: Int) {
            self.title = title
            self.lines = lines
        }
    }

    public var path: [UInt8]
    public var recipe: String
    public var format: String
    public var words: Int
    /// Each file compiled, by absolute path, in order; sent as URIs.
    public var pieces: [[UInt8]]
    /// The recipe makes something sent to markets: clients offer to submit it.
    public var submission: Bool
    /// A packet's lines and poems; nil for prose.
    public var lines: Int?
    public var poems: [Poem]

    public init(
        path: [UInt8], recipe: String, format: String, words: Int, pieces: [[UInt8]], submission: Bool,
        lines: Int? = nil, poems: [Poem] = []
    ) {
        self.path = path
        self.recipe = recipe
        self.format = format
        self.words = words
        self.pieces = pieces
        self.submission = submission
        self.lines = lines
        self.poems = poems
    }

    public var json: JSONValue {
        var result: [String: JSONValue] = [
            "path": .string(String(decoding: path, as: UTF8.self)),
            "uri": .string(FileURI.uri(path)),
            "recipe": .string(recipe),
            "format": .string(format),
            "words": .int(words),
            "pieces": .int(pieces.count),
            "pieceUris": .array(pieces.map { .string(FileURI.uri($0)) }),
        ]
        if submission { result["submission"] = true }
        if let lines {
            result["lines"] = .int(lines)
            result["poems"] = .array(poems.map { ["title": .string($0.title), "lines": .int($0.lines)] })
        }
        return .object(result)
    }
}
