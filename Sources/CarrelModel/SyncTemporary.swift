/// The temporary name a sync engine gives a file while it puts the file in
/// place. Syncthing writes or renames every file it receives to a
/// temporary in the file's own folder and then renames the temporary to the
/// file's name; a rename made on another machine arrives as the old name
/// renamed to the new name's temporary, then the temporary to the new name
/// (its "rename shortcut": the old file's blocks are the new one's). Seeing
/// the two halves paired through the temporary is how a watcher knows the
/// item moved rather than vanished and appeared.
///
/// Syncthing (`lib/fs/tempname.go`): `.syncthing.NAME.tmp`, or
/// `~syncthing~NAME.tmp` where dot files are not hidden (both are
/// recognised on every system); for a NAME longer than 145 bytes, the
/// lowercase hex SHA-256 of NAME stands in for it. Dropbox and iCloud Drive
/// document no such name for a rename, so none is claimed for them.
public enum SyncTemporary {
    /// Whether `name` is a sync engine's temporary.
    public static func isTemporary(_ name: [UInt8]) -> Bool { core(of: name) != nil }

    /// Whether the temporary `temporary` is the one the engine puts in
    /// place under `name`. A hashed temporary, whose hash is not checked
    /// here, may stand for any name long enough to be hashed.
    public static func isTemporary(_ temporary: [UInt8], of name: [UInt8]) -> Bool {
        guard let core = core(of: temporary), !name.isEmpty else { return false }
        if name.count > longestKept { return core.count == 64 && core.allSatisfy(isLowerHex) }
        return core.elementsEqual(name)
    }

    /// What stands between the prefix and `.tmp`, or nil when `name` is no
    /// temporary.
    private static func core(of name: [UInt8]) -> ArraySlice<UInt8>? {
        guard name.count > unixPrefix.count + suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else {
            return nil
        }
        for prefix in [unixPrefix, windowsPrefix] where name.prefix(prefix.count).elementsEqual(prefix) {
            return name[prefix.count..<(name.count - suffix.count)]
        }
        return nil
    }

    private static let unixPrefix = Array(".syncthing.".utf8)
    private static let windowsPrefix = Array("~syncthing~".utf8)
    private static let suffix = Array(".tmp".utf8)
    /// Syncthing keeps a name in its temporary up to 160 bytes in all, less
    /// its Unix prefix and `.tmp`; a longer one is hashed.
    static let longestKept = 160 - 11 - 4

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
