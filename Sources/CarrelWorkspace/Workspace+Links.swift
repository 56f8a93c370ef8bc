import CarrelModel
import CarrelStore
import Glibc

/// One link of an indexed file: what it names, and where it is written.
/// Markdown links are kept resolved (library paths); wikilinks as names,
/// resolved when asked, since which file a name means depends on them all.
public struct IndexedLink: Sendable {
    public var kind: Link.Kind
    /// Markdown: the library path it leads to. Nil for a wikilink.
    public var resolved: [String]?
    /// Wikilinks: the name as written.
    public var name: String
    public var start: Int32
    public var end: Int32
    /// LSP's zero-based line and UTF-16 columns of the target's text.
    public var line: Int32
    public var startCharacter: Int32
    public var endCharacter: Int32
}

/// A library's links, by linking file (library paths). Only each file's
/// outgoing links are kept; backlinks are found from them.
final class LinkIndex {
    var table = LinkTable()
    /// Which file each name means: built on first need, then kept current
    /// by the changes noted (`noteWikiChange`).
    var wiki: WikiNames?
    /// Every file with links is in `files`. Until the first need, it holds
    /// only what counting read: the rest (neither kept nor marked
    /// `Entry.readWithoutLinks`) is read then, once.
    var complete = false
    /// The linking files' texts the last moves' edits were made on.
    var texts = LinkTexts()
}

/// The library paths of the files a count hands the index, which come in
/// folder order: each folder's path, and its hash, are built once, not once
/// per file.
/// The library path of a count's folder, and its `LinkTable.pathHash`:
/// built once for the folder's files, from the names that open it.
struct CountedLinkFolder {
    let path: [String]
    let hash: Int

    init(_ names: [EntryName]) {
        path = names.map(\.string)
        hash = LinkTable.pathHash(path[...])
    }
}

/// A file's link edits for one move, made on `text` (the open buffer's or
/// the disk's, as read at `stamp`).
public struct LinkFileEdit {
    /// Where the file is before the move, and after it.
    public var file: [String]
    public var newFile: [String]
    public var edits: [TextEdit]
    public var text: [UInt8]
    public var stamp: FileStamp?

    /// Each edit as LSP's zero-based lines and UTF-16 columns.
    public var ranges: [(startLine: Int, startCharacter: Int, endLine: Int, endCharacter: Int, newText: String)] {
        let lines = TextLines(text)
        return edits.sorted { $0.start < $1.start }.map { e in
            let a = lines.position(e.start)
            let b = lines.position(e.end)
            return (a.line, a.character, b.line, b.character, e.newText)
        }
    }
}

/// The links of every Markdown and Fountain file, per library: read the
/// first time something needs them (a link request, a rename), then kept
/// current by every change the owner reports (`noteLinkChanges`) and by open
/// buffers' text. Files are read as counting reads them: no-follow,
/// non-blocking, plain files only, at most `Directory.countLimit`.
extension Workspace {
    /// The library path of `entry` (names from the library's folder).
    public func libraryPath(of entry: Entry, in library: Library) -> [String]? {
        entry.components(below: library.root)?.map(\.string)
    }

    /// The entry at a library path, if the model has one.
    public func entry(at path: [String], in library: Library) -> Entry? {
        var e = library.root
        for part in path {
            guard let next = e.child(part) else { return nil }
            e = next
        }
        return e
    }

    /// The absolute path of a library path: the model's entry's, else the names joined.
    public func absolutePath(_ path: [String], in library: Library) -> [UInt8] {
        if let e = entry(at: path, in: library) { return e.path }
        var out = library.path
        for part in path {
            if out.last != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
            out.append(contentsOf: part.utf8)
        }
        return out
    }

    static func hasLinks(_ name: String) -> Bool { hasLinks(WordCount.Format(fileName: name)) }

    static func hasLinks(_ format: WordCount.Format) -> Bool { indexesLinks && format != .plain }

