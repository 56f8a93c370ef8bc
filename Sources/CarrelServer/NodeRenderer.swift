import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// Turns workspace items into wire Nodes. Shared by the server and `carrel tree --json`.
/// Subtrees are written straight to bytes, each child's URI and scope built
/// from its parent's: the full tree of a large library is the biggest response.
public struct NodeRenderer {
    public let workspace: Workspace
    public let language: Language

    public init(workspace: Workspace, language: Language) {
        self.workspace = workspace
        self.language = language
    }

    /// The wire form of one row, without children.
    public func node(_ item: Item) -> Node {
        if case .entry(let e, _) = item { workspace.noteShown(e) }
        let info = workspace.describe(item, language)
        var n = makeNode(info, uri: info.path.map(Self.uri), hasChildren: workspace.hasChildren(item))
        n.id = Self.sectionID(item)
        return n
    }

    /// A row a change added or moved, with where it goes, for `carrel/didChange`.
    public func placed(_ p: Placement) -> DidChangeNotification.Placed {
        DidChangeNotification.Placed(parent: identity(p.parent), after: p.after.map(identity), node: node(p.item))
    }

    /// What a client knows a row by: its `id`, else its URI.
    func identity(_ item: Item) -> [UInt8] {
        switch item {
        case .entry(let e, _): return Self.uri(e.path)
        case .section: return Self.sectionID(item) ?? []
        case .all(let project, _): return Self.uri(project.root.path + Array("/.carrel/all".utf8))
        }
    }

    static func uri(_ path: [UInt8]) -> [UInt8] {
        var u = Array("file://".utf8)
        FileURI.appendEncoded(path, to: &u)
        return u
    }

    /// A section's identity, which it has no URI to give: its project's
    /// URI and its place in the project type ("…/My%20Poems#section-0").
    static func sectionID(_ item: Item) -> [UInt8]? {
        guard case .section(let project, let index, _) = item else { return nil }
        return uri(project.root.path) + Array("#section-\(index)".utf8)
    }

    /// A generous guess at the response size: unwritten capacity costs no memory.
    public func capacity(for items: [Item]) -> Int {
        items.reduce(4096) { total, item in
            guard case .entry(let e, _) = item else { return total }
            return total + e.subtreeSize * 640
        }
    }

    /// Writes a node and `depth` levels below it; with a `page`, only those
    /// of its children, and how many it has in all.
    public func write(_ item: Item, depth: Int, page: TreeRequest.Page? = nil, to w: inout JSONWriter) {
        switch item {
        case .entry(let e, let l):
            var uri = Array("file://".utf8)
            FileURI.appendEncoded(e.path, to: &uri)
            writeEntry(e, uri: uri, scope: workspace.scope(of: e, in: l), depth: depth, page: page, to: &w)
        default:
            writeVirtual(item, depth: depth, page: page, to: &w)
        }
    }

    private func writeVirtual(_ item: Item, depth: Int, page: TreeRequest.Page? = nil, to w: inout JSONWriter) {
        let info = workspace.describe(item, language)
        let uri = info.path.map(Self.uri)
        var allProject: Project?
        if case .all(let p, _) = item { allProject = p }
        // A section lists its project root's items.
        if depth > 0, case .section(let project, _, _) = item { project.root.listed = true }
        let all = depth > 0 ? workspace.children(item) : []
        let children = page.map { all[$0.range(in: all.count)] } ?? all[...]
        writeFields(
            info, uri: uri, id: Self.sectionID(item), hasChildren: workspace.hasChildren(item),
            childCount: page.map { _ in all.count }, to: &w,
            children: depth > 0
                ? { w in
                    var folder: FolderOfRows?
                    for child in children {
                        switch child {
                        case .entry(let e, let l):
                            // Children of sections live in the project root; of "All", anywhere in the project.
                            guard let project = allProject, let parent = e.parent, e.kind != .directory else {
                                writeEntry(
                                    e, uri: Self.uri(e.path), scope: workspace.scope(of: e, in: l),
                                    depth: depth - 1, to: &w)
                                continue
                            }
                            if folder?.entry !== parent {
                                folder = FolderOfRows(parent, project, scope: workspace.scope(of: e, in: l))
                            }
                            let rows = folder!
                            writeEntry(
                                e, uri: rows.uri(of: e), id: rows.idUnderAll(uri ?? [], e), scope: rows.scope,
                                depth: depth - 1, to: &w)
                        default:
                            writeVirtual(child, depth: depth - 1, to: &w)
                        }
                    }
                } : nil)
    }

    /// "All" lists a project's files folder by folder: each folder's path
    /// and scope are worked out once for its files, not walked up to the
    /// root for every one of them.
    private struct FolderOfRows {
        let entry: Entry
        /// The folder's URI and its path in the project, percent-encoded, each ending in "/".
        let uriPrefix: [UInt8]
        let relativePrefix: [UInt8]
        /// The same for every file of the folder: it depends on the folders above.
        let scope: Scope

