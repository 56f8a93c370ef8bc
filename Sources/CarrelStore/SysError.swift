import CarrelModel
import Glibc

/// A failed system call: which call, on what, and errno.
public struct SysError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32
    public let operation: String
    public let path: String
    /// Why Carrel refused before asking the kernel, when it did.
    public var refusal: Refusal?

    /// What Carrel found where it keeps a file or folder of its own.
    public enum Refusal: Sendable, Equatable {
        case wrongKind(found: FoundKind, expected: FoundKind)
        case tooLarge(limit: Int)
        /// A copy of more bytes, or more files, folders and links, than one copy may take.
        case tooLargeToCopy(limit: Int)
        case tooManyToCopy(limit: Int)
    }

    public init(_ operation: String, _ path: String, code: Int32 = errno) {
        self.code = code
        self.operation = operation
        self.path = path
    }

    public init(_ operation: String, _ path: String, refusal: Refusal) {
        self.init(operation, path, code: EINVAL)
        self.refusal = refusal
    }

    public var message: String {
        switch refusal {
        case .wrongKind(let found, let expected)?: return "\(found) where \(expected) belongs"
        case .tooLarge(let limit)?: return "larger than \(limit) bytes"
        case .tooLargeToCopy(let limit)?: return "more than \(limit) bytes to copy"
        case .tooManyToCopy(let limit)?: return "more than \(limit) items to copy"
        case nil: return String(cString: strerror(code))
        }
    }
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