    /// False only under `CARREL_BENCH_NO_LINKS`, which the benchmark alone
    /// sets, to weigh the index: no file then has links to parse, keep or
    /// cache, and every link request finds none.
    static let indexesLinks = getenv("CARREL_BENCH_NO_LINKS") == nil

    func linkIndex(_ library: Library) -> LinkIndex {
        let id = ObjectIdentifier(library.root)
        if let index = linkIndexes[id], index.complete { return index }
        let index = linkIndexes[id] ?? LinkIndex()
        linkIndexes[id] = index
        index.complete = true
        var folders: [Entry] = [library.root]
        while let folder = folders.popLast() {
            var dir: Directory?
            for child in folder.children.values {
                if child.kind == .directory {
                    folders.append(child)
                    continue
                }
                guard child.kind == .file, !child.readWithoutLinks, Self.hasLinks(child.name.string),
                    let path = libraryPath(of: child, in: library), index.table[path] == nil
                else { continue }
                if dir == nil {
                    let below = folder.components(below: library.root)?.map(\.bytes) ?? []
                    dir = try? Directory.open(root: library.path, components: below)
                }
                if let text = bufferText(child) ?? readForLinks(child.name.bytes, in: dir) {
                    index.table.set(path, Self.indexed(text, from: path))
                }
            }
        }
        return index
    }

    private func readForLinks(_ name: [UInt8], in dir: Directory?) -> [UInt8]? {
        linkIndexReads += 1
        return dir?.readText(name)?.bytes
    }

    /// Counting read `entry`, or found its words and `links` in the
    /// cache: the index takes them, so its first need reads only what
    /// counting did not (files whose cached count kept no links). Called
    /// for every Markdown and Fountain file of a count, with its folder's
    /// path, built once for the folder's files. `targets`, when the
    /// counting threads resolved the links, is each one's library path.
    func indexCountedLinks(
        _ entry: Entry, links: [CachedLink], targets: [[String]?]? = nil, in library: Library,
        folder: CountedLinkFolder
    ) {
        guard bufferText(entry) == nil else { return }
        let id = ObjectIdentifier(library.root)
        let index: LinkIndex
        if let built = linkIndexes[id] {
            index = built
        } else {
            index = LinkIndex()
            linkIndexes[id] = index
        }
        // Most files hold no link, and most folders no file the table
        // holds: only a file the table may hold (its text changed) costs
        // its path and a look.
        if links.isEmpty, !index.table.mayHold(inFolder: folder.hash) {
            entry.readWithoutLinks = true
            return
        }
        let path = folder.path + [entry.name.string]
        countedLinkPaths += 1
        if let targets, targets.count == links.count {
            index.table.set(path, Self.indexed(links, targets: targets))
        } else {
            linksResolvedOnWorkThread += links.count { !$0.kind.isWiki }
            index.table.set(path, Self.indexed(links, from: path))
        }
        entry.readWithoutLinks = links.isEmpty
    }

    static func indexed(_ links: [CachedLink], from file: [String]) -> [IndexedLink] {
        links.map { l in
            IndexedLink(
                kind: l.kind, resolved: l.kind.isWiki ? nil : LinkPath.resolve(l.target, from: file), name: l.target,
                start: l.start, end: l.end, line: l.line, startCharacter: l.startCharacter,
                endCharacter: l.endCharacter)
        }
    }

    /// `links` with the library paths the counting threads resolved, one each.
    static func indexed(_ links: [CachedLink], targets: [[String]?]) -> [IndexedLink] {
        zip(links, targets).map { l, target in
            IndexedLink(
                kind: l.kind, resolved: target, name: l.target, start: l.start, end: l.end, line: l.line,
                startCharacter: l.startCharacter, endCharacter: l.endCharacter)
        }
    }

    static func indexed(_ text: [UInt8], from file: [String]) -> [IndexedLink] {
        indexed(CachedLink.parse(text), from: file)
    }

