import CarrelModel

/// What submissions tracking puts to the writer around other commands:
/// the move an acceptance suggests, and the texts as sent that a deletion
/// for good takes with the pieces.
extension Workspace {
    /// Accepted pieces that could go to their project's Published folder.
    public struct PublishOffer {
        /// The pieces' absolute paths, to be looked up again when the writer answers.
        public let pieces: [[UInt8]]
        public let published: [UInt8]
        public let question: Message
    }

    /// The pieces of record `id` (all, or the one named) that are accepted,
    /// in the project, out of the Trash and not already in Published; nil
    /// when there are none or the project has no Published folder.
    public func publishOffer(record id: String, piece: String?) -> PublishOffer? {
        guard let (record, project, _) = try? findRecord(id), let published = project.entry(for: .published),
            let keys = try? pieceKeys(record, piece, project)
        else { return nil }
        var pieces: [Entry] = []
        for p in record.pieces where keys.contains(p.key) && p.status == .accepted {
            guard let e = entry(atRelative: p.path, in: project), !e.isDirectory, !project.isInTrash(e),
                !Self.isBelow(e, published), !pieces.contains(where: { $0 === e })
            else { continue }
            pieces.append(e)
        }
        guard !pieces.isEmpty else { return nil }
        return PublishOffer(
            pieces: pieces.map(\.path), published: published.path,
            question: .submissionOffer(
                .confirmMoveToPublished(pieces: pieces.map(\.name.string), market: record.marketName)))
    }

    static func isBelow(_ entry: Entry, _ folder: Entry) -> Bool {
        var e = entry.parent
        while let p = e {
            if p === folder { return true }
            e = p.parent
        }
        return false
    }

    /// Where records may name what is at or below `entry`: its path, and
    /// for what is in the Trash, the place it was deleted from, since a
    /// delete leaves records naming the origin, where a restore puts it.
    private func placesRecorded(_ entry: Entry, _ project: Project) -> [String] {
        var places = [project.relativePath(of: entry)]
        guard let trash = project.trash else { return places }
        if entry === trash {
            places += trash.children.keys.compactMap { project.metadata.trash[$0.string]?.originalPath }
            return places
        }
        var top = entry
        var rest: [String] = []
        while let parent = top.parent, parent !== trash {
            rest.insert(top.name.string, at: 0)
            top = parent
        }
        if top.parent === trash, let origin = project.metadata.trash[top.name.string]?.originalPath {
            places.append(([origin] + rest).joined(separator: "/"))
        }
        return places
    }

    /// The most pieces a deletion's question names one by one.
    static let sentTextsNamed = 3

    /// For a deletion for good of `target` (or of everything in it, for
    /// the Trash): each piece at or below it whose text as sent is a
    /// snapshot, which goes with it, with the markets it went to.
    public func sentTextsGoing(with target: Target) -> [Message] {
        guard case .entry(let entry, let library) = target, let project = library.project(containing: entry),
            project.root !== entry
        else { return [] }
        return sentTextsGoing(below: entry, project)
    }

    /// As `sentTextsGoing(with:)`, for emptying the Trash of `target`'s project.
    public func sentTextsGoingWithTrash(of target: Target) -> [Message] {
        let project: Project?
        switch target {
        case .entry(let entry, let library): project = library.project(containing: entry)
        case .all(let p, _): project = p
        }
        guard let project, let trash = project.trash else { return [] }
        return sentTextsGoing(below: trash, project)
    }

    private func sentTextsGoing(below entry: Entry, _ project: Project) -> [Message] {
        let places = placesRecorded(entry, project)
        func isBelow(_ path: String) -> Bool { places.contains { path == $0 || path.hasPrefix($0 + "/") } }
        var markets: [String: [String]] = [:]
        for record in submissionIndex(project).scan.records {
            for p in record.pieces where p.snapshot != nil && isBelow(p.path) {
                if !(markets[p.path]?.contains(record.marketName) ?? false) {
                    markets[p.path, default: []].append(record.marketName)
                }
            }
        }
        let paths = markets.keys.sorted { (lastName($0), $0) < (lastName($1), $1) }
        var said: [Message] = paths.prefix(Self.sentTextsNamed).map {
            .submissionOffer(.sentTextGoesToo(piece: lastName($0), markets: markets[$0, default: []].sorted()))
        }
        if paths.count > Self.sentTextsNamed {
            said.append(.submissionOffer(.moreSentTextsGoToo(count: paths.count - Self.sentTextsNamed)))
        }
        return said
    }

    /// Refuses what is not a market, as `submit` would, before a compile
    /// meant for it writes anything.
    public func checkMarket(_ market: Target) throws(Failure) {
        _ = try marketTarget(market)
    }
}
