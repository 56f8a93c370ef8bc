import CarrelProtocol
import Foundation
import Glibc

/// A real temporary directory, described as one literal:
///
///     let dir = try Fixture("""
///       My Poems/.carrel/project.json = {"type":"poetry"}
///       My Poems/Draft/Spring.md = The first line
///       Notes/
///       """)
///
/// A line ending in "/" is a folder; "path = text" is a file with that text;
/// a bare path is an empty file. `link -> target` makes a symlink.
public final class Fixture {
    public let path: String

    public init(_ tree: String = "") throws {
        var template = Array("/tmp/carrel-test-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw NSError(domain: "Fixture", code: Int(errno))
        }
        path = String(cString: made)
        try add(tree)
    }

    public func add(_ tree: String) throws {
        for raw in tree.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if let arrow = line.range(of: " -> ") {
                let link = url(String(line[..<arrow.lowerBound]))
                try mkdirs(link.deletingLastPathComponent())
                try FileManager.default.createSymbolicLink(
                    atPath: link.path, withDestinationPath: String(line[arrow.upperBound...]))
            } else if line.hasSuffix("/") {
                try mkdirs(url(String(line.dropLast())))
            } else {
                let parts = line.components(separatedBy: " = ")
                let file = url(parts[0])
                try mkdirs(file.deletingLastPathComponent())
                try Data((parts.count > 1 ? parts.dropFirst().joined(separator: " = ") : "").utf8).write(to: file)
            }
        }
    }

    private func mkdirs(_ u: URL) throws {
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
    }

    public func url(_ relative: String) -> URL { URL(fileURLWithPath: path).appendingPathComponent(relative) }
    public func bytes(_ relative: String = "") -> [UInt8] {
        Array((relative.isEmpty ? path : path + "/" + relative).utf8)
    }
    public func uri(_ relative: String = "") -> String { FileURI.uri(bytes(relative)) }

    /// The root with every link resolved: what Carrel names a library's
    /// records in the state folder after.
    public var realPath: [UInt8] {
        guard let r = realpath(path, nil) else { return bytes() }
        defer { free(r) }
        return Array(UnsafeRawBufferPointer(start: r, count: strlen(r)))
    }

    public func exists(_ relative: String) -> Bool {
        var st = stat()
        return lstat(path + "/" + relative, &st) == 0
    }

    public func read(_ relative: String) -> String? {
        try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }

    /// Every path below the root, sorted, folders with a trailing "/", hidden ones included.
    public func listing(_ relative: String = "", includeHidden: Bool = false) -> [String] {
        var out: [String] = []
        let base = relative.isEmpty ? path : path + "/" + relative
        guard let e = FileManager.default.enumerator(atPath: base) else { return [] }
        while let p = e.nextObject() as? String {
            if !includeHidden && p.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base + "/" + p, isDirectory: &isDir)
            out.append(isDir.boolValue ? p + "/" : p)
        }
        return out.sorted()
    }

    deinit {
        _ = try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs a shell command (an "other program" changing the library).
    @discardableResult
    public static func sh(_ command: String) -> Int32 { run(command, in: nil) }

    /// Runs a shell command in the folder at `relative`, as another program
    /// working in the library would (a shell's `mv`).
    @discardableResult
    public func sh(_ command: String, in relative: String) -> Int32 { Self.run(command, in: url(relative)) }

    private static func run(_ command: String, in folder: URL?) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.currentDirectoryURL = folder
        try? p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
