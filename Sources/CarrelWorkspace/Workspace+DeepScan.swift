import CarrelModel
import CarrelStore

/// The first scan in two parts, so a library opens before its deep folders
/// are read. Opening reads a library's top two levels (its own listing and
/// each of its folders'); every folder below those is *pending*: in the
/// model, with no children yet. A `BackgroundScan` reads each pending
/// folder's subtree on its own threads, and the owner's thread grafts it
/// onto its entry. A folder a request needs now is read at once, one level
/// (`load`). Grafts and loads are recorded in `progress`, for the owner to
/// tell clients which rows' counts moved.
final class DeepScanState {
    let scan: BackgroundScan
    /// Job token → the pending entry it reads. By entry, not path: a folder
    /// moved or renamed meanwhile keeps its identity.
    var jobs: [Int: Entry] = [:]
    var nextToken = 0
    /// Entries whose listing arrived since the owner last asked.
    var progress: [Entry] = []
    /// The entries sent to a client as rows while the scan runs: the only
    /// ones a client can hold, so the only ones worth updating. A large
    /// library grafts thousands of folders that no client has seen.
    var shown = Set<ObjectIdentifier>()
    /// Pending entries already read again once after being found missing.
    var retried = Set<ObjectIdentifier>()

    init(_ scan: BackgroundScan) { self.scan = scan }
}

extension Workspace {
    /// From now on, libraries open with their top two levels and the rest
    /// is read in the background. `announce` runs on the scan's thread when
    /// subtrees wait to be grafted: the owner then calls `applyFinishedScans`
    /// on its own queue. `hold` (for tests) reads only the top two levels at
    /// open, and keeps finished subtrees back until something needs
    /// everything (`finishScan`). `waitingToStart`: the background reads
    /// nothing until `startReadingDeepFolders` (or `finishScan`), so that
    /// its threads leave the cores to the owner's first answers.
    public func scanDeepFoldersInBackground(
        hold: ScanHold = .none, waitingToStart: Bool = false, announce: @escaping @Sendable () -> Void
    ) {
        guard deepScan == nil else { return }
        let scanHold: BackgroundScan.Hold
        switch hold {
        case .none: scanHold = .none
        case .results: scanHold = .results
        case .reads: scanHold = .reads
        }
        deepScan = DeepScanState(
            BackgroundScan(hold: scanHold, waitingToStart: waitingToStart, announce: announce))
    }

    /// Lets the background scan read, if it waited to start.
    public func startReadingDeepFolders() { deepScan?.scan.start() }

    /// Whether the background scan has begun reading (for the tests).
    public var isReadingDeepFolders: Bool { deepScan?.scan.hasStarted ?? false }

    /// What tests keep back (`BackgroundScan.Hold`): nothing, the read
    /// subtrees, or the reading itself.
    public enum ScanHold: Sendable { case none, results, reads }

    /// Whether any library still has folders the first scan has not read.
    public var isScanning: Bool { !(deepScan?.jobs.isEmpty ?? true) }

    /// The levels always read at open: the library's listing and its folders'.
    static let levelsReadAtOpen = 2
    /// How many entries opening reads before it stops going deeper: a
    /// library of up to this many opens whole, with nothing pending. A
    /// larger one answers as soon as it has read them and its top levels,
    /// rather than reading on for a time its first view does not need: at
    /// 110,000 entries the top two levels are some 1,300 entries, and the
    /// deeper reading was most of what `initialize` waited for.
    public static let entriesReadAtOpen = 2_000
    /// How long opening goes on reading deeper folders at most, from the
    /// start of its scan: a slow disk stops it before `entriesReadAtOpen`.
    static let deeperReadingAtOpenMs: Int64 = 20

    /// Reads `library`'s top levels, and marks the folders below them
    /// pending. Returns the folders read that hold an order file.
    func scanTop(_ library: Library, path: [UInt8]) -> [(Entry, FoundOrder)] {
        guard let state = deepScan else { return Scanner.scanInParallel(library.root, path: path).ordered }
        let deadline = state.scan.isHeld ? 0 : Clock.nowMs() + Self.deeperReadingAtOpenMs
        let (unread, ordered) = Scanner.scanInParallel(
            library.root, path: path, levels: Self.levelsReadAtOpen, until: deadline,
            entryBudget: Self.entriesReadAtOpen)
        for folder in unread { library.markPending(folder) }
        return ordered
    }

    /// Queues every pending folder of `library` that has no job yet.
    func queuePending(_ library: Library) {
        guard let state = deepScan else { return }
        let queued = Set(state.jobs.values.map(ObjectIdentifier.init))
        for e in library.pending.values where !queued.contains(ObjectIdentifier(e)) { queue(e, state) }
    }

    private func queue(_ entry: Entry, _ state: DeepScanState) {
        let token = state.nextToken
        state.nextToken += 1
        state.jobs[token] = entry
        state.scan.enqueue(token: token, path: entry.path)
    }

    /// Reads a pending folder's own listing now; its subfolders become
    /// pending in turn. What a request needs first, ahead of the scan.
    func load(_ entry: Entry, in library: Library) {
        guard library.isPending(entry) else { return }
        library.clearPending(entry)
        let path = entry.path
        let children = Scanner.scanChildren(of: entry, path: path, keepingExisting: true)
        for child in children where child.kind == .directory {
            library.markPending(child)
            if let state = deepScan { queue(child, state) }
        }
        loadOrder(entry, in: library)
        if !wordCaches.isEmpty { queueUncountedWords(below: entry) }
        watching?.watchTree(entry, library: library, workspace: self)
        deepScan?.progress.append(entry)
    }

