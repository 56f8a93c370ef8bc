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

    /// A row a change added or moved, and where it now stands: in the
    /// listing of the row `parent`, just after the row `after` (first when
    /// nil). Identities are percent-encoded ASCII, as a Node's `id` or `uri`.
    public struct Placed {
        public var parent: [UInt8]
        public var after: [UInt8]?
        public var node: Node

        public init(parent: [UInt8], after: [UInt8]?, node: Node) {
            self.parent = parent
            self.after = after
            self.node = node
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = [
                "parent": .string(String(decoding: parent, as: UTF8.self)), "node": node.json,
            ]
            if let after { o["after"] = .string(String(decoding: after, as: UTF8.self)) }
            return .object(o)
        }
    }

    /// `updated`: every row the changes altered in place (counts, dates,
    /// settings), without children; rows added or removed are in `changes`.
    /// `placed`, when given, says where each row added or moved goes, so a
    /// client patches its listings; nil leaves the field out (too many rows,
    /// or none could be placed), and clients fetch the listings instead.
    public static func params(_ changes: [Change], updated: [Node] = [], placed: [Placed]? = nil) -> JSONValue {
        var o: [String: JSONValue] = ["changes": .array(changes.map(\.json)), "updated": .array(updated.map(\.json))]
        if let placed { o["placed"] = .array(placed.map(\.json)) }
        return .object(o)
    }
}
