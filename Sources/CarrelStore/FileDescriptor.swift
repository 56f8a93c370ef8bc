import Glibc

enum FileDescriptor {
    /// Writes every byte of `bytes` to `fd`, going on after short writes and
    /// interruptions. 0 when all was written, else the errno that stopped it:
    /// a full disk must fail the write, never leave a short file behind as if whole.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { buf -> Int32 in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                off += n
            }
            return 0
        }
    }
}

extension FileDescriptor {
    /// Everything `fd` holds from where it stands, or nil when reading fails
    /// or it holds more than `limit` bytes (it may have grown since a stat).
    static func readAll(_ fd: Int32, limit: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { return nil }
        }
    }
}
