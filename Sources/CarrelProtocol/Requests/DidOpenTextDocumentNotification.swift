import CarrelJSON

/// `textDocument/didOpen`: an editor opened a file. Its text is counted
/// (the row shows an unsaved buffer's words as such) and outlined; it is
/// never written anywhere.
public enum DidOpenTextDocumentNotification {
    public static let method = "textDocument/didOpen"

    public struct Params: Equatable {
        public var uri: String
        public var version: Int
        public var text: String

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            let doc = try f.textDocument()
            uri = try doc.string("uri")
            version = try doc.optionalNonNegativeInt("version") ?? 0
            text = try doc.string("text")
        }
    }
}
