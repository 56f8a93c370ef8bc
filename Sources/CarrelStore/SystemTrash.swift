import CCarrelSys
import Glibc

/// Deletes outside projects go to the desktop's trash, never away for good:
/// the freedesktop.org Trash spec on Linux, ~/.Trash on macOS. This is the
/// one place Carrel writes outside its workspace folders, and it only ever
/// adds (an info file and the item itself).
public enum SystemTrash {
    /// `$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`.
    public static func homeTrash() -> [UInt8]? {
        if let d = Environment.get("XDG_DATA_HOME"), d.hasPrefix("/") { return Array((d + "/Trash").utf8) }
        guard let home = Environment.get("HOME"), home.hasPrefix("/") else { return nil }
        #if os(macOS)
            return Array((home + "/.Trash").utf8)
        #else
            return Array((home + "/.local/share/Trash").utf8)
        #endif
    }

    /// Moves `name` from `dir` into the trash. Tries the home trash, and on
    /// another disk the volume's `$topdir/.Trash-$uid`, never a copy.
    public static func trash(_ name: [UInt8], in dir: Directory) throws(SysError) {
        let original = BytePath.join(dir.path, name)
        guard let home = homeTrash() else { throw SysError("trash", BytePath.display(original), code: ENOENT) }
        #if os(macOS)
            // The Finder's trash is a plain folder: the item goes in under a free name.
            let trashDir = try Directory.open(home)
            for n in 1...10_000 {
                let candidate: [UInt8] = n == 1 ? name : name + Array(" \(n)".utf8)
                do { try dir.move(name, to: trashDir, as: candidate); return } catch  where error.code == EEXIST {
                    continue
                }
            }
            throw SysError("trash", BytePath.display(original), code: EEXIST)
        #endif
        do {
            try trash(name, in: dir, trashDir: home, infoPath: original)
        } catch  where error.code == EXDEV {
            guard let top = topDirectory(of: dir.path) else { throw error }
            let volumeTrash = BytePath.join(top, Array(".Trash-\(getuid())".utf8))
            let relative = Array(original.dropFirst(top.count == 1 ? 1 : top.count + 1))
            try trash(name, in: dir, trashDir: volumeTrash, infoPath: relative)
        }
    }

    private static func trash(_ name: [UInt8], in dir: Directory, trashDir: [UInt8], infoPath: [UInt8]) throws(SysError)
    {
        try makeDirectories(trashDir)
        let files = try Directory.open(BytePath.join(trashDir, Array("files".utf8)))
        let info = try Directory.open(BytePath.join(trashDir, Array("info".utf8)))
        for n in 1...10_000 {
            let candidate: [UInt8] = n == 1 ? name : name + Array(" \(n)".utf8)
            let infoName = candidate + Array(".trashinfo".utf8)
            let fd = BytePath.withCString(infoName) {
                openat(info.fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            }
            if fd < 0 {
                if errno == EEXIST { continue }
                throw SysError("create", BytePath.display(BytePath.join(info.path, infoName)))
            }
            let text = "[Trash Info]\nPath=\(percentEncode(infoPath))\nDeletionDate=\(localTimestamp())\n"
            _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
            fsync(fd)
            close(fd)
            do {
                try dir.move(name, to: files, as: candidate)
                files.sync()
                dir.sync()
                return
            } catch {
                _ = BytePath.withCString(infoName) { unlinkat(info.fd, $0, 0) }
                if error.code == EEXIST { continue }
                throw error
            }
        }
        throw SysError("trash", BytePath.display(BytePath.join(dir.path, name)), code: EEXIST)
    }

    private static func makeDirectories(_ trashDir: [UInt8]) throws(SysError) {
        var path: [UInt8] = []
        for part in trashDir.split(separator: UInt8(ascii: "/")) {
            path.append(UInt8(ascii: "/"))
            path.append(contentsOf: part)
            let r = BytePath.withCString(path) { mkdir($0, 0o700) }
            if r != 0 && errno != EEXIST { throw SysError("mkdir", BytePath.display(path)) }
        }
        for sub in ["files", "info"] {
            let p = BytePath.join(trashDir, Array(sub.utf8))
            let r = BytePath.withCString(p) { mkdir($0, 0o700) }
            if r != 0 && errno != EEXIST { throw SysError("mkdir", BytePath.display(p)) }
        }
    }

    /// The mount point above `path`: the highest ancestor on the same device.
    static func topDirectory(of path: [UInt8]) -> [UInt8]? {
        guard let st = Scanner.stat(path) else { return nil }
        var current = path
        while let slash = current.lastIndex(of: UInt8(ascii: "/")) {
            let parent: [UInt8] = slash == 0 ? [UInt8(ascii: "/")] : Array(current[..<slash])
            guard let pst = Scanner.stat(parent), pst.device == st.device else { return current }
            if parent == [UInt8(ascii: "/")] { return parent }
            current = parent
        }
        return current
    }

    static func percentEncode(_ path: [UInt8]) -> String {
        var out = ""
        for b in path {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    static func localTimestamp() -> String {
        var t = time(nil)
        var tmv = tm()
        localtime_r(&t, &tmv)
        func two(_ v: Int32) -> String { String(v).leftPadded(2) }
        return
            "\(tmv.tm_year + 1900)-\(two(tmv.tm_mon + 1))-\(two(tmv.tm_mday))T\(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec))"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

public enum Environment {
    public static func get(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        let s = String(cString: v)
        return s.isEmpty ? nil : s
    }
}
