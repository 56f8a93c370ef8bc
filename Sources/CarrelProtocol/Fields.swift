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
        try required(key, try optionalString(key))
    }

    public func optionalString(_ key: String) throws(ParamError) -> String? {
        try optional(key, expected: "a string") { $0.stringValue }
    }

    public func bool(_ key: String) throws(ParamError) -> Bool {
        try required(key, try optionalBool(key))
    }

    public func optionalBool(_ key: String) throws(ParamError) -> Bool? {
        try optional(key, expected: "a boolean") { $0.boolValue }
    }

    /// A present field's value as `extract` reads it, or a wrong-type error
    /// naming the field and what it should have been.
    private func optional<T>(_ key: String, expected: String, _ extract: (JSONValue) -> T?) throws(ParamError) -> T? {
        guard let v = present(key) else { return nil }
        guard let value = extract(v) else {
            throw ParamError(prefix + key, .wrongType(expected: expected, found: v.typeName))
        }
        return value
    }

    private func required<T>(_ key: String, _ value: T?) throws(ParamError) -> T {
        guard let value else { throw ParamError(prefix + key, .missing) }
        return value
    }

    public func optionalNonNegativeInt(_ key: String) throws(ParamError) -> Int? {
        try optional(key, expected: "a non-negative integer") { v in v.intValue.flatMap { $0 >= 0 ? $0 : nil } }
    }

    public func optionalPositiveNumber(_ key: String) throws(ParamError) -> Double? {
        try optional(key, expected: "a positive number") { v in
            let number: Double?
            switch v {
            case .int(let i): number = Double(i)
            case .double(let d): number = d
            default: number = nil
            }
            return number.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        }
    }

    /// A field that must be there, holding a positive integer up to `max` or
    /// null (read as nil); `.some(nil)` and nil tell null from absent.
    public func positiveIntOrNull(_ key: String, max: Int) throws(ParamError) -> Int?? {
        guard let v = object[key] else { return nil }
        if v.isNull { return .some(nil) }
        guard let n = v.intValue, n > 0, n <= max else {
            let expected = "a positive integer up to \(max), or null"
            throw ParamError(prefix + key, .wrongType(expected: expected, found: v.typeName))
        }
        return .some(n)
    }

    public func optionalArray(_ key: String) throws(ParamError) -> [JSONValue]? {
        try optional(key, expected: "an array") { $0.arrayValue }
    }
}

extension Fields {
    /// The `textDocument` object of a text document method, its errors
    /// naming fields as `textDocument.uri`.
    func textDocument() throws(ParamError) -> Fields {
        try Fields(object["textDocument"] ?? .null, name: "textDocument", prefix: "textDocument.")
    }
}
