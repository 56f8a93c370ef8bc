/// What a directory entry is, as seen without following links.
public enum EntryKind: UInt8, Sendable {
    case file, directory, symlink, other
}

/// One node of the in-memory mirror of a library on disk. The model is kept
/// current incrementally (commands and the watcher), so requests never rescan.
///
/// The library root's `name` is its absolute path, so `path` is the names of
/// the ancestors joined by "/".
public final class Entry {
    public private(set) var name: EntryName
    public private(set) weak var parent: Entry?
    public var kind: EntryKind
    /// A symlink whose target is a directory (shown as a folder, never entered).
    public var linksToDirectory = false
    /// A directory Carrel could not read (permissions): shown, not entered.
    public var unreadable = false
    /// Whether two children share a clash key (made outside Carrel), so
    /// removing one must rebuild the index to find the other. Declared here
    /// to sit in the padding after the flags above: there are 130,000 entries.
    private var clashIndexHasDuplicates = false
    /// A client was sent this folder's children, so a change in it says
    /// where its row goes (`carrel/didChange`'s `placed`); a folder no
    /// client lists is not sorted for each change in it. In the same padding.
    public var listed = false
    /// The links index read this file's text and found no link in it. The
    /// index keeps only files with links, by path: this bit is how its
    /// first need knows the others were read, and reads them no more. A
    /// move keeps it (the text is the same); a change of the text clears
    /// it. In the same padding.
    public var readWithoutLinks = false
    /// On a root: bumped when a date of any entry below changes, so lists in
    /// date order are rebuilt. Sits in the same padding as the flags.
    public private(set) var datesGeneration: UInt32 = 0
    /// Milliseconds since the epoch; -1 when the filesystem does not know.
    public var created: Int64 { didSet { if created != oldValue { datesChanged() } } }
    public var modified: Int64 { didSet { if modified != oldValue { datesChanged() } } }
    /// Directory mtime in nanoseconds, for the polling watcher. A file's
    /// is never read, and not kept.
    public var changeStamp: Int64 {
        get { folderState?.changeStamp ?? 0 }
        set { if kind != .file || folderState != nil { folder.changeStamp = newValue } }
    }
    public var children: ChildTable { folderState?.children ?? ChildTable() }
    // The counts below are kept as 32-bit values: words made each entry
    // 16 bytes larger, 2 MB at 130,000 entries, and the server's memory is
    // held to a bound. No subtree holds 2^31 entries.
    /// Regular files in this subtree (a file counts itself), kept up to date
    /// on every change. A sync engine's conflict copy is not one of them.
    private var fileTotal32: Int32
    /// Files in this subtree whose words are not counted yet (a file counts
    /// itself until counted). Containers show words only when it is 0.
    public private(set) var uncountedFiles: Int32
    /// Entries in this subtree, self included: sizes the full tree's response buffer.
    private var subtreeSize32: Int32 = 1
    /// Direct children that show as folders, kept up to date so counts cost nothing.
    private var folderCount32: Int32 = 0
    /// Sync engines' conflict copies of files in this subtree (a copy counts
    /// itself), counted apart from `fileTotal`. Their words are words on
    /// disk, counted like any file's.
    public private(set) var conflictTotal: Int32 = 0
    /// Words in this subtree's counted files (a file: its own), kept up to date like `fileTotal`.
    public private(set) var wordTotal = 0
    /// On a root: bumped by every change anywhere below, so indexes know when to rebuild.
    public var generation: Int { folderState?.generation ?? 0 }
    /// What only a folder keeps, made when it first has any: nine entries
    /// in ten are files, and these fields made each of them 48 bytes
    /// larger (4.8 MB at 110,000 entries).
    private var folderState: FolderState?
    /// `folded` of a name that is not ASCII: Unicode lowercasing is slow
    /// enough to rebuild the symbol index at a third of the speed.
    private var unicodeFolded: [UInt8]?
    /// The file's device and inode, hashed into one number (0: not known),
    /// so a file that left one place is known when it turns up at another
    /// (a folder renamed through a sync engine). It costs no memory: malloc
    /// gives a file's entry 136 usable bytes with it or without it
    /// (`EntrySizeTests`).
    public var identity: UInt64 = 0

    public init(name: EntryName, kind: EntryKind, created: Int64 = -1, modified: Int64 = 0) {
        self.name = name
        self.kind = kind
        self.created = created
        self.modified = modified
        self.fileTotal32 = kind == .file ? 1 : 0
        self.uncountedFiles = kind == .file ? 1 : 0
        if kind == .file && ConflictCopy.mayBeCopy(name.string) { countOwnFile() }
    }

