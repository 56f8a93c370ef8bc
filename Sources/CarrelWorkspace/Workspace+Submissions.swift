import CarrelModel
import CarrelStore
import Glibc

/// Submissions tracking: a market's details, the record of what went
/// where, and each piece's status there. Each command checks everything
/// before its first write, and writes under the project's lock.
extension Workspace {
    /// A submission as listed: the record, its project, and where its market is now.
    public struct ListedSubmission {
        public let record: Submission
        public let project: Project
        public let library: Library
        /// The market's folder now; nil when it is gone (the record keeps its name).
        public let market: Entry?
    }

    /// A record skipped in a listing, and why.
    public struct SkippedRecord {
        public let name: String
        public let project: Project
        public let message: Message
    }

    /// The market `target` is, with its project; refused with what it is not.
    func marketTarget(_ target: Target) throws(Failure) -> (Entry, Project, Library) {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard let project = library.project(containing: entry), isMarket(entry, in: project),
            !project.isInTrash(entry)
        else { throw Failure(.notAMarket, .submission(.notAMarket(name: title(of: entry, in: library)))) }
        return (entry, project, library)
    }

    /// The details of a market as its file holds them.
    public func marketDetails(_ target: Target) throws(Failure) -> MarketDetails {
        let (entry, _, library) = try marketTarget(target)
        return MarketFile.read(in: try open(entry, in: library)).details
    }

    /// Sets a market's details: a string (nil clears a field), checked per field.
    public func setMarket(_ target: Target, _ fields: [MarketDetails.Field: MarketDetails.Value]) throws(Failure)
        -> Outcome
    {
        let (entry, project, library) = try marketTarget(target)
        for (field, value) in fields { try Self.checkMarketField(field, value) }
        let dir = try open(entry, in: library)
        do throws(ProjectFile.Problem) {
            _ = try ProjectFile.locked(project.root.path) { _ throws(ProjectFile.Problem) in
                do throws(SysError) { try MarketFile.write(fields, in: dir) } catch { throw .sys(error) }
            }
        } catch {
            if case .sys(let e) = error { throw marketFileFailure(e) }
            throw failure(for: error, projectPath: project.root.path)
        }
        project.submissions = nil
        return Outcome(
            result: .item(.entry(entry, library)), changes: [Change(.changed, entry.path)],
            report: .marketSaved(market: entry.name.string))
    }

    /// What is in the market file's place is named; anything else is the disk's own refusal.
    func marketFileFailure(_ e: SysError) -> Failure {
        let why: String
        switch e.refusal {
        case .wrongKind(let found, _)?: why = "it is \(found.englishWords), not a file"
        case .tooLarge(let limit)?: why = "it is larger than \(limit) bytes"
        case nil where e.code == 5 && e.operation == "read": why = "it is not a market file Carrel can read"
        default: return failure(for: e)
        }
        return Failure(.io, .submission(.marketFileUnusable(path: e.path, why: why)))
    }

    /// A field's value as the wire or the CLI gives it: text, a date, yes/no, or null to clear.
    static func checkMarketField(_ field: MarketDetails.Field, _ value: MarketDetails.Value) throws(Failure) {
        let given: String
        switch value {
        case .clear: return
        case .flag(let b):
            if field == .simultaneous { return }
            given = b ? "true" : "false"
        case .text(let s):
            given = s
            let fits = !s.isEmpty && s.count <= field.maxLength && !s.contains("\0")
            if field == .deadline ? SubmissionDay(s) != nil : (field != .simultaneous && fits) { return }
        }
        throw Failure(.invalidParams, .submission(.badField(field: field.rawValue, given: given)))
    }

    // MARK: Submitting

