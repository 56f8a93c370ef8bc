import CarrelJSON

/// `$/cancelRequest`: answers a pending request with -32800.
public enum CancelRequestNotification {
    public static let method = "$/cancelRequest"

    public struct Params {
        public var id: RequestID?
        public init(json: JSONValue) {
            id = json["id"].flatMap(RequestID.init)
        }
    }
}
