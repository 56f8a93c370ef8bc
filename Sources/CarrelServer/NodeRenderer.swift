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
        let info = workspace.describe(item, language)
        let uri = info.path.map { p -> [UInt8] in
            var u = Array("file://".utf8)
            FileURI.appendEncoded(p, to: &u)
            return u
        }
        return makeNode(info, uri: uri, hasChildren: workspace.hasChildren(item))
    }

    /// A generous guess at the response size: unwritten capacity costs no memory.
    public func capacity(for items: [Item]) -> Int {
        items.reduce(4096) { total, item in
            guard case .entry(let e, _) = item else { return total }
            return total + e.subtreeSize * 640
        }
    }

    /// Writes a node and `depth` levels below it.
    public func write(_ item: Item, depth: Int, to w: inout JSONWriter) {
        switch item {
        case .entry(let e, let l):
            var uri = Array("file://".utf8)
            FileURI.appendEncoded(e.path, to: &uri)
            writeEntry(e, uri: uri, scope: workspace.scope(of: e, in: l), depth: depth, to: &w)
        default:
            writeVirtual(item, depth: depth, to: &w)
        }
    }

    private func writeVirtual(_ item: Item, depth: Int, to w: inout JSONWriter) {
        let info = workspace.describe(item, language)
        let uri = info.path.map { p -> [UInt8] in
            var u = Array("file://".utf8)
            FileURI.appendEncoded(p, to: &u)
            return u
        }
        let children = depth > 0 ? workspace.children(item) : []
        writeFields(info, uri: uri, hasChildren: workspace.hasChildren(item), to: &w, children: depth > 0 ? { w in
            for child in children {
                switch child {
                case .entry(let e, let l):
                    // Children of sections live in the project root; of "All", anywhere in the project.
                    var u = Array("file://".utf8)
                    FileURI.appendEncoded(e.path, to: &u)
                    writeEntry(e, uri: u, scope: workspace.scope(of: e, in: l), depth: depth - 1, to: &w)
                default:
                    writeVirtual(child, depth: depth - 1, to: &w)
                }
            }
        } : nil)
    }

    private func writeEntry(_ entry: Entry, uri: [UInt8], scope: Scope, depth: Int, to w: inout JSONWriter) {
        let info = workspace.describe(entry, scope, language)
        let item = Item.entry(entry, scope.library)
        let hasChildren = workspace.hasChildren(item)
        guard depth > 0, hasChildren else {
            // An empty folder says so with []; files have no children at all.
            writeFields(info, uri: uri, hasChildren: hasChildren, to: &w, children: depth > 0 && entry.kind == .directory ? { _ in } : nil)
            return
        }
        let children = workspace.children(item)
        writeFields(info, uri: uri, hasChildren: hasChildren, to: &w) { w in
            for child in children {
                guard case .entry(let c, _) = child, c.parent === entry else {
                    writeVirtual(child, depth: depth - 1, to: &w)
                    continue
                }
                var u = uri
                u.append(UInt8(ascii: "/"))
                FileURI.appendEncoded(c.name.bytes, to: &u)
                writeEntry(c, uri: u, scope: workspace.scope(ofChild: c, parent: entry, scope), depth: depth - 1, to: &w)
            }
        }
    }

    /// One writer for every node: `Node.write`, which the golden tests pin.
    private func writeFields(_ info: NodeInfo, uri: [UInt8]?, hasChildren: Bool, to w: inout JSONWriter,
                             children: ((inout JSONWriter) -> Void)?) {
        makeNode(info, uri: uri, hasChildren: hasChildren).write(to: &w, children: children)
    }

    private func makeNode(_ info: NodeInfo, uri: [UInt8]?, hasChildren: Bool) -> Node {
        var n = Node(uri: nil, name: info.name, title: info.title,
                     kind: info.kind.rawValue, role: info.role?.rawValue, icon: info.icon, permanent: info.permanent,
                     virtual: info.virtual, projectType: info.projectType, folderCount: info.folderCount,
                     fileCount: info.fileCount, created: info.created, modified: info.modified, hasChildren: hasChildren)
        n.encodedURI = uri
        n.inTrash = info.inTrash
        n.link = info.link
        n.unreadable = info.unreadable
        return n
    }
}
