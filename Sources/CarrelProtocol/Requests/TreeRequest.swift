import CarrelJSON

/// `carrel/tree`: the binder's nodes. Without `uri`, one root per workspace
/// folder; `depth` counts levels of children (omitted: everything).
public enum TreeRequest {
    public static let method = "carrel/tree"

    public struct Params: Equatable {
        public var uri: String?
        public var depth: Int?

        public init(uri: String? = nil, depth: Int? = nil) {
            self.uri = uri
            self.depth = depth
        }

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            uri = try f.optionalString("uri")
            depth = try f.optionalNonNegativeInt("depth")
        }
    }

    public typealias Result = [Node]
}
