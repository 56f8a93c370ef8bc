import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// Turns workspace items into wire Nodes. Shared by the server and `carrel tree --json`.
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
        var n = Node(uri: info.path.map(FileURI.uri), name: info.name, title: info.title, kind: info.kind.rawValue,
                     role: info.role?.rawValue, icon: info.icon, permanent: info.permanent, virtual: info.virtual,
                     projectType: info.projectType, folderCount: info.folderCount, fileCount: info.fileCount,
                     created: info.created, modified: info.modified, hasChildren: workspace.hasChildren(item))
        n.inTrash = info.inTrash
        n.link = info.link
        n.unreadable = info.unreadable
        return n
    }

    /// Writes a node and `depth` levels below it straight to bytes, with no Node tree in between.
    public func write(_ item: Item, depth: Int, to w: inout JSONWriter) {
        let n = node(item)
        guard depth > 0 else { n.write(to: &w, children: nil); return }
        n.write(to: &w) { w in
            for child in workspace.children(item) { write(child, depth: depth - 1, to: &w) }
        }
    }
}