    /// A file counts as a file, or, under a conflict copy's name, as a
    /// conflict. Called while the entry has no parent.
    private func countOwnFile() {
        // A name that is not UTF-8 is shown with U+FFFD, which would name
        // an original that cannot exist: it is never taken for a copy.
        let copy = name.isValidUTF8 && ConflictCopy.isCopy(name.string)
        fileTotal32 = copy ? 0 : 1
        conflictTotal = copy ? 1 : 0
    }

    /// The name of the file this one is a sync engine's conflict copy of.
    public var conflictOf: String? {
        kind == .file && conflictTotal > 0 ? ConflictCopy.original(of: name.string) : nil
    }

    /// Whether this file's words, or every file's below this folder, are counted.
    public var wordsCounted: Bool { uncountedFiles == 0 }

    /// Sets a file's word count, adding the difference to every folder above.
    public func setWords(_ words: Int) {
        guard kind == .file else { return }
        let delta = words - wordTotal
        let newlyCounted: Int32 = uncountedFiles == 1 ? -1 : 0
        guard delta != 0 || newlyCounted != 0 else { return }
        var e: Entry? = self
        while let x = e {
            x.wordTotal += delta
            x.uncountedFiles += newlyCounted
            e = x.parent
        }
    }

    /// Marks a file to be counted again (its content changed); folders above stop showing words until it is.
    public func forgetWords() {
        guard kind == .file, uncountedFiles == 0 else { return }
        var e: Entry? = self
        while let x = e {
            x.uncountedFiles += 1
            e = x.parent
        }
    }

    public var isDirectory: Bool { kind == .directory }
    public var isFolderLike: Bool { kind == .directory || (kind == .symlink && linksToDirectory) }
    /// Direct children that are files, conflict copies left out.
    public var fileCount: Int {
        let files = children.count - folderCount
        guard conflictTotal > 0 else { return files }
        return files - children.values.reduce(0) { $0 + ($1.kind == .file ? Int($1.conflictTotal) : 0) }
    }
    public var fileTotal: Int { Int(fileTotal32) }
    public var subtreeSize: Int { Int(subtreeSize32) }
    public var folderCount: Int { Int(folderCount32) }

    public func child(_ name: EntryName) -> Entry? { folderState?.children[name] }

    /// The bytes this folder's table of children holds them in (not the
    /// entries themselves), for the tests that hold it to a bound.
    public var childTableBytes: Int { folderState?.children.bytes ?? 0 }
    public func child(_ name: String) -> Entry? { folderState?.children[EntryName(name)] }

    /// Ancestors from the root down to and including self.
    public var lineage: [Entry] {
        var chain: [Entry] = []
        var e: Entry? = self
        while let x = e { chain.append(x); e = x.parent }
        return chain.reversed()
    }

    public var root: Entry {
        var e = self
        while let p = e.parent { e = p }
        return e
    }

    public var depth: Int {
        var d = 0
        var e = self
        while let p = e.parent { d += 1; e = p }
        return d
    }

    public func isDescendant(of other: Entry) -> Bool {
        var e: Entry? = self
        while let x = e { if x === other { return true }; e = x.parent }
        return false
    }