        init(_ entry: Entry, _ project: Project, scope: Scope) {
            self.entry = entry
            self.scope = scope
            let path = entry.path
            var uri = NodeRenderer.uri(path)
            uri.append(UInt8(ascii: "/"))
            uriPrefix = uri
            var relative: [UInt8] = []
            if path.count > project.root.path.count {
                FileURI.appendEncoded(Array(path.dropFirst(project.root.path.count + 1)), to: &relative)
                relative.append(UInt8(ascii: "/"))
            }
            relativePrefix = relative
        }

        func uri(of file: Entry) -> [UInt8] {
            var u = uriPrefix
            FileURI.appendEncoded(file.name.bytes, to: &u)
            return u
        }

        /// A row under "All": the same file shows in its own folder, so its
        /// identity is "All"'s URI and the file's path in the project
        /// ("…/.carrel/all#Draft/Spring.md").
        func idUnderAll(_ allURI: [UInt8], _ file: Entry) -> [UInt8] {
            var id = allURI
            id.append(UInt8(ascii: "#"))
            id += relativePrefix
            FileURI.appendEncoded(file.name.bytes, to: &id)
            return id
        }
    }

    private func writeEntry(
        _ entry: Entry, uri: [UInt8], id: [UInt8]? = nil, scope: Scope, depth: Int, page: TreeRequest.Page? = nil,
        to w: inout JSONWriter
    ) {
        // A streamed reply's second writing skips the rows its first already sent.
        guard let span = w.beginSpan() else { return }
        defer { w.endSpan(span) }
        workspace.noteShown(entry)
        if depth > 0, entry.kind == .directory { entry.listed = true }
        let info = workspace.describe(entry, scope, language)
        let item = Item.entry(entry, scope.library)
        let hasChildren = workspace.hasChildren(item)
        guard depth > 0, hasChildren else {
            // An empty folder says so with []; files have no children at all.
            writeFields(
                info, uri: uri, id: id, hasChildren: hasChildren, childCount: page.map { _ in 0 }, to: &w,
                children: depth > 0 && entry.kind == .directory ? { _ in } : nil)
            return
        }
        let all = workspace.children(item)
        let children = page.map { all[$0.range(in: all.count)] } ?? all[...]
        writeFields(info, uri: uri, hasChildren: hasChildren, childCount: page.map { _ in all.count }, to: &w) { w in
            for child in children {
                guard case .entry(let c, _) = child, c.parent === entry else {
                    writeVirtual(child, depth: depth - 1, to: &w)
                    continue
                }
                var u = uri
                u.append(UInt8(ascii: "/"))
                FileURI.appendEncoded(c.name.bytes, to: &u)
                writeEntry(
                    c, uri: u, scope: workspace.scope(ofChild: c, parent: entry, scope), depth: depth - 1, to: &w)
            }
        }
    }

    /// One writer for every node: `Node.write`, which the golden tests pin.
    private func writeFields(
        _ info: NodeInfo, uri: [UInt8]?, id: [UInt8]? = nil, hasChildren: Bool, childCount: Int? = nil,
        to w: inout JSONWriter, children: ((inout JSONWriter) -> Void)?
    ) {
        var n = makeNode(info, uri: uri, hasChildren: hasChildren)
        n.id = id
        n.childCount = childCount
        n.write(to: &w, children: children)
    }

    private func makeNode(_ info: NodeInfo, uri: [UInt8]?, hasChildren: Bool) -> Node {
        var n = Node(
            uri: nil, name: info.name, title: info.title,
            kind: info.kind.rawValue, role: info.role?.rawValue, icon: info.icon, permanent: info.permanent,
            virtual: info.virtual, projectType: info.projectType, folderCount: info.folderCount,
            fileCount: info.fileCount, created: info.created, modified: info.modified, hasChildren: hasChildren)
        n.encodedURI = uri
        n.inTrash = info.inTrash
        n.leftOut = info.leftOut
        n.link = info.link
        n.unreadable = info.unreadable
        n.confirmDelete = info.confirmDelete
        n.linkUpdates = info.linkUpdates.rawValue
        n.fileTotal = info.fileTotal
        n.conflictTotal = info.conflictTotal
        n.counting = info.counting
        let counts = info.counts
        n.words = counts.words
        n.wordsUnsaved = info.wordsUnsaved
        n.target = info.target
        n.sessionWords = info.sessionWords
        n.sessionTarget = info.sessionTarget
        n.summary = CountWords.summary(counts, language)
        if let original = info.conflictOf, let uri, let slash = uri.lastIndex(of: UInt8(ascii: "/")) {
            var u = Array(uri[...slash])
            FileURI.appendEncoded(Array(original.utf8), to: &u)
            n.conflictOf = u
        }
        return n
    }
}
