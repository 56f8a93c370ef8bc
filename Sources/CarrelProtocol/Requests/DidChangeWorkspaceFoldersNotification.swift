import CarrelJSON

/// `workspace/didChangeWorkspaceFolders`: libraries added and removed.
public enum DidChangeWorkspaceFoldersNotification {
    public static let method = "workspace/didChangeWorkspaceFolders"

    public struct Params {
        public var added: [String]
        public var removed: [String]

        public init(json: JSONValue) throws(ParamError) {
            let event = try Fields(try Fields(json).object["event"] ?? .null, name: "event", prefix: "event.")
            func uris(_ key: String) throws(ParamError) -> [String] {
                var out: [String] = []
                for (i, f) in (try event.optionalArray(key) ?? []).enumerated() {
                    out.append(try Fields(f, name: "event.\(key)[\(i)]", prefix: "event.\(key)[\(i)].").string("uri"))
                }
                return out
            }
            added = try uris("added")
            removed = try uris("removed")
        }
    }
}
