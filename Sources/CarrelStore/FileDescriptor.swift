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
