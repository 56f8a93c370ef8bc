import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

extension Server {
    func tree(_ id: RequestID, _ params: TreeRequest.Params) throws(Failure) {
        let items: [Item]
        if let uri = params.uri { items = [try target(uri).item] } else { items = workspace.roots }
        let depth = params.depth ?? Int.max
        // The rows shown are read first; a whole subtree waits for the scan.
        var changes: [Change] = []
        if params.depth == nil {
            finishScan()
        } else {
            for item in items { changes += workspace.loadRows(item, depth: depth) }
        }
        reply(id, capacity: renderer.capacity(for: items)) { w in
            w.beginArray()
            let r = renderer
            for item in items { r.write(item, depth: depth, page: params.page, to: &w) }
            w.endArray()
        }
        workspace.startReadingDeepFolders()
        sendScanProgress(changes)
        startCounting()
        sweepSnapshotTemporariesOnce()
    }

    func destinations(_ id: RequestID, _ params: DestinationsRequest.Params) throws(Failure) {
        finishScan()
        let found =
            params.forSubmit
            ? try workspace.submitDestinations(try target(params.uri), language)
            : try workspace.moveDestinations(try target(params.uri), language, forNewFolder: params.forNewFolder)
        reply(
            id,
            .array(
                found.map { DestinationsRequest.Destination(uri: FileURI.uri($0.folder.path), label: $0.label).json }))
    }

    func symbolIndex(_ library: Library) -> SymbolIndex {
        let index = symbolIndexes[ObjectIdentifier(library)] ?? SymbolIndex()
        symbolIndexes[ObjectIdentifier(library)] = index
        index.refresh(library.root)
        return index
    }

    var renderer: NodeRenderer { NodeRenderer(workspace: workspace, language: language) }

    func node(_ item: Item) -> Node { renderer.node(item) }

    /// Best matches first. Keeps only the best `limit` while walking, so a
    /// one-letter query over 100,000 names never sorts them all.
    func symbols(_ id: RequestID, _ params: WorkspaceSymbolRequest.Params) {
        finishScan()
        let query = Ordering.folded(params.query).filter { $0 != UInt8(ascii: " ") }
        var best = TopMatches(limit: WorkspaceSymbolRequest.limit)
        for library in workspace.libraries {
            let index = symbolIndex(library)
            let folders = extensions.folderSymbols
            // A trailing closure with a closure argument: the closure stays
            // non-escaping, so the matches it keeps are not boxed.
            index.search(query, wanted: { best.wouldKeep($0) }) { e, s in
                if folders || !e.isFolderLike { best.offer(s, e, library) }
            }
        }
        let symbols: [JSONValue] = best.ranked.map { m in
            let kind: WorkspaceSymbolRequest.Kind =
                m.library.project(at: m.entry) != nil ? .package : m.entry.isFolderLike ? .namespace : .file
            let crumb = workspace.breadcrumb(m.entry, m.library, language).joined(separator: " › ")
            return WorkspaceSymbolRequest.Symbol(
                name: m.entry.name.string, kind: kind, uri: FileURI.uri(m.entry.path), containerName: crumb
            ).json
        }
        reply(id, .array(symbols))
    }
}

/// The best `limit` matches seen so far, best first; ties in natural name order.
struct TopMatches {
    struct Match {
        let score: Int
        let entry: Entry
        let library: Library
    }
    let limit: Int
    private(set) var matches: [Match] = []

    init(limit: Int) {
        self.limit = limit
        matches.reserveCapacity(limit + 1)
    }

    static func better(_ a: (Match, [UInt8]), _ b: (Match, [UInt8])) -> Bool {
        a.0.score != b.0.score ? a.0.score > b.0.score : Ordering.natural(a.1, b.1) < 0
    }

    /// Whether a match with this score would be kept now: not when the
    /// list is full and it is no better than the worst kept.
    func wouldKeep(_ score: Int) -> Bool {
        matches.count < limit || score > matches[matches.count - 1].score
    }

    /// Cheap for the common case: when full, anything not strictly better
    /// than the worst kept is dropped at once (ties keep the first seen).
    mutating func offer(_ score: Int, _ entry: Entry, _ library: Library) {
        if matches.count == limit, let last = matches.last, score <= last.score { return }
        let m = Match(score: score, entry: entry, library: library)
        var lo = 0
        var hi = matches.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if matches[mid].score >= score { lo = mid + 1 } else { hi = mid }
        }
        matches.insert(m, at: lo)
        if matches.count > limit { matches.removeLast() }
    }

    /// Best first; equal scores in natural name order.
    var ranked: [Match] { matches.map { ($0, $0.entry.folded) }.sorted(by: Self.better).map(\.0) }
}
