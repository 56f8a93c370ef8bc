import CCarrelSys

/// What `carrel_stat_t.type` and a listing's type say an entry is
/// (`CCarrelSys.h`): named here so no comparison spells a bare number.
public enum DiskType {
    public static let other: Int32 = 0
    public static let file: Int32 = 1
    public static let directory: Int32 = 2
    public static let symlink: Int32 = 3
}

extension carrel_stat_t {
    public var isFile: Bool { type == DiskType.file }
    public var isDirectory: Bool { type == DiskType.directory }
    public var isSymlink: Bool { type == DiskType.symlink }
}
