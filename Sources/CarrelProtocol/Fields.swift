import CarrelJSON

/// A field that is missing or of the wrong type. Becomes -32602 with a
/// message naming the field.
public struct ParamError: Error, Sendable, Equatable {
    public enum Problem: Sendable, Equatable {
        case missing
        case wrongType(expected: String, found: String)
        case invalidValue(String)
    }
    public let field: String
    public let problem: Problem

    public init(_ field: String, _ problem: Problem) {
        self.field = field
        self.problem = problem
    }
}

/// Reads typed fields out of a params object, naming the field on failure.
public struct Fields {
    public let object: [String: JSONValue]
    let prefix: String

    /// `params` must be an object (or null/absent, read as empty).
    public init(_ params: JSONValue, name: String = "params", prefix: String = "") throws(ParamError) {
        switch params {
        case .object(let o): object = o
        case .null: object = [:]
        default: throw ParamError(name, .wrongType(expected: "an object", found: params.typeName))
        }
        self.prefix = prefix
    }

    func present(_ key: String) -> JSONValue? {
        guard let v = object[key], !v.isNull else { return nil }
        return v
    }

    public func string(_ key: String) throws(ParamError) -> String {
        guard let s = try optionalString(key) else { throw ParamError(prefix + key, .missing) }
        return s
    }

    public func optionalString(_ key: String) throws(ParamError) -> String? {
        guard let v = present(key) else { return nil }
        guard let s = v.stringValue else {
            throw ParamError(prefix + key, .wrongType(expected: "a string", found: v.typeName))
        }
        return s
    }

    public func bool(_ key: String) throws(ParamError) -> Bool {
        guard let b = try optionalBool(key) else { throw ParamError(prefix + key, .missing) }
        return b
    }

    public func optionalBool(_ key: String) throws(ParamError) -> Bool? {
        guard let v = present(key) else { return nil }
        guard let b = v.boolValue else {
            throw ParamError(prefix + key, .wrongType(expected: "a boolean", found: v.typeName))
        }
        return b
    }

    public func optionalNonNegativeInt(_ key: String) throws(ParamError) -> Int? {
        guard let v = present(key) else { return nil }
        guard let i = v.intValue, i >= 0 else {
            throw ParamError(prefix + key, .wrongType(expected: "a non-negative integer", found: v.typeName))
        }
        return i
    }

    public func optionalPositiveNumber(_ key: String) throws(ParamError) -> Double? {
        guard let v = present(key) else { return nil }
        let number: Double?
        switch v {
        case .int(let i): number = Double(i)
        case .double(let d): number = d
        default: number = nil
        }
        guard let number, number > 0, number.isFinite else {
            throw ParamError(prefix + key, .wrongType(expected: "a positive number", found: v.typeName))
        }
        return number
    }

    public func optionalArray(_ key: String) throws(ParamError) -> [JSONValue]? {
        guard let v = present(key) else { return nil }
        guard let a = v.arrayValue else {
            throw ParamError(prefix + key, .wrongType(expected: "an array", found: v.typeName))
        }
        return a
    }
}
