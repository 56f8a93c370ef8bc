import CarrelJSON

/// `carrel/submissions`: the submissions of every project, or of the one
/// `uri` is in (a piece's history for a file, a market's for a market
/// folder), pending first, then newest first.
public enum SubmissionsRequest {
    public static let method = "carrel/submissions"

    public struct Params: Equatable {
        public var uri: String?
        public var pendingOnly: Bool

        public init(uri: String? = nil, pendingOnly: Bool = false) {
            self.uri = uri
            self.pendingOnly = pendingOnly
        }

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            uri = try f.optionalString("uri")
            pendingOnly = try f.optionalBool("pendingOnly") ?? false
        }
    }
}
