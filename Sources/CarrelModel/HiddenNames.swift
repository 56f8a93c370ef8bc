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
/// - a leading `~$`: the lock files of word processors (`~$Draft.docx`);
/// - a trailing `.orig`: the copy git's merge tool keeps of a file in conflict;
/// - `Icon\r`: macOS's folder icon, which Dropbox and Syncthing carry.
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
        case UInt8(ascii: "I"): if name.count == 5 && last == 0x0D && startsWith(name, macIcon) { return true }
        default: break
        }
        if last == UInt8(ascii: "g") && name.count > 5 && endsWith(name, mergeBackup) { return true }
        return last == UInt8(ascii: "~")
    }

    public static func contains(_ name: [UInt8]) -> Bool { name.withUnsafeBytes { contains($0) } }

    public static func contains(_ name: String) -> Bool { contains(Array(name.utf8)) }

    private static let syncthingPrefix = Array("~syncthing~".utf8)
    private static let vimProbe = Array("4913".utf8)
    private static let mergeBackup = Array(".orig".utf8)
    private static let macIcon = Array("Icon\r".utf8)

    @inline(__always) private static func endsWith(_ name: UnsafeRawBufferPointer, _ suffix: [UInt8]) -> Bool {
        guard name.count >= suffix.count else { return false }
        let start = name.count - suffix.count
        for i in 0..<suffix.count where name[start + i] != suffix[i] { return false }
        return true
    }

    @inline(__always) private static func startsWith(_ name: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        guard name.count >= prefix.count else { return false }
        for i in 0..<prefix.count where name[i] != prefix[i] { return false }
        return true
    }
}
