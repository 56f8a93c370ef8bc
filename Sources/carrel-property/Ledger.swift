/// The writer's files the generator made, by their unique contents, and
/// where each was last seen: a file may move, be renamed, go to a Trash
/// and come back, but it may vanish only through a step that empties a
/// Trash or deletes inside one, and only if it was in the catalog's Trash.
struct Ledger {
    private(set) var lastSeen: [String: String] = [:]
    private var counter = 0
    let run: UInt64

    init(run: UInt64) { self.run = run }

    /// A new content, unique to this run, to write into a new file.
    mutating func newContent(_ hint: String) -> String {
        counter += 1
        let c = "writer:\(run):\(counter):\(hint)\n"
        lastSeen[c] = hint
        return c
    }

    static func isWriterContent(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("writer:".utf8)) }

    func number(_ content: String) -> String {
        content.split(separator: ":").dropFirst(2).first.map(String.init) ?? "?"
    }

    /// The contents last seen at or below `rel`.
    func contents(under rel: String) -> [String] {
        lastSeen.filter { $0.value == rel || $0.value.hasPrefix(rel + "/") }.map(\.key)
    }

    mutating func seen(_ content: String, at place: String) { lastSeen[content] = place }
    mutating func forget(_ content: String) { lastSeen[content] = nil }
    func knows(_ content: String) -> Bool { lastSeen[content] != nil }
    var all: [String: String] { lastSeen }
}
