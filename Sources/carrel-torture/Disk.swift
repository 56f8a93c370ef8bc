import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// Plain-syscall views of the library, independent of Carrel's own code.
enum Disk {
    struct Node {
        var rel: String
        var name: String
        var isDir: Bool
        var isLink: Bool
    }

    /// Every entry below `root` (iteratively), hidden ones only when asked.
    static func walk(_ root: String, includeHidden: Bool) -> [Node] {
        var out: [Node] = []
        var stack: [String] = [""]
        while let rel = stack.popLast() {
            let dirPath = rel.isEmpty ? root : root + "/" + rel
            guard let d = opendir(dirPath) else { continue }
            while let ent = readdir(d) {
                let name = withUnsafeBytes(of: ent.pointee.d_name) { raw -> String in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    let len = bytes.firstIndex(of: 0) ?? bytes.count
                    return String(decoding: bytes[0..<len], as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                if !includeHidden && name.hasPrefix(".") { continue }
                let childRel = rel.isEmpty ? name : rel + "/" + name
                var st = stat()
                guard lstat(root + "/" + childRel, &st) == 0 else { continue }
                let isLink = (st.st_mode & S_IFMT) == S_IFLNK
                let isDir = (st.st_mode & S_IFMT) == S_IFDIR
                out.append(Node(rel: childRel, name: name, isDir: isDir, isLink: isLink))
                if isDir { stack.append(childRel) }
            }
            closedir(d)
        }
        return out
    }

    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    static func write(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 { if errno == EINTR { continue }; return false }
                off += n
            }
            return true
        }
    }

    /// Makes `path` and its missing parents.
    @discardableResult
    static func makeFolders(_ path: String) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    static func uri(_ path: String) -> String { FileURI.uri(Array(path.utf8)) }
}

/// The permanent folders each project type has on disk (Sources/CarrelModel/Catalog.swift),
/// written out again here so the harness checks the server against an independent list.
enum Templates {
    static let writing = [
        "Draft", "Ready", "Set Aside", "Published", "Collections", "Submissions", "Research",
        "Magazines", "Competitions", "Commissions", "Other", "Trash",
    ]
    static let byType: [String: [String]] = [
        "blank": ["Trash"],
        "poetry": writing,
        "shortStory": writing,
        "novel": [
            "Novel", "Chapters", "Scenes", "Characters", "Locations", "Set Aside", "Research", "Competitions",
            "Commissions", "Other", "Trash",
        ],
        "script": [
            "Script", "Acts", "Scenes", "Characters", "Locations", "Set Aside", "Research", "Competitions",
            "Commissions", "Other", "Trash",
        ],
    ]
    static let allNames = Set(byType.values.flatMap { $0 })
}
