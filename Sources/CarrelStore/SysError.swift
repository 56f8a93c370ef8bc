import Glibc

/// A failed system call: which call, on what, and errno.
public struct SysError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32
    public let operation: String
    public let path: String

    public init(_ operation: String, _ path: String, code: Int32 = errno) {
        self.code = code
        self.operation = operation
        self.path = path
    }

    public var message: String { String(cString: strerror(code)) }
    public var description: String { "\(operation) \(path): \(message)" }
}

/// Paths are raw bytes: names on Linux need not be UTF-8.
public enum BytePath {
    public static func join(_ a: [UInt8], _ name: [UInt8]) -> [UInt8] {
        var out = a
        if out.last != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
        out.append(contentsOf: name)
        return out
    }

    /// The folder and the last name of an absolute path.
    public static func split(_ p: [UInt8]) -> (folder: [UInt8], name: [UInt8]) {
        guard let slash = p.lastIndex(of: UInt8(ascii: "/")) else { return ([], p) }
        return (slash == 0 ? [UInt8(ascii: "/")] : Array(p[..<slash]), Array(p[(slash + 1)...]))
    }

    public static func display(_ p: [UInt8]) -> String { String(decoding: p, as: UTF8.self) }

    /// Runs `body` with a NUL-terminated copy of the path.
    public static func withCString<R>(_ p: [UInt8], _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var z = p
        z.append(0)
        return try z.withUnsafeBufferPointer { buf in
            try buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: z.count) { try body($0) }
        }
    }
}
