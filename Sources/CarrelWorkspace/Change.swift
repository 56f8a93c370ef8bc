/// A change on disk, for `carrel/didChange`. Paths are raw bytes.
public struct Change: Sendable, Equatable {
    public enum Kind: String, Sendable { case created, deleted, moved, changed }
    public let kind: Kind
    public let path: [UInt8]
    public let oldPath: [UInt8]?
    public let inTrash: Bool

    public init(_ kind: Kind, _ path: [UInt8], from oldPath: [UInt8]? = nil, inTrash: Bool = false) {
        self.kind = kind
        self.path = path
        self.oldPath = oldPath
        self.inTrash = inTrash
    }
}