    /// Where the pieces are out already when the market refuses simultaneous
    /// submissions: (market's name, pieces, markets), or nil when nothing to ask.
    public func simultaneousConflict(_ pieces: [Target], to market: Target) throws(Failure) -> (
        market: String, pieces: [String], elsewhere: [String]
    )? {
        let (entry, project, library) = try marketTarget(market)
        let details = MarketFile.read(in: try open(entry, in: library)).details
        guard details.simultaneous == false else { return nil }
        let index = submissionIndex(project)
        var names: [String] = []
        var elsewhere: [String] = []
        for target in pieces {
            let (piece, _) = try entryTarget(target)
            let path = project.relativePath(of: piece)
            let out = index.records(withPiece: path).filter { r in
                index.marketOf[r.id] !== entry && r.pieces.contains { $0.path == path && $0.status.isOut }
            }
            guard !out.isEmpty else { continue }
            names.append(piece.name.string)
            for r in out where !elsewhere.contains(r.marketName) { elsewhere.append(r.marketName) }
        }
        return names.isEmpty ? nil : (details.name ?? entry.name.string, names, elsewhere)
    }

    /// Records pieces sent to a market on `day` (today, UTC, by default):
    /// a snapshot of each piece, titled with the market, then the record
    /// naming them.
    public func submit(_ pieces: [Target], to market: Target, day: SubmissionDay?, packet: Target? = nil)
        throws(Failure) -> (Outcome, ListedSubmission)
    {
        let (marketEntry, project, library) = try marketTarget(market)
        guard !pieces.isEmpty else { throw Failure(.invalidParams, .submission(.noPieces)) }
        guard pieces.count <= SubmissionRecords.pieceLimit else {
            throw Failure(.invalidParams, .submission(.tooManyPieces(limit: SubmissionRecords.pieceLimit)))
        }
        var entries: [Entry] = []
        for target in pieces {
            let (piece, pieceLibrary) = try entryTarget(target)
            let name = title(of: piece, in: pieceLibrary)
            if piece.kind == .symlink { throw Failure(.outsideWorkspace, .isLink(name: name)) }
            guard piece.kind == .file else {
                // A folder is the caller's choice; a pipe or a device is what the disk holds.
                throw Failure(
                    piece.kind == .directory ? .invalidParams : .io, .submission(.pieceNotAFile(name: name)))
            }
            guard pieceLibrary === library, library.project(containing: piece) === project else {
                throw Failure(
                    .notInProject, .submission(.pieceElsewhere(name: name, project: project.root.name.string)))
            }
            if project.isInTrash(piece) { throw Failure(.inTrash, .submission(.pieceInTrash(name: name))) }
            if !entries.contains(where: { $0 === piece }) { entries.append(piece) }
        }
        var packetPath: String?
        if let packet {
            let (p, _) = try entryTarget(packet)
            guard p.kind == .file, library.project(containing: p) === project else {
                throw Failure(.invalidParams, .submission(.pieceNotAFile(name: p.name.string)))
            }
            packetPath = project.relativePath(of: p)
        }
        let marketDir = try open(marketEntry, in: library)
        let found = MarketFile.read(in: marketDir)
        let pieceDirs = try entries.map { (e: Entry) throws(Failure) in try open(e.parent!, in: library) }
        // A piece too large, or no longer a file, is refused before anything is written.
        for (piece, from) in zip(entries, pieceDirs) {
            do { try from.checkCopy(piece.name.bytes, limits: Self.pieceLimits) } catch {
                throw failure(for: error, name: piece.name.string)
            }
        }
        let texts = try entries.map { (e: Entry) throws(Failure) in try readForSnapshot(e, library).bytes }
        let projectDir = try open(project.root, in: library)
        let marketName = found.details.name ?? marketEntry.name.string
        let title = SnapshotName.fittingTitle(SnapshotMessage.titleSentTo(market: marketName).english)
        let sent = day ?? SubmissionDay(epochMs: Clock.nowMs())
        let id = SubmissionRecords.newID()
        let record: Submission
        // A snapshot's own refusal, said as it is rather than as the lock's.
        var snapshotRefusal: Failure?
        do throws(ProjectFile.Problem) {
            record = try ProjectFile.locked(project.root.path) { lock throws(ProjectFile.Problem) -> Submission in
                do throws(SysError) {
                    // The folder first: one that cannot hold records refuses the
                    // submission before the market's file is touched.
                    guard let dir = try SubmissionRecords.folder(in: lock.carrelDir, create: true) else {
                        throw SysError("open", "submissions", code: 2)
                    }
                    // The market gets an id, so the record finds it after a rename.
                    var marketID = found.id
                    if marketID == nil { marketID = try MarketFile.write([:], in: marketDir).id }
                    var taken: [SnapshotInfo] = []
                    do throws(SysError) {
                        var listed: [(path: String, snapshot: String?, packet: String?)] = []
                        for (piece, text) in zip(entries, texts) {
                            do throws(Failure) {
                                taken.append(
                                    try writeSnapshot(text, of: piece, in: library, projectDir, project, title: title))
                            } catch {
                                snapshotRefusal = error
                                throw SysError("write", piece.name.string, code: EIO)
                            }
                            listed.append((project.relativePath(of: piece), taken.last!.name.fileName, packetPath))
                        }
                        let new = SubmissionRecords.NewRecord(
                            id: id, marketPath: project.relativePath(of: marketEntry), marketName: marketName,
                            marketID: marketID, sent: sent, pieces: listed)
                        try SubmissionRecords.create(new, in: dir)
                    } catch {
                        // Refused part way: the snapshots taken so far go, so nothing is recorded.
                        for info in taken { _ = unlink(info.path.map { CChar(bitPattern: $0) } + [0]) }
                        throw error
                    }
                    guard
                        case .success(let (r, _)) = SubmissionRecords.read(
                            Array((id + ".json").utf8), copies: [], in: dir)
                    else { throw SysError("read", id, code: 5) }
                    return r
                } catch { throw .sys(error) }
            }
        } catch {
            if let snapshotRefusal { throw snapshotRefusal }
            if case .sys(let e) = error { throw failure(for: e) }
            throw failure(for: error, projectPath: project.root.path)
        }
        project.submissions = nil
        var daysLeft: Int?
        if let deadline = found.details.deadline {
            let left = deadline.ordinal - sent.ordinal
            if left <= 7 { daysLeft = left }
        }
        let report = Report.submitted(
            pieces: entries.map { $0.name.string }, market: record.marketName, day: sent.description,
            deadline: daysLeft == nil ? nil : found.details.deadline?.description, daysLeft: daysLeft)
        let changes = entries.map { Change(.changed, $0.path) } + [Change(.changed, marketEntry.path)]
        let listed = ListedSubmission(record: record, project: project, library: library, market: marketEntry)
        return (Outcome(result: .item(.entry(marketEntry, library)), changes: changes, report: report), listed)
    }

