import CarrelJSON

/// A JSON-RPC id: LSP allows integers and strings.
public enum RequestID: Hashable, Sendable {
    case int(Int)
    case string(String)

    public var json: JSONValue {
        switch self {
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        }
    }

    init?(_ json: JSONValue) {
        switch json {
        case .int(let i): self = .int(i)
        case .string(let s): self = .string(s)
        default: return nil
        }
    }
}

/// One decoded message from the peer.
public enum Incoming {
    case request(id: RequestID, method: String, params: JSONValue)
    case notification(method: String, params: JSONValue)
    case response(id: RequestID, result: Result<JSONValue, ResponseError>)
}

/// A JSON-RPC error object. `reason` goes into `data.reason`.
public struct ResponseError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    public static let serverNotInitialized = -32002
    public static let requestCancelled = -32800
    public static let requestFailed = -32803

    public var json: JSONValue {
        var o: [String: JSONValue] = ["code": .int(code), "message": .string(message)]
        if let data { o["data"] = data }
        return .object(o)
    }

    init(json: JSONValue) {
        code = json["code"]?.intValue ?? ResponseError.internalError
        message = json["message"]?.stringValue ?? ""
        data = json["data"]
    }
}

/// A body that is not a usable message: the error to answer with, and the id when one is known.
public struct EnvelopeError: Error {
    public let id: RequestID?
    public let error: ResponseError
    init(_ id: RequestID?, _ error: ResponseError) {
        self.id = id
        self.error = error
    }
}

public enum Envelope {
    /// Decodes a body.
    public static func decode(_ body: [UInt8]) -> Result<Incoming, EnvelopeError> {
        let json: JSONValue
        do { json = try JSONParser.parse(body, refusingInvalidUTF8: true) } catch {
            return .failure(
                EnvelopeError(
                    nil, ResponseError(code: ResponseError.parseError, message: "Parse error: \(error.description)")))
        }
        if case .array = json {
            return .failure(
                EnvelopeError(
                    nil,
                    ResponseError(
                        code: ResponseError.invalidRequest,
                        message: "Invalid request: JSON-RPC batches are not supported by LSP")))
        }
        guard case .object(let o) = json else {
            return .failure(
                EnvelopeError(
                    nil,
                    ResponseError(
                        code: ResponseError.invalidRequest,
                        message: "Invalid request: the body must be a JSON object, not \(json.typeName)")))
        }
        let rawID = o["id"]
        let id = rawID.flatMap(RequestID.init)
        if let rawID, id == nil, !rawID.isNull || o["method"] != nil {
            return .failure(
                EnvelopeError(
                    nil,
                    ResponseError(
                        code: ResponseError.invalidRequest,
                        message: "Invalid request: “id” must be an integer or a string, not \(rawID.typeName)")))
        }
        if o["jsonrpc"] != .string("2.0") {
            return .failure(
                EnvelopeError(
                    id,
                    ResponseError(
                        code: ResponseError.invalidRequest, message: "Invalid request: “jsonrpc” must be \"2.0\"")))
        }
        if let method = o["method"] {
            guard let name = method.stringValue else {
                return .failure(
                    EnvelopeError(
                        id,
                        ResponseError(
                            code: ResponseError.invalidRequest,
                            message: "Invalid request: “method” must be a string, not \(method.typeName)")))
            }
            let params = o["params"] ?? .null
            switch params {
            case .object, .array, .null: break
            default:
                return .failure(
                    EnvelopeError(
                        id,
                        ResponseError(
                            code: ResponseError.invalidParams,
                            message: "Invalid params: “params” must be an object or an array, not \(params.typeName)")))
            }
            if let id { return .success(.request(id: id, method: name, params: params)) }
            return .success(.notification(method: name, params: params))
        }
        guard let id else {
            return .failure(
                EnvelopeError(
                    nil,
                    ResponseError(
                        code: ResponseError.invalidRequest,
                        message: "Invalid request: no “method”, and no “id” for a response")))
        }
        if let error = o["error"] { return .success(.response(id: id, result: .failure(ResponseError(json: error)))) }
        return .success(.response(id: id, result: .success(o["result"] ?? .null)))
    }

    public static func response(id: RequestID?, result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "result": result]
    }

    public static func error(id: RequestID?, _ error: ResponseError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    }

    /// `params` is left out when null: JSON-RPC allows it to be omitted,
    /// never to be null, and strict clients refuse `"params":null`.
    public static func notification(_ method: String, _ params: JSONValue = .null) -> JSONValue {
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if !params.isNull { message["params"] = params }
        return .object(message)
    }

    public static func request(id: RequestID, _ method: String, _ params: JSONValue = .null) -> JSONValue {
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "id": id.json, "method": .string(method)]
        if !params.isNull { message["params"] = params }
        return .object(message)
    }
}
