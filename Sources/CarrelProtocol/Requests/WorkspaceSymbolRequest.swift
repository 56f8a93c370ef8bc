import CarrelJSON

/// `workspace/symbol`: folders, files and projects by fuzzy name.
public enum WorkspaceSymbolRequest {
    public static let method = "workspace/symbol"
    public static let limit = 200

    public struct Params: Equatable {
        public var query: String
        public init(query: String) { self.query = query }
        public init(json: JSONValue) throws(ParamError) {
            query = try Fields(json).optionalString("query") ?? ""
        }
    }

    /// LSP SymbolKind values Carrel uses.
    public enum Kind: Int {
        case file = 1
        case namespace = 3
        case package = 4
    }

    public struct Symbol: Equatable {
        public var name: String
        public var kind: Kind
        public var uri: String
        public var containerName: String

        public init(name: String, kind: Kind, uri: String, containerName: String) {
            self.name = name
            self.kind = kind
            self.uri = uri
            self.containerName = containerName
        }

        /// A full location with a zero range: some clients drop symbols without one.
        public var json: JSONValue {
            let zero: JSONValue = ["line": 0, "character": 0]
            return [
                "name": .string(name),
                "kind": .int(kind.rawValue),
                "location": ["uri": .string(uri), "range": ["start": zero, "end": zero]],
                "containerName": .string(containerName),
            ]
        }
    }
}
