import CarrelJSON

/// A document and a zero-based line and UTF-16 column in it: what
/// `textDocument/definition` and `textDocument/references` ask about.
public struct TextDocumentPosition: Equatable {
    public var uri: String
    public var line: Int
    public var character: Int

    public init(json: JSONValue) throws(ParamError) {
        let f = try Fields(json)
        uri = try f.textDocument().string("uri")
        let p = try Fields(f.object["position"] ?? .null, name: "position", prefix: "position.")
        line = try p.optionalNonNegativeInt("line") ?? 0
        character = try p.optionalNonNegativeInt("character") ?? 0
    }

    /// An LSP `Location`: a URI and a range of one line.
    public static func location(uri: String, line: Int, start: Int, end: Int) -> JSONValue {
        ["uri": .string(uri), "range": range(line: line, start: start, end: end)]
    }

    public static func range(line: Int, start: Int, end: Int) -> JSONValue {
        [
            "start": ["line": .int(line), "character": .int(start)],
            "end": ["line": .int(line), "character": .int(end)],
        ]
    }
}