    func bufferText(_ e: Entry) -> [UInt8]? { linkBuffers[ObjectIdentifier(e)] }

    /// An open buffer's text stands for its file's links until it closes.
    public func indexBuffer(_ entry: Entry, text: [UInt8]?) {
        let id = ObjectIdentifier(entry)
        if let text { linkBuffers[id] = text } else { linkBuffers.removeValue(forKey: id) }
        guard let library = library(of: entry), let index = linkIndexes[ObjectIdentifier(library.root)],
            let path = libraryPath(of: entry, in: library), Self.hasLinks(entry.name.string)
        else { return }
        // Until the first need, the buffer (or, closed, the disk) is read then.
        guard index.complete else {
            index.table.set(path, nil)
            entry.readWithoutLinks = false
            return
        }
        if let t = text ?? savedText(of: entry) { index.table.set(path, Self.indexed(t, from: path)) }
    }

    /// Keeps built indexes true to what changed on disk (commands' own
    /// changes, the watcher's, a folder read late).
    public func noteLinkChanges(_ changes: [Change]) {
        guard !linkIndexes.isEmpty else { return }
        for change in changes {
            for library in libraries {
                guard let index = linkIndexes[ObjectIdentifier(library.root)] else { continue }
                noteWikiChange(change, index, library)
                let from = change.oldPath.flatMap { relative($0, library) }
                let to = relative(change.path, library)
                let isFile = change.kind != .deleted && to.flatMap { entry(at: $0, in: library) }?.kind == .file
                // A move changes no file's text: its files' links are carried, not read again.
                let carried = from.map { index.table.remove(under: $0, isFile: isFile) } ?? [:]
                guard let to else { continue }
                if change.kind == .deleted || change.kind == .moved { index.table.remove(under: to, isFile: isFile) }
                // Until the first need, a changed file is dropped and read again then (or by counting).
                guard change.kind != .deleted, index.complete, let top = entry(at: to, in: library) else {
                    if change.kind == .changed {
                        index.table.set(to, nil)
                        entry(at: to, in: library)?.readWithoutLinks = false
                    }
                    continue
                }
                // A folder "changed" is its order or settings: its files' text is as it was.
                if change.kind == .changed, top.kind != .file { continue }
                top.walk { e in
                    guard e.kind == .file, Self.hasLinks(e.name.string), let p = libraryPath(of: e, in: library)
                    else { return e.kind == .directory }
                    if let text = bufferText(e) {
                        index.table.set(p, Self.indexed(text, from: p))
                    } else if change.kind == .moved, let from, let links = carried[from + p[to.count...]] {
                        index.table.set(p, links.map { Self.moved($0, to: p) })
                    } else if let text = savedText(of: e) {
                        index.table.set(p, Self.indexed(text, from: p))
                    }
                    return false
                }
            }
        }
    }

    /// A link of a file that moved to `file`: a Markdown link's target is
    /// relative to it, so it leads elsewhere now.
    static func moved(_ link: IndexedLink, to file: [String]) -> IndexedLink {
        var l = link
        if !l.kind.isWiki { l.resolved = LinkPath.resolve(l.name, from: file) }
        return l
    }

    /// Keeps the built wikilink table true to a change: files that left
    /// are forgotten, files that came (outside a Trash) added. A change of
    /// a library's or project's own folder builds it again on next need.
    func noteWikiChange(_ change: Change, _ index: LinkIndex, _ library: Library) {
        guard index.wiki != nil, change.kind != .changed, let to = relative(change.path, library) else { return }
        let from = change.oldPath.flatMap { relative($0, library) }
        guard to.count > 1, (from?.count ?? 2) > 1 else {
            index.wiki = nil
            return
        }
        let top = change.kind == .deleted ? nil : entry(at: to, in: library)
        // A file is found by its name; only a folder's files cost a look at every name.
        func forget(_ path: [String]) {
            if top?.kind == .file { index.wiki?.remove(path) } else { index.wiki?.remove(under: path) }
        }
        if let from { forget(from) }
        if change.kind == .deleted {
            if !change.inTrash { forget(to) }
            return
        }
        guard let top else { return }
        forget(to)
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        guard !Self.isInTrash(top, trashes), var names = index.wiki else { return }
        // Not built again: dropped while filled, the table is not copied.
        index.wiki = nil
        Self.addWikiFiles(top, at: to, to: &names, skipping: trashes)
        index.wiki = names
    }

