import CarrelJSON

/// `window/showMessageRequest`, server → client: the confirmations.
public enum ShowMessageRequest {
    public static let method = "window/showMessageRequest"
    public static let warning = 2

    public static func params(message: String, actions: [String]) -> JSONValue {
        ["type": .int(warning), "message": .string(message), "actions": .array(actions.map { ["title": .string($0)] })]
    }

    /// The chosen title, or nil for null, an error or a malformed answer.
    public static func chosenTitle(_ result: Result<JSONValue, ResponseError>) -> String? {
        guard case .success(let v) = result else { return nil }
        return v["title"]?.stringValue
    }
}
