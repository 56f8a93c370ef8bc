import Foundation
import Glibc

/// Plain system calls over the sandbox, independent of Carrel's own code,
/// and careful with what the generator planted: nothing here follows a link
/// or blocks on a named pipe.
enum Disk {
    struct Node {
        var rel: String
        var name: String
        var mode: mode_t
        var size: Int
        var isDir: Bool { mode & S_IFMT == S_IFDIR }
        var isFile: Bool { mode & S_IFMT == S_IFREG }
        var isLink: Bool { mode & S_IFMT == S_IFLNK }
    }

    /// Every entry below `root`, depth first, never through a link.
    static func walk(_ root: String, includeHidden: Bool = true) -> [Node] {
        var out: [Node] = []
        var stack: [String] = [""]
        while let rel = stack.popLast() {
            guard let d = opendir(rel.isEmpty ? root : root + "/" + rel) else { continue }
            while let ent = readdir(d) {
                let name = withUnsafeBytes(of: ent.pointee.d_name) { raw -> String in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    return String(decoding: bytes[0..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
                }
                if name == "." || name == ".." || (!includeHidden && name.hasPrefix(".")) { continue }
                let childRel = rel.isEmpty ? name : rel + "/" + name
                guard let st = lstat(root + "/" + childRel) else { continue }
                let node = Node(rel: childRel, name: name, mode: st.st_mode, size: Int(st.st_size))
                out.append(node)
                if node.isDir { stack.append(childRel) }
            }
            closedir(d)
        }
        return out.sorted { $0.rel < $1.rel }
    }

    static func lstat(_ path: String) -> stat? {
        var st = stat()
        return Glibc.lstat(path, &st) == 0 ? st : nil
    }

    /// A plain file's bytes, opened without following a link or waiting on a pipe.
    static func read(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, Int(st.st_size) <= limit else { return nil }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    @discardableResult
    static func write(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                off += n
            }
            return true
        }
    }

    @discardableResult
    static func write(_ path: String, _ text: String) -> Bool { write(path, Array(text.utf8)) }

    /// A new file, never over one that is there.
    static func create(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        close(fd)
        return write(path, text)
    }

    /// Makes `path` and its missing parents.
    static func makeFolders(_ path: String) {
        var at = ""
        for c in path.split(separator: "/") {
            at += "/" + c
            mkdir(at, 0o755)
        }
    }

    static func exists(_ path: String) -> Bool { lstat(path) != nil }

    /// What a file is, for "left alone": inode, type, size and change time.
    static func identity(_ path: String) -> String? {
        guard let st = lstat(path) else { return nil }
        return "\(st.st_ino):\(st.st_mode):\(st.st_size):\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
    }

    /// An FNV-1a hash of each entry's name, type, size, link target and
    /// bytes below `root`: what "nothing changed" is checked against.
    static func fingerprint(_ root: String) -> [String: UInt64] {
        var out: [String: UInt64] = [:]
        for n in walk(root) {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            func mix(_ bytes: some Sequence<UInt8>) {
                for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
                h = (h ^ 0xff) &* 0x100_0000_01b3
            }
            mix("\(n.mode)|\(n.size)".utf8)
            if n.isFile, let bytes = read(root + "/" + n.rel) { mix(bytes) }
            if n.isLink {
                var buf = [CChar](repeating: 0, count: 4096)
                let len = readlink(root + "/" + n.rel, &buf, buf.count)
                if len > 0 { mix(buf[0..<len].map { UInt8(bitPattern: $0) }) }
            }
            out[n.rel] = h
        }
        return out
    }
}
