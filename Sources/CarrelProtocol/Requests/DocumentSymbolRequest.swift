import CarrelJSON

/// `textDocument/documentSymbol`: the outline of a Markdown or Fountain file
/// of a library, as nested `DocumentSymbol`s, each section's words in
/// `detail` ("1,243 words"). Files outside every library, and other
/// formats, get `[]`.
public enum DocumentSymbolRequest {
    public static let method = "textDocument/documentSymbol"

    public struct Params: Equatable {
        public var uri: String

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            let doc = try f.textDocument()
            uri = try doc.string("uri")
        }
    }

    /// LSP SymbolKind values the outline uses.
    public enum Kind: Int {
        /// Markdown headings and Fountain acts and sequences.
        case string = 15
        /// Fountain scenes.
        case event = 24
    }

    public struct Symbol: Equatable {
        public var name: String
        public var detail: String
        public var kind: Kind
        /// Zero-based lines and UTF-16 columns: the section, and its heading line.
        public var startLine: Int
        public var endLine: Int
        public var endCharacter: Int
        public var headingLength: Int
        public var children: [Symbol]

        public init(
            name: String, detail: String, kind: Kind, startLine: Int, endLine: Int, endCharacter: Int,
            headingLength: Int, children: [Symbol]
        ) {
            self.name = name
            self.detail = detail
            self.kind = kind
            self.startLine = startLine
            self.endLine = endLine
            self.endCharacter = endCharacter
            self.headingLength = headingLength
            self.children = children
        }

        public func write(to w: inout JSONWriter) {
            w.beginObject()
            w.key(literal: "children")
            w.beginArray()
            for c in children { c.write(to: &w) }
            w.endArray()
            w.key(literal: "detail"); w.string(detail)
            w.key(literal: "kind"); w.int(kind.rawValue)
            // An empty name is refused by VS Code.
            w.key(literal: "name"); w.string(name.isEmpty ? "…" : name)
            w.key(literal: "range")
            Self.range(startLine, 0, endLine, endCharacter, to: &w)
            w.key(literal: "selectionRange")
            Self.range(startLine, 0, startLine, headingLength, to: &w)
            w.endObject()
        }

        static func range(_ l1: Int, _ c1: Int, _ l2: Int, _ c2: Int, to w: inout JSONWriter) {
            w.beginObject()
            w.key(literal: "end"); position(l2, c2, to: &w)
            w.key(literal: "start"); position(l1, c1, to: &w)
            w.endObject()
        }

        static func position(_ line: Int, _ character: Int, to w: inout JSONWriter) {
            w.beginObject()
            w.key(literal: "character"); w.int(character)
            w.key(literal: "line"); w.int(line)
            w.endObject()
        }
    }
}
