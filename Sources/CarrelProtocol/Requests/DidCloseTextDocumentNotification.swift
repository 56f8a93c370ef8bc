import CarrelJSON

/// `textDocument/didClose`: the editor let the buffer go; its row shows
/// the file's saved words again.
public enum DidCloseTextDocumentNotification {
    public static let method = "textDocument/didClose"

    public struct Params: Equatable {
        public var uri: String

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            let doc = try f.textDocument()
            uri = try doc.string("uri")
        }
    }
}
