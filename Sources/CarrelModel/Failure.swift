/// Why an operation was refused. The raw value is the wire's `data.reason`.
public enum Reason: String, Sendable, CaseIterable {
    case invalidName, nameTaken, permanentFolder, notFound, outsideWorkspace, intoItself
    case notInTrash, cancelled, conflict, unsupportedVersion, io
    /// Binder order: the anchor is not a sibling (another folder, or the item itself).
    case notSibling
    /// Binder order: the item is in the Trash, which is not ordered by hand.
    /// A move: the destination is in a Trash the item cannot go into.
    case inTrash
    /// Word targets: the item is in no project, where targets are kept.
    case notInProject
    /// A daily target: the item is not a project.
    case notAProject
    /// Compiling: an item, a recipe or a program the format needs stands in the way.
    case cannotCompile
    /// Submissions: the folder is not a market (a folder of Magazines, Competitions, Commissions or Other).
    case notAMarket
    /// Not a domain reason: malformed params (JSON-RPC -32602).
    case invalidParams
}

/// A refusal: a reason for programs and a message for people. Whatever
/// throws it has changed nothing on disk.
public struct Failure: Error, Sendable, Equatable {
    public let reason: Reason
    public let message: Message
    public init(_ reason: Reason, _ message: Message) {
        self.reason = reason
        self.message = message
    }
}