    /// One piece's text as sent: a file of at most what Carrel reads.
    static let pieceLimits = Directory.CopyLimits(bytes: 16 << 20, items: 1)

    // MARK: Status

    /// The project holding record `id`, and the record; refused when none
    /// does, or when the one named could not be read.
    func findRecord(_ id: String) throws(Failure) -> (Submission, Project, Library) {
        for library in libraries {
            for project in library.projects.values.sorted(by: { $0.root.name.string < $1.root.name.string }) {
                let index = submissionIndex(project)
                if let r = index.record(id) { return (r, project, library) }
                if let skipped = index.scan.skipped.first(where: { $0.name == id + ".json" }) {
                    throw Failure(
                        .io, .submission(.recordUnusable(id: id, why: Self.describe(skipped.why))))
                }
            }
        }
        throw Failure(.notFound, .submission(.recordNotFound(id: id)))
    }

    /// The keys of the record's pieces `piece` names: its key, its path in
    /// the project, or its file's path; all of them when nil.
    func pieceKeys(_ record: Submission, _ piece: String?, _ project: Project) throws(Failure) -> [String] {
        guard let piece else { return record.pieces.map(\.key) }
        let keys = record.pieces.filter { $0.key == piece || $0.path == piece }.map(\.key)
        guard !keys.isEmpty else {
            throw Failure(.notFound, .submission(.pieceNotInRecord(id: record.id, piece: piece)))
        }
        return keys
    }

    /// A piece's path in the project, from a URI's target.
    public func piecePath(_ target: Target) throws(Failure) -> String {
        let (entry, library) = try entryTarget(target)
        guard let project = library.project(containing: entry) else {
            throw Failure(.notInProject, .submission(.pieceNotAFile(name: entry.name.string)))
        }
        return project.relativePath(of: entry)
    }

