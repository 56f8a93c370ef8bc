import CarrelJSON
import CarrelProtocol

/// A request whose result has a known shape, as sourcekit-lsp's
/// `RequestType` carries its `Response`: the method, the params, and how
/// to read the result, in one place for every client.
public protocol ClientRequest {
    associatedtype Response
    static var method: String { get }
    var params: JSONValue { get }
    /// The typed result, or nil when the result is not of that shape.
    static func decode(_ result: JSONValue) -> Response?
}

/// `initialize` with the given workspace folders (`file:` URIs).
public struct Initialize: ClientRequest {
    public static let method = "initialize"
    public var params: JSONValue

    /// It declares every Carrel extension, as the Carrel plugins do.
    public init(folders: [String], locale: String = "en", name: String = "lib") {
        params = [
            "processId": .null, "locale": .string(locale),
            "capabilities": ["experimental": ["carrel": InitializeRequest.Extensions.all.json]],
            "workspaceFolders": .array(folders.map { ["uri": .string($0), "name": .string(name)] }),
        ]
    }

    /// The server's capabilities.
    public static func decode(_ result: JSONValue) -> JSONValue? { result["capabilities"] }
}

/// `carrel/tree`: the nodes below `uri` (the roots without it), `depth`
/// levels down (all without it).
public struct Tree: ClientRequest {
    public static let method = "carrel/tree"
    public var params: JSONValue

    public init(uri: String? = nil, depth: Int? = nil) {
        var o: [String: JSONValue] = [:]
        if let uri { o["uri"] = .string(uri) }
        if let depth { o["depth"] = .int(depth) }
        params = .object(o)
    }

    public static func decode(_ result: JSONValue) -> [JSONValue]? { result.arrayValue }
}

/// `workspace/executeCommand` of one Carrel command with its argument object.
public struct ExecuteCommand: ClientRequest {
    public static let method = "workspace/executeCommand"
    public var params: JSONValue

    public init(_ command: String, _ argument: JSONValue) {
        params = ["command": .string(command), "arguments": [argument]]
    }

    /// Whatever the command returns (`null` for most).
    public static func decode(_ result: JSONValue) -> JSONValue? { result }
}
