import CarrelJSON

/// `textDocument/documentLink`: each link of a document that leads to an
/// item of the library, its range on the target text and the item's URI.
public enum DocumentLinkRequest {
    public static let method = "textDocument/documentLink"

    public struct Params: Equatable {
        public var uri: String

        public init(json: JSONValue) throws(ParamError) {
            uri = try Fields(json).textDocument().string("uri")
        }
    }
}