    /// The absolute path as raw bytes. Every command builds a few, so it is
    /// written back to front into one buffer of the right size.
    public var path: [UInt8] {
        var size = 0
        var e: Entry? = self
        while let x = e {
            let p = x.parent
            size += x.name.byteCount + (p == nil || p!.name.endsWithSlash ? 0 : 1)
            e = p
        }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var end = size
            var e: Entry? = self
            while let x = e {
                end = x.name.copyBytes(into: buffer, endingAt: end)
                let p = x.parent
                if let p, !p.name.endsWithSlash { end -= 1; buffer[end] = UInt8(ascii: "/") }
                e = p
            }
            count = size
        }
    }

    /// Names from `ancestor` (exclusive) down to self, or nil when not below it.
    public func components(below ancestor: Entry) -> [EntryName]? {
        var names: [EntryName] = []
        var e: Entry? = self
        while let x = e, x !== ancestor { names.append(x.name); e = x.parent }
        return e == nil ? nil : names.reversed()
    }

    /// `Ordering.folded` of the name: the key for natural order and fuzzy
    /// search. Kept only for names that are not ASCII; an ASCII name folds
    /// byte by byte as fast as it copies, and keeping those too cost 6 MB
    /// at 130,000 entries.
    public var folded: [UInt8] {
        var out: [UInt8] = []
        appendFolded(to: &out)
        return out
    }

    /// Appends `folded` without building it (the symbol index appends every name).
    public func appendFolded(to out: inout [UInt8]) {
        if let unicodeFolded { out.append(contentsOf: unicodeFolded); return }
        var s = name.string
        let ascii = s.withUTF8 { utf8 -> Bool in
            for c in utf8 where c >= 0x80 { return false }
            let start = out.count
            out.append(contentsOf: utf8)
            out.withUnsafeMutableBufferPointer { b in
                for i in start..<b.count where b[i] &- 0x41 < 26 { b[i] |= 0x20 }
            }
            return true
        }
        guard !ascii else { return }
        let folded = Ordering.folded(s)
        unicodeFolded = folded
        out.append(contentsOf: folded)
    }

    /// The name's clash key (see `NameRules.key`). Not cached: a String per
    /// entry would cost megabytes, and it is needed only for a folder's
    /// index build and on each add or remove once the index exists.
    var clashKey: String { NameRules.key(name.string) }

    private func nameChanged(to newName: EntryName) {
        name = newName
        unicodeFolded = nil
        if kind == .file && parent == nil { countOwnFile() }
    }

    // MARK: Mutation. Each keeps file totals and caches right.

    public func add(_ child: Entry) {
        precondition(child.parent == nil, "entry already has a parent")
        if let old = children[child.name] { remove(old) }
        child.parent = self
        folder.children.insert(child)
        if child.isFolderLike { folderCount32 += 1 }
        adjustTotals(
            files: child.fileTotal, conflicts: child.conflictTotal, entries: child.subtreeSize,
            words: child.wordTotal, uncounted: child.uncountedFiles)
        folderState?.sortedCache = nil
        if let f = folderState, f.clashIndex != nil {
            let key = child.clashKey
            if f.clashIndex![key] == nil { f.clashIndex![key] = child } else { clashIndexHasDuplicates = true }
        }
    }

    @discardableResult
    public func remove(_ child: Entry) -> Entry {
        guard children[child.name] === child else { return child }
        folder.children.remove(child.name)
        child.parent = nil
        if child.isFolderLike { folderCount32 -= 1 }
        adjustTotals(
            files: -child.fileTotal, conflicts: -child.conflictTotal, entries: -child.subtreeSize,
            words: -child.wordTotal, uncounted: -child.uncountedFiles)
        folderState?.sortedCache = nil
        if let f = folderState, f.clashIndex != nil {
            let key = child.clashKey
            if f.clashIndex![key] === child {
                if clashIndexHasDuplicates { f.clashIndex = nil } else { f.clashIndex![key] = nil }
            }
        }
        return child
    }

    /// Renames in place; the caller has made sure the new name is free.
    public func rename(to newName: EntryName) {
        guard let p = parent else { nameChanged(to: newName); folder.generation &+= 1; return }
        p.remove(self)
        nameChanged(to: newName)
        p.add(self)
    }

    /// Moves under `newParent` with `newName`.
    public func move(to newParent: Entry, as newName: EntryName) {
        parent?.remove(self)
        nameChanged(to: newName)
        newParent.add(self)
    }

    /// Changes whether a symlink shows as a folder, keeping the parent's count right.
    public func setLinksToDirectory(_ value: Bool) {
        guard value != linksToDirectory else { return }
        let wasFolder = isFolderLike
        linksToDirectory = value
        if let p = parent, wasFolder != isFolderLike {
            p.folderCount32 += isFolderLike ? 1 : -1
            p.invalidate()
        }
    }

    private func adjustTotals(files: Int, conflicts: Int32, entries: Int, words: Int, uncounted: Int32) {
        var e: Entry? = self
        while let x = e {
            x.fileTotal32 += Int32(truncatingIfNeeded: files)
            x.conflictTotal += conflicts
            x.subtreeSize32 += Int32(truncatingIfNeeded: entries)
            x.wordTotal += words
            x.uncountedFiles += uncounted
            if x.parent == nil { x.folder.generation &+= 1 }
            e = x.parent
        }
    }

    /// The parent's cached order may sort by this date, and lists cached
    /// against the root may too.
    private func datesChanged() {
        guard let p = parent else { datesGeneration &+= 1; return }
        p.folderState?.sortedCache = nil
        var top = p
        while let up = top.parent { top = up }
        top.datesGeneration &+= 1
    }

    /// Drops this directory's caches: its children changed.
    public func invalidate() {
        folderState?.sortedCache = nil
        folderState?.clashIndex = nil
        clashIndexHasDuplicates = false
    }

    /// Children in display order: folders first, then files, each by
    /// `order`, and a sync engine's conflict copy right after its original;
    /// in binder order, as `binder` lists them. The cache does not know
    /// `binder`: whoever changes it calls `binderOrderChanged`.
    public func sortedChildren(_ order: SortSetting, binder: BinderOrder? = nil) -> [Entry] {
        if let c = folderState?.sortedCache, c.order == order { return c.entries }
        var sorted =
            order.by == .manual
            ? (binder ?? BinderOrder()).arrange(Array(children.values))
            : Ordering.sorted(Array(children.values), order)
        if conflictTotal > 0 { sorted = Self.copiesAfterOriginals(sorted) }
        folder.sortedCache = (order, sorted)
        return sorted
    }

    /// Each conflict copy whose original (a file of the same folder) is
    /// among `sorted` moves right after it; copies of one original keep
    /// their order. A copy without its original stays where its own name
    /// put it. `sorted` may mix folders ("All").
    public static func copiesAfterOriginals(_ sorted: [Entry]) -> [Entry] {
        struct Key: Hashable {
            let folder: ObjectIdentifier?
            let name: EntryName
        }
        func key(_ e: Entry, _ name: EntryName) -> Key { Key(folder: e.parent.map(ObjectIdentifier.init), name: name) }
        let files = Set(sorted.filter { $0.kind == .file }.map { key($0, $0.name) })
        var copies: [Key: [Entry]] = [:]
        for e in sorted {
            if let original = e.conflictOf, files.contains(key(e, EntryName(original))) {
                copies[key(e, EntryName(original)), default: []].append(e)
            }
        }
        guard !copies.isEmpty else { return sorted }
        var out: [Entry] = []
        out.reserveCapacity(sorted.count)
        for e in sorted {
            if let original = e.conflictOf, copies[key(e, EntryName(original))] != nil { continue }
            out.append(e)
            if e.kind == .file, let own = copies[key(e, e.name)] { out.append(contentsOf: own) }
        }
        return out
    }

    /// The folder's binder order changed: its cached order is stale.
    public func binderOrderChanged() { folderState?.sortedCache = nil }

    /// The folder's binder order changed to `entries` (its children, as
    /// whoever changed it arranged them), sparing a sort.
    public func binderOrderChanged(to entries: [Entry]) {
        guard entries.count == children.count else { folderState?.sortedCache = nil; return }
        folder.sortedCache = (.manual, conflictTotal > 0 ? Self.copiesAfterOriginals(entries) : entries)
    }

    /// The child whose name clashes with `name` (case and Unicode spelling ignored).
    public func clash(with name: String) -> Entry? {
        if folderState?.clashIndex == nil {
            var index: [String: Entry] = [:]
            var duplicates = false
            for c in children.values {
                let key = c.clashKey
                if index[key] == nil { index[key] = c } else { duplicates = true }
            }
            folder.clashIndex = index
            clashIndexHasDuplicates = duplicates
        }
        return folderState?.clashIndex?[NameRules.key(name)]
    }

    /// Visits the subtree depth-first without recursion (folders can be 2,000 deep).
    public func walk(_ visit: (Entry) -> Bool) {
        var stack: [Entry] = [self]
        while let e = stack.popLast() {
            guard visit(e) else { continue }
            stack.append(contentsOf: e.children.values)
        }
    }

    /// The folder's own state, made on first need.
    private var folder: FolderState {
        if let f = folderState { return f }
        let f = FolderState()
        folderState = f
        return f
    }

    /// Breaks parent links in a detached subtree iteratively, so freeing a
    /// very deep tree cannot overflow the stack through recursive deinit.
    public func dismantle() {
        var stack: [Entry] = [self]
        while let e = stack.popLast() {
            stack.append(contentsOf: e.children.values)
            for c in e.children.values { c.parent = nil }
            e.folderState?.children.removeAll()
            e.invalidate()
        }
    }
}

/// A folder's children and the caches kept over them (see `Entry`).
private final class FolderState {
    var children = ChildTable()
    var changeStamp: Int64 = 0
    /// On a root (see `Entry.generation`).
    var generation = 0
    var sortedCache: (order: SortSetting, entries: [Entry])?
    /// Clash key → child, kept up to date on add and remove: rebuilding it
    /// costs a Unicode fold per sibling, too much for every command.
    var clashIndex: [String: Entry]?
}
