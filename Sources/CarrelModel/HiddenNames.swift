/// Names the binder never shows or counts: files that editors, sync engines
/// and version control leave beside a writer's own. They come and go while
/// the writer types, and a writer never made them.
///
/// - a leading `.`: Carrel's `.carrel`, `.git`, Vim's `.x.swp`, Emacs's
///   lock `.#x`, Syncthing's `.syncthing.x.tmp`, Dropbox's `.dropbox.cache`;
/// - `#x#`: Emacs auto-save;
/// - a trailing `~`: Emacs and Vim backups (`Été.md~`);
/// - `4913`: the file Vim creates and removes to test a folder is writable;
/// - a leading `~syncthing~`: Syncthing's temporaries where dot files are not hidden;
/// - a leading `~$`: the lock files of word processors (`~$Draft.docx`).
public enum HiddenNames {
    @inline(__always) public static func contains(_ name: UnsafeRawBufferPointer) -> Bool {
        guard let first = name.first, let last = name.last else { return false }
        switch first {
        case UInt8(ascii: "."): return true
        case UInt8(ascii: "#"): if name.count >= 2 && last == UInt8(ascii: "#") { return true }
        case UInt8(ascii: "~"):
            if name.count >= 2 && name[1] == UInt8(ascii: "$") { return true }
            if startsWith(name, syncthingPrefix) { return true }
        case UInt8(ascii: "4"): if name.count == 4 && startsWith(name, vimProbe) { return true }
        default: break
        }
        return last == UInt8(ascii: "~")
    }

    public static func contains(_ name: [UInt8]) -> Bool { name.withUnsafeBytes { contains($0) } }

    public static func contains(_ name: String) -> Bool { contains(Array(name.utf8)) }

    private static let syncthingPrefix = Array("~syncthing~".utf8)
    private static let vimProbe = Array("4913".utf8)

    @inline(__always) private static func startsWith(_ name: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        guard name.count >= prefix.count else { return false }
        for i in 0..<prefix.count where name[i] != prefix[i] { return false }
        return true
    }
}
