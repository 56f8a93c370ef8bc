import CarrelModel
import CarrelStore

/// A project's submission records as read, and what its rows say of them:
/// for each piece's path the tally of its submissions, for each market's
/// current path the tally of what it holds. Built on first need, and
/// dropped whenever the watcher sees `.carrel` change or a submissions
/// command writes, so it is read again from the files.
public final class SubmissionIndex {
    public let scan: SubmissionRecords.Scan
    /// Each record's market where it is now; absent when the market is gone.
    public let marketOf: [String: Entry]
    /// The library root's `generation` when built: entries it holds may have moved since.
    let generation: Int
    var byPiece: [String: SubmissionTally] = [:]
    var byMarket: [ObjectIdentifier: SubmissionTally] = [:]

    public var isEmpty: Bool { scan.records.isEmpty }

    init(scan: SubmissionRecords.Scan, marketOf: [String: Entry], generation: Int) {
        self.scan = scan
        self.marketOf = marketOf
        self.generation = generation
        for record in scan.records {
            for piece in record.pieces { byPiece[piece.path, default: SubmissionTally()].add(piece.status) }
            if let market = marketOf[record.id] {
                for piece in record.pieces {
                    byMarket[ObjectIdentifier(market), default: SubmissionTally()].add(piece.status)
                }
            }
        }
    }

    public func record(_ id: String) -> Submission? { scan.records.first { $0.id == id } }

    /// Records holding the piece at `path`.
    public func records(withPiece path: String) -> [Submission] {
        scan.records.filter { r in r.pieces.contains { $0.path == path } }
    }
}

extension Workspace {
    /// The folder roles whose folders are markets.
    static let marketRoles: Set<FolderRole> = ["magazines", "competitions", "commissions", "other"].map {
        FolderRole(rawValue: $0)
    }.reduce(into: []) { $0.insert($1) }

    /// Whether `entry` is a market: a folder directly in one of its
    /// project's Magazines, Competitions, Commissions or Other.
    func isMarket(_ entry: Entry, in project: Project) -> Bool {
        guard entry.kind == .directory, let parent = entry.parent,
            let folder = project.permanentFolder(for: parent)
        else { return false }
        return Self.marketRoles.contains(folder.role)
    }

    /// Every market folder of `project`.
    func markets(of project: Project) -> [Entry] {
        project.type.directories.filter { Self.marketRoles.contains($0.role) }.compactMap { project.entry(for: $0) }
            .flatMap { $0.children.values.filter { $0.kind == .directory }.sorted { $0.name.string < $1.name.string } }
    }

    /// The entry at a "/"-separated path in `project`, if the model has one.
    public func entry(atRelative path: String, in project: Project) -> Entry? {
        var e = project.root
        for part in path.split(separator: "/") {
            guard let next = e.child(String(part)) else { return nil }
            e = next
        }
        return e
    }

    /// The project's index, read from its records when there is none.
    public func submissionIndex(_ project: Project) -> SubmissionIndex {
        // A rename, move or delete anywhere changes the root's generation:
        // the markets found by path or id are found again.
        if let index = project.submissions, index.generation == project.root.root.generation { return index }
        var scan = SubmissionRecords.Scan()
        if let carrel = try? ProjectFile.carrelFolder(project.root.path),
            let dir = try? SubmissionRecords.folder(in: carrel, create: false)
        {
            scan = SubmissionRecords.scan(dir)
        }
        var marketOf: [String: Entry] = [:]
        var ids: [ObjectIdentifier: String?] = [:]
        func id(of market: Entry) -> String? {
            if let known = ids[ObjectIdentifier(market)] { return known }
            guard let library = library(of: market) else { return nil }
            let found = (try? open(market, in: library)).map { MarketFile.read(in: $0).id } ?? nil
            ids[ObjectIdentifier(market)] = found
            return found
        }
        var all: [Entry]?
        for record in scan.records {
            if let e = entry(atRelative: record.marketPath, in: project), isMarket(e, in: project),
                record.marketID == nil || id(of: e) == record.marketID
            {
                marketOf[record.id] = e
            } else if let wanted = record.marketID {
                // Renamed or moved since: its file, which went with it, says which it is.
                if all == nil { all = markets(of: project) }
                if let e = all?.first(where: { id(of: $0) == wanted }) { marketOf[record.id] = e }
            }
        }
        let index = SubmissionIndex(scan: scan, marketOf: marketOf, generation: project.root.root.generation)
        project.submissions = index
        return index
    }

    /// What a row of `project` says of submissions: a piece's tally, or a market's.
    func submissionTally(_ entry: Entry, in project: Project) -> (SubmissionTally, atMarket: Bool)? {
        let index = submissionIndex(project)
        guard !index.isEmpty else { return nil }
        if entry.kind == .file {
            return index.byPiece[project.relativePath(of: entry)].map { ($0, false) }
        }
        return index.byMarket[ObjectIdentifier(entry)].map { ($0, true) }
    }
}
