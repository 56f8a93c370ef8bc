import CarrelJSON

/// `carrel/didChange`, server → client, after every change on disk.
public enum DidChangeNotification {
    public static let method = "carrel/didChange"

    public struct Change: Equatable {
        public var type: String
        public var uri: String
        public var oldUri: String?
        public var inTrash: Bool

        public init(type: String, uri: String, oldUri: String? = nil, inTrash: Bool = false) {
            self.type = type
            self.uri = uri
            self.oldUri = oldUri
            self.inTrash = inTrash
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = ["type": .string(type), "uri": .string(uri)]
            if let oldUri { o["oldUri"] = .string(oldUri) }
            if inTrash { o["inTrash"] = true }
            return .object(o)
        }
    }

    /// `updated`: every row the changes altered in place (counts, dates,
    /// settings), without children; rows added or removed are in `changes`.
    public static func params(_ changes: [Change], updated: [Node] = []) -> JSONValue {
        ["changes": .array(changes.map(\.json)), "updated": .array(updated.map(\.json))]
    }
}
