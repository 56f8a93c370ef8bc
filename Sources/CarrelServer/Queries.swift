import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelStore
import CarrelWorkspace

extension Server {
    func tree(_ id: RequestID, _ params: TreeRequest.Params) throws(Failure) {
        let items: [Item]
        if let uri = params.uri { items = [item(try target(uri))] } else { items = workspace.roots }
        let depth = params.depth ?? Int.max
        reply(id) { w in
            w.beginArray()
            let r = renderer
            for item in items { r.write(item, depth: depth, to: &w) }
            w.endArray()
        }
    }

    var renderer: NodeRenderer { NodeRenderer(workspace: workspace, language: language) }

    func node(_ item: Item) -> Node { renderer.node(item) }

    func symbols(_ id: RequestID, _ params: WorkspaceSymbolRequest.Params) {
        let query = Array(params.query.lowercased().utf8.filter { $0 != UInt8(ascii: " ") })
        var scored: [(score: Int, entry: Entry, library: Library)] = []
        for library in workspace.libraries {
            library.root.walk { e in
                if e !== library.root, let s = FuzzyMatch.score(query, e.folded) { scored.append((s, e, library)) }
                return e.kind == .directory
            }
        }
        scored.sort { a, b in
            a.score != b.score ? a.score > b.score : Ordering.natural(a.entry.folded, b.entry.folded) < 0
        }
        let symbols: [JSONValue] = scored.prefix(WorkspaceSymbolRequest.limit).map { s in
            let kind: WorkspaceSymbolRequest.Kind = s.library.project(at: s.entry) != nil ? .package : s.entry.isFolderLike ? .namespace : .file
            let crumb = workspace.breadcrumb(s.entry, s.library, language).joined(separator: " › ")
            return WorkspaceSymbolRequest.Symbol(name: s.entry.name.string, kind: kind, uri: FileURI.uri(s.entry.path), containerName: crumb).json
        }
        reply(id, .array(symbols))
    }
}