    /// Adds `top` (at library path `path`) and every file below it outside
    /// the Trash to `names`, the files of a folder sharing one copy of its path.
    static func addWikiFiles(
        _ top: Entry, at path: [String], to names: inout WikiNames, skipping trashes: Set<ObjectIdentifier>
    ) {
        if top.kind == .file {
            if let name = path.last { names.add(name, in: Array(path.dropLast())) }
            return
        }
        var folders: [(Entry, [String])] = [(top, path)]
        while let (folder, folderPath) = folders.popLast() {
            for child in folder.children.values where !trashes.contains(ObjectIdentifier(child)) {
                if child.kind == .file {
                    names.add(child.name.string, in: folderPath)
                } else if child.kind == .directory {
                    folders.append((child, folderPath + [child.name.string]))
                }
            }
        }
    }

    /// The library path of an absolute path, when it is in `library`.
    public func libraryPath(ofAbsolute path: [UInt8], in library: Library) -> [String]? { relative(path, library) }

    private func relative(_ path: [UInt8], _ library: Library) -> [String]? {
        for base in [library.path, library.realPath] {
            let parts = path.split(separator: UInt8(ascii: "/"))
            let baseParts = base.split(separator: UInt8(ascii: "/"))
            guard parts.count >= baseParts.count, zip(parts, baseParts).allSatisfy({ $0.elementsEqual($1) }) else {
                continue
            }
            return parts[baseParts.count...].map { EntryName(bytes: $0).string }
        }
        return nil
    }

    /// Every file a wikilink may name: the library's files outside the Trash.
    public func wikiNames(_ library: Library) -> WikiNames {
        let index = linkIndex(library)
        if let w = index.wiki { return w }
        var names = WikiNames(files: [])
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        Self.addWikiFiles(library.root, at: [], to: &names, skipping: trashes)
        index.wiki = names
        return names
    }

    /// The links of the file at `path`, as indexed.
    public func links(of path: [String], in library: Library) -> [IndexedLink] {
        linkIndex(library).table[path] ?? []
    }

    /// Where a link of the file at `file` leads, or nil (out of the library, or no such name).
    public func target(of link: IndexedLink, from file: [String], in library: Library) -> [String]? {
        link.kind.isWiki ? wikiNames(library).resolve(link.name, from: file) : link.resolved
    }

    /// Every link to `path` (or below it, for a folder), by linking file, in path order.
    public func backlinks(to path: [String], in library: Library) -> [(file: [String], link: IndexedLink)] {
        var out: [(file: [String], link: IndexedLink)] = []
        for (file, links) in linkIndex(library).table.files {
            for l in links {
                if let t = target(of: l, from: file, in: library), t.starts(with: path) { out.append((file, l)) }
            }
        }
        return out.sorted { a, b in
            a.file != b.file
                ? a.file.joined(separator: "/") < b.file.joined(separator: "/") : a.link.start < b.link.start
        }
    }

    /// The links as they were, kept across a move the model makes, so the
    /// move's edits can be found after it.
    /// Copies share the index's storage until it changes, so taking one
    /// costs nothing once the index and its wikilink table are built.
    public struct LinkSnapshot {
        let table: LinkTable
        let wiki: WikiNames
    }

    public func linkSnapshot(_ library: Library) -> LinkSnapshot {
        LinkSnapshot(table: linkIndex(library).table, wiki: wikiNames(library))
    }

