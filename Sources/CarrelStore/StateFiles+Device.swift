import Foundation
import Glibc

extension StateFiles {
    /// This device's id: eight hex digits drawn once and kept in the state
    /// folder (`device-id`), never in a library, so each machine that
    /// shares a library names its snapshots apart. Without a state folder a
    /// process draws one of its own, which is as unique, only not stable.
    public static func deviceID() -> String {
        deviceLock.lock()
        defer { deviceLock.unlock() }
        if let known = cachedDeviceID { return known }
        let name: [UInt8] = Array("device-id".utf8)
        var id: String? = nil
        if let dir = directory(), makeFolders(dir), let d = try? Directory.open(dir) {
            if let bytes = try? d.readPlainFile(name, limit: 64) { id = valid(bytes) }
            if id == nil {
                let drawn = hex(UInt32.random(in: 0...UInt32.max))
                var text = Array(drawn.utf8)
                text.append(0x0A)
                // O_EXCL: two processes starting at once keep the first one written.
                let fd = BytePath.withCString(name) {
                    openat(d.fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                }
                if fd >= 0 {
                    if FileDescriptor.writeAll(fd, text) == 0 { _ = fsync(fd) }
                    close(fd)
                }
                id = (try? d.readPlainFile(name, limit: 64)).flatMap(valid) ?? drawn
            }
        }
        let result = id ?? hex(UInt32.random(in: 0...UInt32.max))
        cachedDeviceID = result
        return result
    }

    /// Eight lowercase hex digits, the way every snapshot name spells them.
    public static func hex(_ value: UInt32) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }

    private static func valid(_ bytes: [UInt8]) -> String? {
        let trimmed = bytes.prefix { $0 != 0x0A }
        guard trimmed.count == 8,
            trimmed.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return String(decoding: trimmed, as: UTF8.self)
    }

    nonisolated(unsafe) private static var cachedDeviceID: String?
    private static let deviceLock = NSLock()
}
