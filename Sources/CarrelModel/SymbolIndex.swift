/// Every name below a root, folded and packed into one buffer, for fuzzy
/// search without walking the tree. Rebuilt only when the root's
/// `generation` says something changed.
public final class SymbolIndex {
    private var blob: [UInt8] = []
    private var ends: [Int32] = []
    private var entries: [Entry] = []
    private var builtGeneration = -1
    private weak var builtFor: Entry?

    public init() {}

    /// How many entries the index holds (none until first refreshed).
    public var count: Int { entries.count }

    /// Makes the index current for `root` (cheap when nothing changed).
    public func refresh(_ root: Entry) {
        guard builtFor !== root || builtGeneration != root.generation else { return }
        blob.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        root.walk { e in
            if e !== root {
                e.appendFolded(to: &blob)
                ends.append(Int32(blob.count))
                entries.append(e)
            }
            return e.kind == .directory
        }
        builtFor = root
        builtGeneration = root.generation
    }

    /// Calls `found` with each matching entry and its score.
    public func search(_ query: [UInt8], _ found: (Entry, Int) -> Void) {
        search(query, wanted: { _ in true }, found)
    }

    /// Calls `found` with each matching entry whose score is `wanted`. A
    /// one-letter query matches nearly every name; asking first keeps the
    /// loop from touching the entries it will not keep (retaining an entry
    /// took a third of a search).
    public func search(_ query: [UInt8], wanted: (Int) -> Bool, _ found: (Entry, Int) -> Void) {
        blob.withUnsafeBufferPointer { all in
            ends.withUnsafeBufferPointer { ends in
                query.withUnsafeBufferPointer { q in
                    var start = 0
                    for i in 0..<ends.count {
                        let end = Int(ends[i])
                        if let s = FuzzyMatch.score(q, UnsafeBufferPointer(rebasing: all[start..<end])), wanted(s) {
                            found(entries[i], s)
                        }
                        start = end
                    }
                }
            }
        }
    }
}