    /// The edits a move about to be made makes to every file whose links it
    /// would break, on each file's open buffer (`text`, by library path) or
    /// disk text.
    public func linkEdits(
        for move: LinkMove, in library: Library, text: ([String]) -> [UInt8]? = { _ in nil }
    ) -> [LinkFileEdit] {
        linkEdits(move, library, linkSnapshot(library), made: false, text)
    }

    /// The same, for a move the model has made since `snapshot`; `text` is
    /// asked by each file's path before the move.
    public func linkEdits(
        after move: LinkMove, in library: Library, since snapshot: LinkSnapshot,
        text: ([String]) -> [UInt8]? = { _ in nil }
    ) -> [LinkFileEdit] {
        linkEdits(move, library, snapshot, made: true, text)
    }

    /// Only the moved files and the files the reverse index names are
    /// looked at: a move's cost follows its links, not the library's size.
    private func linkEdits(
        _ move: LinkMove, _ library: Library, _ snapshot: LinkSnapshot, made: Bool, _ text: ([String]) -> [UInt8]?
    ) -> [LinkFileEdit] {
        // The wikilink table after the move is the one before it, with the
        // moved files' paths changed (those in a Trash now are in none).
        var removed: [[String]] = []
        var added: [[String]] = []
        var movedKeys = Set<String>()
        var candidates = Set<[String]>()
        var namesMoved = Set<String>()
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        for pair in move.pairs {
            candidates.insert(pair.from)
            guard let top = entry(at: made ? pair.to : pair.from, in: library) else { continue }
            if top.kind != .file {
                candidates.formUnion(snapshot.table.files.keys.lazy.filter { $0.starts(with: pair.from) })
            }
            top.walk { e in
                guard e.kind == .file, let p = libraryPath(of: e, in: library) else { return e.kind == .directory }
                let old = made ? pair.from + p[pair.to.count...] : p
                let new = made ? p : pair.to + p[pair.from.count...]
                namesMoved.formUnion(Self.wikiKeys(old.last ?? ""))
                removed.append(old)
                if !Self.isInTrash(e, trashes) {
                    added.append(new)
                    movedKeys.formUnion(Self.wikiKeys(new.last ?? ""))
                }
                return false
            }
        }
        let after = snapshot.wiki.moved(removing: removed, adding: added)
        candidates.formUnion(
            snapshot.table.linkingFiles(into: move.pairs.map(\.from), names: namesMoved.union(movedKeys)))
        var out: [LinkFileEdit] = []
        let index = linkIndexes[ObjectIdentifier(library.root)]
        // In path order, so files of one folder are read through one open of it.
        var folder: (entry: Entry, dir: Directory?)?
        for file in candidates.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            guard let links = snapshot.table[file] else { continue }
            let affected =
                move.map(file) != nil
                || links.contains { l in
                    let t = l.kind.isWiki ? snapshot.wiki.resolve(l.name, from: file) : l.resolved
                    if let t, move.map(t) != nil { return true }
                    return l.kind.isWiki
                        && movedKeys.contains(NameRules.key(l.name.split(separator: "/").last.map(String.init) ?? ""))
                }
            guard affected else { continue }
            let newFile = move.map(file) ?? file
            var stamp: FileStamp?
            var bytes = text(file)
            var parsed: LinkTexts.Kept?
            if bytes == nil, let e = entry(at: made ? newFile : file, in: library), let parent = e.parent {
                if folder?.entry !== parent {
                    let below = parent.components(below: library.root)?.map(\.bytes)
                    folder = (parent, below.flatMap { try? Directory.open(root: library.path, components: $0) })
                }
                if let dir = folder?.dir, let read = linkText(e.name.bytes, in: dir, from: file, index) {
                    parsed = read.kept
                    bytes = read.kept.text
                    stamp = read.stamp
                }
            }
            guard let bytes else { continue }
            let edits = LinkRewrite.edits(
                parsed?.links ?? Links.parse(bytes), file: file, move: move, before: snapshot.wiki, after: after,
                resolved: parsed?.resolved)
            guard !edits.isEmpty else { continue }
            out.append(LinkFileEdit(file: file, newFile: newFile, edits: edits, text: bytes, stamp: stamp))
        }
        return out.sorted { $0.file.joined(separator: "/") < $1.file.joined(separator: "/") }
    }

    /// The keys a wikilink may name a file by: its name without extension, and with it.
    static func wikiKeys(_ name: String) -> [String] {
        [NameRules.key(LinkPath.stem(name)), NameRules.key(name)]
    }

    static func isInTrash(_ e: Entry, _ trashes: Set<ObjectIdentifier>) -> Bool {
        var above: Entry? = e
        while let folder = above {
            if trashes.contains(ObjectIdentifier(folder)) { return true }
            above = folder.parent
        }
        return false
    }

    /// Makes the edits of closed files (those read from disk), each where
    /// its file is now, atomically, and only when the file still holds the
    /// text the edits were made on: the files whose links were not updated
    /// are returned, nothing written to them. The edits are first recorded,
    /// durably, in the state folder (`LinkUpdateRecord`), so a stop at any
    /// point leaves each file old or new and the next open finishes the
    /// rest; without a record no file is written, and those files are also
    /// returned as `unrecorded`.
    public func writeLinkEdits(
        _ fixes: [LinkFileEdit], in library: Library, answering question: LinkStateFile? = nil
    )
        -> (written: Int, refused: [[String]], unrecorded: [[String]])
    {
        var written = 0
        var refused: [[String]] = []
        var ready: [(fix: LinkFileEdit, entry: Entry, dir: Directory, stamp: FileStamp)] = []
        for fix in fixes {
            guard fix.stamp != nil, let e = entry(at: fix.newFile, in: library), let parent = e.parent,
                let below = parent.components(below: library.root)?.map(\.bytes),
                let dir = try? Directory.open(root: library.path, components: below),
                let now = dir.readText(e.name.bytes), now.bytes == fix.text
            else {
                refused.append(fix.newFile)
                continue
            }
            ready.append((fix, e, dir, now.stamp))
        }
        guard !ready.isEmpty else { return (0, refused, []) }
        var record = LinkUpdateRecord(
            library: library.realPath,
            files: ready.map { .init(path: $0.fix.newFile, before: $0.stamp, text: $0.fix.text, edits: $0.fix.edits) })
        if let question { record.answer(question) }
        guard let recorded = record.write(for: library.realPath) else {
            log("link updates not made: their record could not be written")
            return (0, refused + ready.map(\.fix.newFile), ready.map(\.fix.newFile))
        }
        // Answered for good: the record names it, so a stop from here on finishes the edits and asks nothing.
        question?.remove()
        for (fix, e, dir, stamp) in ready {
            let text = LinkRewrite.apply(fix.edits, to: fix.text)
            snapshotBeforeReplacing(e, in: library, text: fix.text, title: .titleBeforeLinkUpdate)
            do throws(Directory.ReplaceRefusal) {
                try dir.replaceText(e.name.bytes, readAs: stamp, with: text)
                written += 1
                if let index = linkIndexes[ObjectIdentifier(library.root)], bufferText(e) == nil {
                    index.table.set(fix.newFile, Self.indexed(text, from: fix.newFile))
                }
            } catch {
                refused.append(fix.newFile)
            }
        }
        recorded.remove()
        return (written, refused, [])
    }

    func readWithStamp(_ e: Entry, _ library: Library) -> (bytes: [UInt8], stamp: FileStamp)? {
        guard let parent = e.parent, let below = parent.components(below: library.root)?.map(\.bytes),
            let dir = try? Directory.open(root: library.path, components: below)
        else { return nil }
        return dir.readText(e.name.bytes)
    }
}
