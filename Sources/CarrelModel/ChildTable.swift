/// A folder's children by name: the entries in one array and, in a folder
/// of more than `linearLimit`, a table of their positions by the name's
/// hash (open addressing, at most half full). A dictionary of names to
/// entries cost 32 bytes a bucket at most three quarters full, 6.8 MB at
/// 110,000 entries; this costs 8 bytes a child, and 4 a slot in big
/// folders. The order of `values` is no order a client sees (sorting is
/// `Entry.sortedChildren`'s), as a dictionary's was none.
public struct ChildTable {
    public private(set) var values: [Entry] = []
    /// Positions in `values`, -1 for an empty slot; a power of two long,
    /// or empty while the folder is small enough to be searched in order.
    private var slots: [Int32] = []
    /// Comparing a few names costs less than hashing one.
    static let linearLimit = 16

    public var count: Int { values.count }
    public var isEmpty: Bool { values.isEmpty }
    public var keys: [EntryName] { values.map(\.name) }
    /// The bytes the table holds its children in, for the tests.
    var bytes: Int { values.capacity * MemoryLayout<Entry>.stride + slots.capacity * MemoryLayout<Int32>.stride }

    public subscript(name: EntryName) -> Entry? {
        if slots.isEmpty { return values.first { $0.name == name } }
        return probe(name).index.map { values[$0] }
    }

    /// Adds `child`, whose name no child has.
    mutating func insert(_ child: Entry) {
        values.append(child)
        if slots.isEmpty ? values.count > Self.linearLimit : values.count * 2 > slots.count {
            rebuildSlots()
        } else if !slots.isEmpty {
            slots[probe(child.name).slot] = Int32(values.count - 1)
        }
    }

    /// Removes the child named `name`; the last child takes its place.
    @discardableResult
    mutating func remove(_ name: EntryName) -> Entry? {
        if slots.isEmpty {
            guard let i = values.firstIndex(where: { $0.name == name }) else { return nil }
            let removed = values[i]
            values.swapAt(i, values.count - 1)
            values.removeLast()
            return removed
        }
        let found = probe(name)
        guard let i = found.index else { return nil }
        let removed = values[i]
        clearSlot(found.slot)
        let last = values.count - 1
        if i != last {
            values[i] = values[last]
            slots[probe(values[i].name).slot] = Int32(i)
        }
        values.removeLast()
        if values.count <= Self.linearLimit { slots = [] }
        return removed
    }

    mutating func removeAll() {
        values = []
        slots = []
    }

    private func home(_ name: EntryName) -> Int { name.hashValue & (slots.count - 1) }

    /// The slot holding `name`, or the empty slot where it would go.
    private func probe(_ name: EntryName) -> (slot: Int, index: Int?) {
        let mask = slots.count - 1
        var s = home(name)
        while true {
            let i = Int(slots[s])
            if i < 0 { return (s, nil) }
            if values[i].name == name { return (s, i) }
            s = (s + 1) & mask
        }
    }

    /// Empties `hole`, moving back into it each later entry of its run
    /// that would no longer be found past the gap.
    private mutating func clearSlot(_ hole: Int) {
        let mask = slots.count - 1
        var hole = hole
        var s = (hole + 1) & mask
        while slots[s] >= 0 {
            let fromHome = (s - home(values[Int(slots[s])].name)) & mask
            if fromHome >= (s - hole) & mask {
                slots[hole] = slots[s]
                hole = s
            }
            s = (s + 1) & mask
        }
        slots[hole] = -1
    }

    private mutating func rebuildSlots() {
        var size = 32
        while size < values.count * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        for (i, child) in values.enumerated() { slots[probe(child.name).slot] = Int32(i) }
    }
}
