import CarrelModel
import CarrelStore

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
    var files: [[String]: [IndexedLink]] = [:]
    /// Which file each name means, rebuilt after any change.
    var wiki: WikiNames?
    /// Every file is in `files`. Until the first need, it holds only what
    /// counting read: the rest is read then, once.
    var complete = false
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

    static func hasLinks(_ name: String) -> Bool { WordCount.Format(fileName: name) != .plain }

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
                guard child.kind == .file, Self.hasLinks(child.name.string),
                    let path = libraryPath(of: child, in: library), index.files[path] == nil
                else { continue }
                if dir == nil {
                    let below = folder.components(below: library.root)?.map(\.bytes) ?? []
                    dir = try? Directory.open(root: library.path, components: below)
                }
                if let text = bufferText(child) ?? readForLinks(child.name.bytes, in: dir) {
                    index.files[path] = Self.indexed(text, from: path)
                }
            }
        }
        return index
    }

    private func readForLinks(_ name: [UInt8], in dir: Directory?) -> [UInt8]? {
        linkIndexReads += 1
        return dir?.readText(name)?.bytes
    }

    /// Counting read `entry` (`text` nil: it holds no `[`): its links come
    /// from that read, so the index's first need reads only what counting
    /// did not (files whose words came from the cache).
    func indexCountedLinks(_ entry: Entry, text: [UInt8]?) {
        guard Self.hasLinks(entry.name.string), bufferText(entry) == nil, let library = library(of: entry),
            let path = libraryPath(of: entry, in: library)
        else { return }
        let id = ObjectIdentifier(library.root)
        let index = linkIndexes[id] ?? LinkIndex()
        linkIndexes[id] = index
        index.files[path] = text.map { Self.indexed($0, from: path) } ?? []
        index.wiki = nil
    }

    static func indexed(_ text: [UInt8], from file: [String]) -> [IndexedLink] {
        let links = Links.parse(text)
        guard !links.isEmpty else { return [] }
        let lines = TextLines(text)
        return links.map { l in
            let a = lines.position(l.start)
            let b = lines.position(l.end)
            return IndexedLink(
                kind: l.kind, resolved: l.kind.isWiki ? nil : LinkPath.resolve(l.target, from: file), name: l.target,
                start: Int32(clamping: l.start), end: Int32(clamping: l.end), line: Int32(clamping: a.line),
                startCharacter: Int32(clamping: a.character), endCharacter: Int32(clamping: b.character))
        }
    }

    private func bufferText(_ e: Entry) -> [UInt8]? { linkBuffers[ObjectIdentifier(e)] }

    /// An open buffer's text stands for its file's links until it closes.
    public func indexBuffer(_ entry: Entry, text: [UInt8]?) {
        let id = ObjectIdentifier(entry)
        if let text { linkBuffers[id] = text } else { linkBuffers.removeValue(forKey: id) }
        guard let library = library(of: entry), let index = linkIndexes[ObjectIdentifier(library.root)],
            let path = libraryPath(of: entry, in: library), Self.hasLinks(entry.name.string)
        else { return }
        // Until the first need, the buffer (or, closed, the disk) is read then.
        guard index.complete else {
            index.files.removeValue(forKey: path)
            return
        }
        if let t = text ?? savedText(of: entry) { index.files[path] = Self.indexed(t, from: path) }
    }

    /// Keeps built indexes true to what changed on disk (commands' own
    /// changes, the watcher's, a folder read late).
    public func noteLinkChanges(_ changes: [Change]) {
        guard !linkIndexes.isEmpty else { return }
        for change in changes {
            for library in libraries {
                guard let index = linkIndexes[ObjectIdentifier(library.root)] else { continue }
                index.wiki = nil
                if let old = change.oldPath, let from = relative(old, library) {
                    for key in index.files.keys where key.starts(with: from) { index.files.removeValue(forKey: key) }
                }
                guard let to = relative(change.path, library) else { continue }
                if change.kind == .deleted || change.kind == .moved {
                    for key in index.files.keys where key.starts(with: to) { index.files.removeValue(forKey: key) }
                }
                // Until the first need, a changed file is dropped and read again then (or by counting).
                guard change.kind != .deleted, index.complete, let top = entry(at: to, in: library) else {
                    if change.kind == .changed { index.files.removeValue(forKey: to) }
                    continue
                }
                // A folder "changed" is its order or settings: its files' text is as it was.
                if change.kind == .changed, top.kind != .file { continue }
                top.walk { e in
                    if e.kind == .file, Self.hasLinks(e.name.string), let p = libraryPath(of: e, in: library),
                        let text = bufferText(e) ?? savedText(of: e)
                    {
                        index.files[p] = Self.indexed(text, from: p)
                    }
                    return e.kind == .directory
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
        library.root.walk { e in
            if trashes.contains(ObjectIdentifier(e)) { return false }
            if e.kind == .file, let p = libraryPath(of: e, in: library) { names.add(p) }
            return e.kind == .directory
        }
        index.wiki = names
        return names
    }

    /// The links of the file at `path`, as indexed.
    public func links(of path: [String], in library: Library) -> [IndexedLink] {
        linkIndex(library).files[path] ?? []
    }

    /// Where a link of the file at `file` leads, or nil (out of the library, or no such name).
    public func target(of link: IndexedLink, from file: [String], in library: Library) -> [String]? {
        link.kind.isWiki ? wikiNames(library).resolve(link.name, from: file) : link.resolved
    }

    /// Every link to `path` (or below it, for a folder), by linking file, in path order.
    public func backlinks(to path: [String], in library: Library) -> [(file: [String], link: IndexedLink)] {
        var out: [(file: [String], link: IndexedLink)] = []
        for (file, links) in linkIndex(library).files {
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
    public struct LinkSnapshot {
        let files: [[String]: [IndexedLink]]
        let wiki: WikiNames
    }

    public func linkSnapshot(_ library: Library) -> LinkSnapshot {
        LinkSnapshot(files: linkIndex(library).files, wiki: wikiNames(library))
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

    private func linkEdits(
        _ move: LinkMove, _ library: Library, _ snapshot: LinkSnapshot, made: Bool, _ text: ([String]) -> [UInt8]?
    ) -> [LinkFileEdit] {
        var afterFiles: [[String]] = []
        var movedKeys = Set<String>()
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        library.root.walk { e in
            if trashes.contains(ObjectIdentifier(e)) { return false }
            if e.kind == .file, let p = libraryPath(of: e, in: library) {
                let after = made ? p : move.map(p) ?? p
                afterFiles.append(after)
                if made ? move.pairs.contains(where: { p.starts(with: $0.to) }) : move.map(p) != nil {
                    movedKeys.insert(NameRules.key(LinkPath.stem(after.last ?? "")))
                    movedKeys.insert(NameRules.key(after.last ?? ""))
                }
            }
            return e.kind == .directory
        }
        let after = WikiNames(files: afterFiles)
        var out: [LinkFileEdit] = []
        for (file, links) in snapshot.files {
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
            if bytes == nil, let e = entry(at: made ? newFile : file, in: library) {
                let read = readWithStamp(e, library)
                bytes = read?.bytes
                stamp = read?.stamp
            }
            guard let bytes else { continue }
            let edits = LinkRewrite.edits(
                Links.parse(bytes), file: file, move: move, before: snapshot.wiki, after: after)
            guard !edits.isEmpty else { continue }
            out.append(LinkFileEdit(file: file, newFile: newFile, edits: edits, text: bytes, stamp: stamp))
        }
        return out.sorted { $0.file.joined(separator: "/") < $1.file.joined(separator: "/") }
    }

    /// Makes the edits of closed files (those read from disk), each where
    /// its file is now, atomically, and only when the file still holds the
    /// text the edits were made on: the files whose links were not updated
    /// are returned, nothing written to them. The edits are first recorded,
    /// durably, in the state folder (`LinkUpdateRecord`), so a stop at any
    /// point leaves each file old or new and the next open finishes the
    /// rest; without a record no file is written, and those files are also
    /// returned as `unrecorded`.
    public func writeLinkEdits(_ fixes: [LinkFileEdit], in library: Library)
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
        let record = LinkUpdateRecord(
            library: library.realPath,
            files: ready.map { .init(path: $0.fix.newFile, before: $0.stamp, text: $0.fix.text, edits: $0.fix.edits) })
        guard let recorded = record.write(for: library.realPath) else {
            log("link updates not made: their record could not be written")
            return (0, refused + ready.map(\.fix.newFile), ready.map(\.fix.newFile))
        }
        for (fix, e, dir, stamp) in ready {
            let text = LinkRewrite.apply(fix.edits, to: fix.text)
            snapshotBeforeReplacing(e, in: library, text: fix.text, title: .titleBeforeLinkUpdate)
            do throws(Directory.ReplaceRefusal) {
                try dir.replaceText(e.name.bytes, readAs: stamp, with: text)
                written += 1
                if let index = linkIndexes[ObjectIdentifier(library.root)] {
                    index.files[fix.newFile] =
                        bufferText(e) == nil ? Self.indexed(text, from: fix.newFile) : index.files[fix.newFile]
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