    /// Sets the status of a record's pieces (all, or the one named) from `day` (today by default).
    public func setSubmissionStatus(
        record id: String, piece: String?, _ status: SubmissionStatus, day: SubmissionDay?, note: String?,
        fee: String? = nil
    ) throws(Failure) -> Outcome {
        let (record, project, library) = try findRecord(id)
        try checkUnlocked(project.root, library)
        let keys = try pieceKeys(record, piece, project)
        let change = SubmissionRecords.StatusChange(
            status: status, day: day ?? SubmissionDay(epochMs: Clock.nowMs()), note: note)
        let updated = try updateRecord(id, keys, change, fee: fee, project)
        var stillOut: [String] = []
        if status == .accepted {
            let index = submissionIndex(project)
            for key in keys {
                guard let path = updated.pieces.first(where: { $0.key == key })?.path else { continue }
                for other in index.records(withPiece: path) where other.id != id {
                    if other.pieces.contains(where: { $0.path == path && $0.status.isOut }),
                        !stillOut.contains(other.marketName)
                    {
                        stillOut.append(other.marketName)
                    }
                }
            }
        }
        stillOut.sort()
        let published =
            status == .accepted && project.entry(for: .published) != nil ? PermanentFolder.published.diskName : nil
        let names = updated.pieces.filter { keys.contains($0.key) }.map { lastName($0.path) }
        let report = Report.submissionStatusSet(
            piece: names.joined(separator: "”, “"), market: record.marketName, status: status, stillOut: stillOut,
            published: published)
        return Outcome(
            result: .item(.entry(project.root, library)), changes: rowsOf(updated, in: project), report: report)
    }

    /// Withdraws a piece accepted in `record` from every other market where it is still out.
    public func withdrawOthers(record id: String, piece: String?) throws(Failure) -> Outcome {
        let (record, project, library) = try findRecord(id)
        try checkUnlocked(project.root, library)
        let keys = try pieceKeys(record, piece, project)
        guard let accepted = record.pieces.first(where: { keys.contains($0.key) && $0.status == .accepted }) else {
            throw Failure(
                .invalidParams,
                .submission(.notAccepted(piece: lastName(record.pieces.first { keys.contains($0.key) }?.path ?? ""))))
        }
        var withdrawn: [String] = []
        var changes: [Change] = []
        let today = SubmissionDay(epochMs: Clock.nowMs())
        for other in submissionIndex(project).records(withPiece: accepted.path) where other.id != id {
            let out = other.pieces.filter { $0.path == accepted.path && $0.status.isOut }.map(\.key)
            guard !out.isEmpty else { continue }
            let updated = try updateRecord(other.id, out, .init(status: .withdrawn, day: today), project)
            withdrawn.append(other.marketName)
            changes += rowsOf(updated, in: project)
        }
        return Outcome(
            result: .item(.entry(project.root, library)), changes: changes,
            report: .withdrewElsewhere(piece: lastName(accepted.path), markets: withdrawn.sorted()))
    }

    private func updateRecord(
        _ id: String, _ keys: [String], _ change: SubmissionRecords.StatusChange, fee: String? = nil,
        _ project: Project
    ) throws(Failure) -> Submission {
        do throws(ProjectFile.Problem) {
            let r = try ProjectFile.locked(project.root.path) { lock throws(ProjectFile.Problem) -> Submission in
                guard let dir = try? SubmissionRecords.folder(in: lock.carrelDir, create: false) else {
                    throw .sys(SysError("open", "submissions", code: 2))
                }
                do throws(SubmissionRecords.UpdateProblem) {
                    return try SubmissionRecords.update(id, pieces: keys, change, fee: fee, in: dir)
                } catch {
                    switch error {
                    case .sys(let e): throw .sys(e)
                    case .noRecord: throw .sys(SysError("open", id, code: 2))
                    case .unreadable(let why): throw .corrupt(Self.describe(why))
                    }
                }
            }
            project.submissions = nil
            return r
        } catch {
            project.submissions = nil
            if case .sys(let e) = error { throw failure(for: e) }
            if case .corrupt(let why) = error { throw Failure(.io, .submission(.recordUnusable(id: id, why: why))) }
            throw failure(for: error, projectPath: project.root.path)
        }
    }

