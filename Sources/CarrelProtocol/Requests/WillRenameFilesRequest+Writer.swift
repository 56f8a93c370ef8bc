import CarrelJSON

extension WillRenameFilesRequest {
    /// One text edit of a `WorkspaceEdit`, in LSP's zero-based lines and UTF-16 columns.
    public struct TextEdit: Equatable, Sendable {
        public var startLine: Int
        public var startCharacter: Int
        public var endLine: Int
        public var endCharacter: Int
        public var newText: String

        public init(startLine: Int, startCharacter: Int, endLine: Int, endCharacter: Int, newText: String) {
            self.startLine = startLine
            self.startCharacter = startCharacter
            self.endLine = endLine
            self.endCharacter = endCharacter
            self.newText = newText
        }
    }

    /// Writes the `WorkspaceEdit` of `changes` as `edit(_:)` gives it, byte
    /// for byte (keys sorted, a URI given twice keeping its last edits),
    /// without building a `JSONValue` of each edit's four objects first: a
    /// rename's answer holds one for each link to the moved files.
    public static func write(_ changes: [(uri: String, edits: [TextEdit])], to w: inout JSONWriter) {
        var last: [String: Int] = [:]
        for (i, c) in changes.enumerated() { last[c.uri] = i }
        w.beginObject()
        w.key(literal: "changes")
        w.beginObject()
        for (uri, i) in last.sorted(by: { $0.key < $1.key }) {
            w.key(uri)
            w.beginArray()
            for e in changes[i].edits {
                w.beginObject()
                w.key(literal: "newText")
                w.string(e.newText)
                w.key(literal: "range")
                w.beginObject()
                position(e.endLine, e.endCharacter, named: "end", to: &w)
                position(e.startLine, e.startCharacter, named: "start", to: &w)
                w.endObject()
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        w.endObject()
    }

    private static func position(_ line: Int, _ character: Int, named name: StaticString, to w: inout JSONWriter) {
        w.key(literal: name)
        w.beginObject()
        w.key(literal: "character")
        w.int(character)
        w.key(literal: "line")
        w.int(line)
        w.endObject()
    }
}
