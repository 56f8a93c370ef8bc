import CarrelModel
import CarrelStore

/// Submissions a writer tracked elsewhere (Chillsubs' CSV), recorded as
/// Carrel's own: each row's piece found by its title among the project's
/// files, its market by name among the project's markets. A row that names
/// neither, or is recorded already, is left out and said why; the text
/// sent then is unknown, so no copy is kept.
extension Workspace {
    public func importSubmissions(_ rows: [ChillsubsCSV.Row], into target: Target) throws(Failure) -> (
        imported: Int, skipped: [(line: Int, why: SubmissionMessage.ImportSkip)]
    ) {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard let project = library.project(containing: entry) else {
            throw Failure(.notInProject, .submission(.notAMarket(name: title(of: entry, in: library))))
        }
        var byTitle: [[UInt8]: [Entry]] = [:]
        project.root.walk { e in
            if e === project.trash { return false }
            if e.kind == .file {
                let name = e.name.string
                let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
                byTitle[Ordering.folded(stem), default: []].append(e)
            }
            return e.kind == .directory
        }
        var byName: [[UInt8]: Entry] = [:]
        for market in markets(of: project) {
            byName[Ordering.folded(market.name.string)] = market
            if let dir = try? open(market, in: library), let name = MarketFile.read(in: dir).details.name {
                byName[Ordering.folded(name)] = market
            }
        }
        var skipped: [(Int, SubmissionMessage.ImportSkip)] = []
        var imported = 0
        for row in rows {
            let pieces = byTitle[Ordering.folded(row.title)] ?? []
            guard let piece = pieces.first else { skipped.append((row.line, .noPiece(title: row.title))); continue }
            guard pieces.count == 1 else {
                skipped.append((row.line, .ambiguousPiece(title: row.title, count: pieces.count)))
                continue
            }
            guard let market = byName[Ordering.folded(row.publisher)] else {
                skipped.append((row.line, .noMarket(publisher: row.publisher)))
                continue
            }
            let path = project.relativePath(of: piece)
            let index = submissionIndex(project)
            if index.records(withPiece: path).contains(where: {
                index.marketOf[$0.id] === market && $0.sent == row.sent
            }) {
                skipped.append((row.line, .alreadyRecorded))
                continue
            }
            try record(row, piece: path, market: market, in: project, library)
            imported += 1
        }
        return (imported, skipped)
    }

    private func record(_ row: ChillsubsCSV.Row, piece: String, market: Entry, in project: Project, _ library: Library)
        throws(Failure)
    {
        let marketDir = try open(market, in: library)
        let found = MarketFile.read(in: marketDir)
        let id = SubmissionRecords.newID()
        do throws(ProjectFile.Problem) {
            try ProjectFile.locked(project.root.path) { lock throws(ProjectFile.Problem) in
                do throws(SysError) {
                    guard let dir = try SubmissionRecords.folder(in: lock.carrelDir, create: true) else { return }
                    var marketID = found.id
                    if marketID == nil { marketID = try MarketFile.write([:], in: marketDir).id }
                    try SubmissionRecords.create(
                        .init(
                            id: id, marketPath: project.relativePath(of: market),
                            marketName: found.details.name ?? market.name.string, marketID: marketID, sent: row.sent,
                            pieces: [(piece, nil, nil)]), in: dir)
                    guard row.status != .pending || row.note != nil else { return }
                    let change = SubmissionRecords.StatusChange(
                        status: row.status, day: row.result ?? row.sent, note: row.note)
                    do throws(SubmissionRecords.UpdateProblem) {
                        _ = try SubmissionRecords.update(id, pieces: ["1"], change, in: dir)
                    } catch {
                        if case .sys(let e) = error { throw e }
                    }
                } catch { throw .sys(error) }
            }
        } catch {
            project.submissions = nil
            if case .sys(let e) = error { throw failure(for: e) }
            throw failure(for: error, projectPath: project.root.path)
        }
        project.submissions = nil
    }
}
