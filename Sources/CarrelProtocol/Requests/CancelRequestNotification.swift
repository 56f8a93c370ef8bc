import CarrelJSON

/// `$/cancelRequest`: answers a pending request with -32800. The server
/// sends it too, when it gives up waiting for the answer to its question.
public enum CancelRequestNotification {
    public static let method = "$/cancelRequest"

    public struct Params {
        public var id: RequestID?
        public init(json: JSONValue) {
            id = json["id"].flatMap(RequestID.init)
        }
    }

    public static func params(_ id: RequestID) -> JSONValue { ["id": id.json] }
}
