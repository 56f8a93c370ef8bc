import Foundation
import Glibc

/// A pseudo-terminal for a child's stdin or stdout, so a test sees what the
/// CLI does on a terminal rather than through a pipe.
public final class PseudoTerminal {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The side the test reads and writes.
    public let master: Int32
    /// The side given to the child as a terminal.
    public let slave: FileHandle

    /// Glibc declares the pseudo-terminal calls only under _XOPEN_SOURCE,
    /// which Swift's Glibc module does not set: they are looked up by name.
    private static func libc<T>(_ name: String, as type: T.Type) throws -> T {
        guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            throw Unavailable(description: "no \(name) here")
        }
        return unsafeBitCast(f, to: type)
    }

    public init() throws {
        typealias IntCall = @convention(c) (Int32) -> Int32
        let openTerminal = try Self.libc("posix_openpt", as: IntCall.self)
        let grantpt = try Self.libc("grantpt", as: IntCall.self)
        let unlockpt = try Self.libc("unlockpt", as: IntCall.self)
        let ptsname = try Self.libc("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        let master = openTerminal(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw Unavailable(description: "no pseudo-terminal here")
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Unavailable(description: "cannot open \(String(cString: name))") }
        self.master = master
        self.slave = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    }

    deinit { close(master) }

    /// Puts `text` in the terminal's input, as if typed.
    public func type(_ text: String) {
        _ = text.withCString { write(master, $0, strlen($0)) }
    }

    /// Everything the child wrote to the terminal until it closed its side.
    public func readAll() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
