import CarrelJSON

/// `textDocument/didChange`: the buffer's new text. The server asks for
/// full sync (`textDocumentSync.change` 1), so the last change holds it all.
public enum DidChangeTextDocumentNotification {
    public static let method = "textDocument/didChange"

    public struct Params: Equatable {
        public var uri: String
        public var version: Int
        /// The whole new text; nil when the changes held none.
        public var text: String?

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            let doc = try f.textDocument()
            uri = try doc.string("uri")
            version = try doc.optionalNonNegativeInt("version") ?? 0
            let changes = try f.optionalArray("contentChanges") ?? []
            // A change with a range is an incremental edit the server never
            // asked for; only a whole text replaces what it holds.
            text = changes.last(where: { $0["range"] == nil })?["text"]?.stringValue
        }
    }
}
