import CarrelJSON

/// `textDocument/inlayHint`: after each heading of a Markdown or Fountain
/// file of a library, its section's words ("1,243 words"), within the
/// requested range. Files outside every library get `[]`.
public enum InlayHintRequest {
    public static let method = "textDocument/inlayHint"

    public struct Params: Equatable {
        public var uri: String
        /// The lines asked for, inclusive; every line when the range is absent.
        public var firstLine: Int
        public var lastLine: Int

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            let doc = try f.textDocument()
            uri = try doc.string("uri")
            firstLine = json["range"]?["start"]?["line"]?.intValue ?? 0
            lastLine = json["range"]?["end"]?["line"]?.intValue ?? Int.max
        }
    }

    public struct Hint: Equatable {
        public var line: Int
        public var character: Int
        public var label: String

        public init(line: Int, character: Int, label: String) {
            self.line = line
            self.character = character
            self.label = label
        }

        public var json: JSONValue {
            [
                "label": .string(label),
                "paddingLeft": true,
                "position": ["character": .int(character), "line": .int(line)],
            ]
        }
    }
}