    /// Reads, one level each, the pending folders that a tree of `item`
    /// `depth` levels deep shows; "All" with its rows needs everything.
    /// Returns what changed on disk meanwhile, found on the way.
    @discardableResult
    public func loadRows(_ item: Item, depth: Int) -> [Change] {
        guard libraries.contains(where: { !$0.pending.isEmpty }) else { return [] }
        switch item {
        case .entry(let e, let library): load(e, in: library)
        case .all: if depth > 0 { return finishScan() }
        case .section: break
        }
        guard depth > 0 else { return [] }
        return children(item).flatMap { loadRows($0, depth: depth - 1) }
    }

    /// Grafts the subtrees the background scan has finished. Returns what
    /// changed on disk meanwhile, where a folder was not at its place.
    public func applyFinishedScans() -> [Change] {
        guard let state = deepScan else { return [] }
        defer { finishCountingPassIfIdle() }
        return state.scan.take().flatMap { graft($0, state) }
    }

    /// Waits for the background scan and grafts everything: for what needs
    /// every folder (search, "All", destinations, commands).
    public func finishScan() -> [Change] {
        guard let state = deepScan else { return [] }
        var changes: [Change] = []
        while !state.jobs.isEmpty {
            for finished in state.scan.takeAll() { changes += graft(finished, state) }
        }
        finishCountingPassIfIdle()
        return changes
    }

    /// Notes that a row went to a client (`shown`), while the scan runs.
    public func noteShown(_ entry: Entry) {
        guard let state = deepScan, !state.jobs.isEmpty else { return }
        state.shown.insert(ObjectIdentifier(entry))
    }

    /// The rows to update for the folders read since the last call: each
    /// such folder and every row above it, of those a client was sent.
    public func takeScanProgress() -> [Item] {
        guard let state = deepScan, !state.progress.isEmpty else { return [] }
        let entries = state.progress
        state.progress = []
        var rows = UpdatedRows()
        for e in entries {
            guard let library = library(of: e) else { continue }
            rows.addChain(from: e, library)
        }
        let shown = state.shown
        if state.jobs.isEmpty { state.shown = [] }
        return rows.items.filter { item in
            switch item {
            case .entry(let e, _): return shown.contains(ObjectIdentifier(e))
            case .section(let p, _, _), .all(let p, _): return shown.contains(ObjectIdentifier(p.root))
            }
        }
    }

    /// Puts a finished subtree in place, by entry. An entry deleted meanwhile
    /// drops it. One that moved before it was read is read again, once, where
    /// it is now; when no folder is there any more (the watcher may not have
    /// told yet, and whoever waits for the scan cannot wait for it), the
    /// nearest folder above it still in its place is reconciled with the
    /// disk. A folder already read (a request loaded it) keeps its own
    /// listing, and only its still-pending subfolders take theirs from the
    /// subtree. Watches come last: `settle` then reconciles every folder
    /// that changed between its read and its watch.
    private func graft(_ finished: BackgroundScan.Finished, _ state: DeepScanState) -> [Change] {
        defer { finished.root.dismantle() }
        guard let entry = state.jobs.removeValue(forKey: finished.token), let library = library(of: entry) else {
            return []
        }
        if finished.missing {
            guard library.isPending(entry) else { return [] }
            if Scanner.stat(entry.path)?.isDirectory == true {
                // Twice not there to open, yet there: shown empty, never read in a loop.
                guard state.retried.insert(ObjectIdentifier(entry)).inserted else {
                    library.clearPending(entry)
                    return []
                }
                queue(entry, state)
                return []
            }
            var above = entry.parent
            while let a = above, Scanner.stat(a.path)?.isDirectory != true { above = a.parent }
            return above.map { reconcile($0) } ?? []
        }
        var stack: [(read: Entry, into: Entry)] = [(finished.root, entry)]
        // A folder read into a pending one takes its place; one moved in whole is itself.
        var placed: [ObjectIdentifier: Entry] = [:]
        defer {
            let orders = finished.ordered.compactMap { read, found in
                placed[ObjectIdentifier(read)].map { ($0, found) }
                    ?? (read.isDescendant(of: library.root) ? (read, found) : nil)
            }
            loadOrders(orders, in: library)
        }
        while let (read, into) = stack.popLast() {
            guard library.isPending(into) else {
                for c in Array(read.children.values) where c.kind == .directory {
                    if let known = into.child(c.name), known.kind == .directory { stack.append((c, known)) }
                }
                continue
            }
            library.clearPending(into)
            placed[ObjectIdentifier(read)] = into
            into.changeStamp = read.changeStamp
            into.unreadable = read.unreadable
            for c in Array(read.children.values) where into.child(c.name) == nil {
                read.remove(c)
                into.add(c)
            }
            // Counting began with what the model held: what arrives later is queued as it comes.
            if !wordCaches.isEmpty { queueUncountedWords(below: into) }
            watching?.watchTree(into, library: library, workspace: self)
            state.progress.append(into)
        }
        return []
    }
}
