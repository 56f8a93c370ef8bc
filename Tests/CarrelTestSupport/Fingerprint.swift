import Foundation
import Glibc

/// Every path below `root`, hidden ones included, with its type, mode,
/// owner and content (a link's target): two fingerprints are equal when
/// nothing was created, deleted, renamed, rewritten or re-permissioned.
public func fingerprint(_ root: String) -> [String: String] {
    var out: [String: String] = [:]
    var stack = [""]
    while let rel = stack.popLast() {
        guard let d = opendir(rel.isEmpty ? root : root + "/" + rel) else {
            out[rel + "/"] = "unreadable"
            continue
        }
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let child = rel.isEmpty ? name : rel + "/" + name
            let full = root + "/" + child
            var st = stat()
            guard lstat(full, &st) == 0 else { continue }
            let mode = String(st.st_mode, radix: 8) + " \(st.st_uid):\(st.st_gid)"
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                out[child + "/"] = mode
                stack.append(child)
            case S_IFLNK:
                var buf = [CChar](repeating: 0, count: 4096)
                let n = readlink(full, &buf, buf.count - 1)
                let target = buf.prefix(max(0, n)).map { UInt8(bitPattern: $0) }
                out[child] = mode + " -> " + String(decoding: target, as: UTF8.self)
            case S_IFREG:
                let content = FileManager.default.contents(atPath: full).map { contentHash(Array($0)) } ?? "?"
                out[child] = mode + " \(st.st_size) " + content
            default:
                out[child] = mode
            }
        }
        closedir(d)
    }
    return out
}

/// FNV-1a, 64 bits: enough to tell two small files apart.
func contentHash(_ bytes: [UInt8]) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return String(h, radix: 16)
}

/// The launcher that runs the server as `nobody` when the tests run as
/// root (root reads and writes everything, so permissions would test
/// nothing); nil when setpriv is missing.
public func unprivilegedLauncher() -> [String]? {
    if getuid() != 0 { return [] }
    for tool in ["/usr/bin/setpriv", "/bin/setpriv"] where access(tool, X_OK) == 0 {
        return [tool, "--reuid=65534", "--regid=65534", "--clear-groups"]
    }
    return nil
}
