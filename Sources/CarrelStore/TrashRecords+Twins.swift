import CarrelModel

/// Two machines deleting items of one name both put it at the top of the
/// Trash, each with a record of its own. A sync engine keeps one item under
/// the name and renames the other to a conflict copy; the records, written
/// under different file names, both arrive naming the one name. A record
/// belongs to an item, not to a name, so the copy takes one of them.
///
/// Syncthing keeps the newer version under the name and renames the older.
/// Carrel does not know the items' ages when they were deleted, only when
/// each was deleted, so it takes that as their age: the name keeps the
/// newest deletion (the record `scan` keeps for it), and its copies take
/// the other deletions, newest first, copies in reverse name order (a later
/// conflict first). Every machine sees the same files and matches them the
/// same way. The match is a guess, and the record says so (`deletedAs`).
extension TrashRecords {
    /// Which record each conflict copy at the top of the Trash takes:
    /// copies that have no record of their own, of a name with records of
    /// deletions no other item in `items` (the Trash's top names) keeps.
    public static func twins(_ scan: Scan, items: Set<String>) -> [(copy: String, record: Stored)] {
        var copiesOf: [String: [String]] = [:]
        for item in items where scan.kept[item] == nil && ConflictCopy.mayBeCopy(item) {
            if let original = ConflictCopy.original(of: item) { copiesOf[original, default: []].append(item) }
        }
        guard !copiesOf.isEmpty else { return [] }
        var recordsOf: [String: [Stored]] = [:]
        for stored in Array(scan.kept.values) + scan.superseded where copiesOf[stored.name] != nil {
            recordsOf[stored.name, default: []].append(stored)
        }
        var out: [(copy: String, record: Stored)] = []
        for (original, copies) in copiesOf.sorted(by: { $0.key < $1.key }) {
            var deletions = distinctDeletions(recordsOf[original] ?? [])
            if items.contains(original), !deletions.isEmpty { deletions.removeFirst() }
            for (copy, record) in zip(copies.sorted(by: >), deletions) { out.append((copy, record)) }
        }
        return out
    }

    /// One record per deletion, newest first: a sync engine's copy of a
    /// record file is the same deletion (same origin and time) as the
    /// record, and gives no second item a record.
    static func distinctDeletions(_ records: [Stored]) -> [Stored] {
        var seen = Set<[String]>()
        var out: [Stored] = []
        for stored in records.sorted(by: { newer($0, than: $1) }) {
            let key = [stored.record.originalPath, String(stored.record.deleted)]
            if seen.insert(key).inserted { out.append(stored) }
        }
        return out
    }
}