    /// The rows a record's change alters: its pieces and its market, where they are now.
    func rowsOf(_ record: Submission, in project: Project) -> [Change] {
        var changes = record.pieces.compactMap { p in
            entry(atRelative: p.path, in: project).map { Change(.changed, $0.path) }
        }
        if let market = submissionIndex(project).marketOf[record.id] { changes.append(Change(.changed, market.path)) }
        return changes
    }

    func lastName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    // MARK: Listing

    /// Submissions of every project, or of the one `scope` is in: a piece's
    /// history for a file, a market's for a market folder. Pending first,
    /// then newest first.
    public func submissions(in scope: Target?, pendingOnly: Bool) throws(Failure) -> (
        [ListedSubmission], [SkippedRecord]
    ) {
        var projects: [(Project, Library)] = []
        var piecePath: String?
        var market: Entry?
        if let scope {
            let (entry, library) = try entryTarget(scope)
            guard let project = library.project(containing: entry) else {
                throw Failure(.notInProject, .submission(.notAMarket(name: title(of: entry, in: library))))
            }
            projects = [(project, library)]
            if entry.kind == .file { piecePath = project.relativePath(of: entry) }
            if isMarket(entry, in: project) { market = entry }
        } else {
            for library in libraries {
                for project in library.projects.values { projects.append((project, library)) }
            }
        }
        var listed: [ListedSubmission] = []
        var skipped: [SkippedRecord] = []
        for (project, library) in projects {
            let index = submissionIndex(project)
            for r in index.scan.records {
                if pendingOnly && !r.isPending { continue }
                if let piecePath, !r.pieces.contains(where: { $0.path == piecePath }) { continue }
                if let market, index.marketOf[r.id] !== market { continue }
                listed.append(
                    ListedSubmission(record: r, project: project, library: library, market: index.marketOf[r.id]))
            }
            for s in index.scan.skipped {
                skipped.append(
                    SkippedRecord(
                        name: s.name, project: project,
                        message: .submission(.skipped(name: s.name, why: Self.describe(s.why)))))
            }
        }
        listed.sort { Submission.listingOrder($0.record, $1.record) }
        return (listed, skipped)
    }

    static func describe(_ why: SubmissionRecords.SkipReason) -> String {
        switch why {
        case .file(.notAFile(let kind)): return "it is \(kind.englishWords), not a file"
        case .file(.tooLarge(let limit)): return "it is larger than \(limit) bytes"
        case .file(.notJSON): return "it is not JSON"
        case .file(.unreadable(let detail)): return "it cannot be read (\(detail))"
        case .notARecord(let detail): return "it is not a submission record (\(detail))"
        case .pieceOutside(let path): return "it names “\(path)”, which is not a path inside the project"
        }
    }

    // MARK: Pieces Carrel renames or moves

    /// The submitted pieces at or below `entry`, by path in its project,
    /// before a rename or move: `carryPieces` needs them after.
    func piecesBelow(_ entry: Entry, _ library: Library) -> (Project, String, [String])? {
        guard let project = library.project(containing: entry), project.root !== entry else { return nil }
        let index = submissionIndex(project)
        guard !index.isEmpty else { return nil }
        let old = project.relativePath(of: entry)
        let ids = index.scan.records.filter { r in r.pieces.contains { $0.path == old || $0.path.hasPrefix(old + "/") }
        }
        .map(\.id)
        return ids.isEmpty ? nil : (project, old, ids)
    }

    /// A submission's pieces follow Carrel's rename or move within their
    /// project, so their history stays theirs. Bookkeeping after the files
    /// moved: a record that cannot be written keeps the old path, and the
    /// piece shows no submissions until moved back.
    func carryPieces(_ entry: Entry, from before: (Project, String, [String])?, _ library: Library) {
        guard let (project, old, ids) = before, library.project(containing: entry) === project,
            !project.isInTrash(entry)
        else { return }
        let new = project.relativePath(of: entry)
        guard new != old else { return }
        _ = try? ProjectFile.locked(project.root.path) { lock throws(ProjectFile.Problem) in
            guard let dir = try? SubmissionRecords.folder(in: lock.carrelDir, create: false) else { return }
            for id in ids { _ = try? SubmissionRecords.movePieces(id, from: old, to: new, in: dir) }
        }
        project.submissions = nil
    }
}
