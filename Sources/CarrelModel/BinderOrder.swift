/// A folder's binder order: the names of its children in the order the
/// writer chose, as its order file lists them, one name per line.
///
/// The list is a hint, never the truth about what exists: a listed name
/// that is not in the folder is skipped, and a child it does not list comes
/// after every listed one, in name order. So the list merges like text: two
/// lists joined (git's union merge, a sync engine's conflict copy) keep
/// each name's first place and lose nothing.
public struct BinderOrder: Sendable, Equatable {
    public private(set) var names: [EntryName]

    public init(_ names: [EntryName] = []) {
        var seen = Set<EntryName>()
        self.names = names.filter { seen.insert($0).inserted }
    }

    /// Names already known to be distinct (a folder's children).
    init(distinct names: [EntryName]) { self.names = names }

    /// Parses an order file. Blank lines, hidden names (which are never
    /// children in the binder) and the marker lines of a text merge that
    /// stopped on a conflict (`<<<<<<<`, `|||||||`, `=======`, `>>>>>>>`)
    /// are skipped, and a name listed twice keeps its first place: a file
    /// that git or a person merged by hand still reads as both sides.
    public init(parsing bytes: [UInt8]) {
        var names: [EntryName] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var name = line[...]
            if name.last == UInt8(ascii: "\r") { name = name.dropLast() }
            guard !name.isEmpty, !Self.isMergeMarker(name), !name.withUnsafeBytes({ HiddenNames.contains($0) }) else {
                continue
            }
            names.append(EntryName(bytes: name))
        }
        self.init(names)
    }

    static func isMergeMarker(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.count >= 7, let first = line.first else { return false }
        guard [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "|")].contains(first) else {
            return false
        }
        let run = line.prefix(7)
        guard run.allSatisfy({ $0 == first }) else { return false }
        return line.count == 7 || line[line.startIndex + 7] == UInt8(ascii: " ")
    }

    /// The file's bytes: one name per line, each ending in a newline. Names
    /// holding a newline cannot be listed; they keep their place in name order.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(names.count * 16)
        for name in names {
            let start = out.count
            var newline = false
            if name.isValidUTF8 {
                var s = name.string
                s.withUTF8 { utf8 in
                    newline = utf8.contains(UInt8(ascii: "\n"))
                    out.append(contentsOf: utf8)
                }
            } else {
                let raw = name.bytes
                newline = raw.contains(UInt8(ascii: "\n"))
                out.append(contentsOf: raw)
            }
            if newline { out.removeSubrange(start...); continue }
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// This order followed by the names of `other` it lacks: how a conflict
    /// copy is folded in. Every machine merging the same two lists gets the
    /// same result.
    public func merged(with other: BinderOrder) -> BinderOrder { BinderOrder(names + other.names) }

    /// `entries` in binder order: listed names first, in their listed
    /// order, then the rest in name order (folders first, as in name order).
    public func arrange(_ entries: [Entry]) -> [Entry] {
        var place: [EntryName: Int] = [:]
        place.reserveCapacity(names.count)
        for (i, n) in names.enumerated() { place[n] = i }
        var listed: [(Int, Entry)] = []
        var rest: [Entry] = []
        for e in entries {
            if let i = place[e.name] { listed.append((i, e)) } else { rest.append(e) }
        }
        listed.sort { $0.0 < $1.0 }
        return listed.map(\.1) + Ordering.sorted(rest, .byName)
    }

    /// The children `shown` now, with `item` moved to just before (or after)
    /// `anchor`, and that order. Only names that exist are kept, so the file
    /// never grows with names long gone.
    public static func moving(
        _ item: Entry, _ anchor: Entry, after: Bool, shown: [Entry]
    ) -> (order: BinderOrder, entries: [Entry]) {
        var entries = shown.filter { $0 !== item }
        let at = entries.firstIndex { $0 === anchor }.map { after ? $0 + 1 : $0 } ?? entries.count
        entries.insert(item, at: at)
        return (BinderOrder(distinct: entries.map(\.name)), entries)
    }

    /// `old` renamed to `new`: `new` takes `old`'s place. `old` stays listed
    /// right after it until the caller drops it, so an order written before
    /// the rename holds whichever of the two names the disk has.
    public func renaming(_ old: EntryName, to new: EntryName, keepingOld: Bool) -> BinderOrder {
        guard let i = names.firstIndex(of: old) else { return self }
        var list = names.filter { $0 != new }
        let at = list.firstIndex(of: old) ?? i
        list.insert(new, at: at)
        if !keepingOld { list.removeAll { $0 == old } }
        return BinderOrder(list)
    }

    /// `name` placed before or after `anchor` (or last when `anchor` is not listed).
    public func inserting(_ name: EntryName, near anchor: EntryName?, after: Bool) -> BinderOrder {
        var list = names.filter { $0 != name }
        let at = anchor.flatMap { list.firstIndex(of: $0) }.map { after ? $0 + 1 : $0 } ?? list.count
        list.insert(name, at: at)
        return BinderOrder(list)
    }

    public func removing(_ name: EntryName) -> BinderOrder { BinderOrder(names.filter { $0 != name }) }

    /// Another program renamed children: each name that vanished from the
    /// folder hands its place to one that appeared in the same burst, in
    /// listed order against name order. Returns nil when nothing pairs.
    public func reconciled(vanished: [EntryName], appeared: [Entry]) -> BinderOrder? {
        var place: [EntryName: Int] = [:]
        for (i, n) in names.enumerated() { place[n] = i }
        let gone = vanished.compactMap { n in place[n].map { (n, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
        let new = Ordering.sorted(appeared.filter { place[$0.name] == nil }, .byName).map(\.name)
        guard !gone.isEmpty, !new.isEmpty else { return nil }
        var list = names
        for (old, fresh) in zip(gone, new) {
            if let i = list.firstIndex(of: old) { list[i] = fresh }
        }
        return BinderOrder(list)
    }

    public func contains(_ name: EntryName) -> Bool { names.contains(name) }
}
