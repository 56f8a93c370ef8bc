import CCarrelSys
import Glibc

/// A plain file's stamp with its ctime: a write moves the ctime even when
/// it keeps the size and puts the mtime back, so a text kept under this is
/// still the file's while it holds (`Workspace+LinkTexts.swift`).
public struct FileStatus: Hashable, Sendable {
    public var stamp: FileStamp
    public var changedNs: Int64

    public init(stamp: FileStamp, changedNs: Int64) {
        self.stamp = stamp
        self.changedNs = changedNs
    }
}

extension Directory {
    /// The status of `name` when it is a plain file, without following a link.
    public func fileStatus(_ name: [UInt8]) -> FileStatus? {
        guard let st = stat(name), st.type == 1 else { return nil }
        return FileStatus(stamp: FileStamp(st), changedNs: st.status_change_ns)
    }
}
