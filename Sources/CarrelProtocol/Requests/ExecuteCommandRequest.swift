import CarrelJSON

/// `workspace/executeCommand`: every mutation. `arguments` holds one object,
/// or one string holding a JSON object, as YouCompleteMe sends every argument.
public enum ExecuteCommandRequest {
    public static let method = "workspace/executeCommand"

    public struct Params {
        public var command: String
        /// The first argument object; `[]` reads as `{}`, a string is parsed.
        public var argument: JSONValue
        /// The client's own progress token (LSP `workDoneToken`), a string or
        /// an integer; any other value is ignored.
        public var workDoneToken: JSONValue?

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            command = try f.string("command")
            switch json["workDoneToken"] {
            case .string?, .int?: workDoneToken = json["workDoneToken"]
            default: workDoneToken = nil
            }
            let args = try f.optionalArray("arguments") ?? []
            argument = args.first ?? .object([:])
            if case .string(let text) = argument,
                case .object(let fields)? = try? JSONParser.parse(Array(text.utf8), refusingInvalidUTF8: true)
            {
                argument = .object(fields)
            }
            if case .object = argument {
            } else if argument.isNull {
                argument = .object([:])
            } else {
                throw ParamError("arguments[0]", .wrongType(expected: "an object", found: argument.typeName))
            }
        }
    }
}
