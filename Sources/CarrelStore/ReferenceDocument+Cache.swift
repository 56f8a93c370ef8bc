import Foundation

/// The reference documents already built, by format and running header: a
/// writer compiles the same manuscript again and again, and its reference
/// only changes with its title or author.
extension ReferenceDocument {
    /// `manuscript(header:)`, built once per header.
    public static func cachedManuscript(header: String?) -> [UInt8] {
        built.document(.docx, header) { manuscript(header: header) }
    }

    /// `manuscriptODT(header:)`, built once per header.
    public static func cachedManuscriptODT(header: String?) -> [UInt8] {
        built.document(.odt, header) { manuscriptODT(header: header) }
    }

    static let built = Built()

    /// A few documents at most: one library rarely has more than a handful
    /// of manuscripts, and a header past them is rebuilt, never wrong.
    final class Built: @unchecked Sendable {
        enum Kind: Hashable { case docx, odt }
        struct Key: Hashable {
            var kind: Kind
            var header: String?
        }
        static let capacity = 16
        private let lock = NSLock()
        private var documents: [Key: [UInt8]] = [:]
        private(set) var builds = 0

        func document(_ kind: Kind, _ header: String?, _ build: () -> [UInt8]) -> [UInt8] {
            let key = Key(kind: kind, header: header)
            lock.lock()
            defer { lock.unlock() }
            if let found = documents[key] { return found }
            let made = build()
            if documents.count >= Self.capacity { documents.removeAll() }
            documents[key] = made
            builds += 1
            return made
        }
    }
}
