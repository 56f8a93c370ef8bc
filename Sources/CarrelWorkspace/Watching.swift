import CarrelModel
import CarrelStore
import Glibc

/// Which directories have which inotify watch, and which must be polled.
final class WatchState {
    let watcher: Watcher?
    var entryOf: [Int32: Entry] = [:]
    var watchOf: [ObjectIdentifier: Int32] = [:]
    /// Watches on projects' `.carrel` folders, to see project.json change.
    var projectOf: [Int32: Entry] = [:]
    var polled: [ObjectIdentifier: Entry] = [:]
    /// Where the last poll stopped stat-ing polled folders' files.
    var filePollCursor = 0
    /// Folders that changed between their scan and their watch: reconcile them.
    var stale: [Entry] = []
    var expected = ExpectedEvents()
    var syncRenames = SyncRenames()
    var identityMoves = IdentityMoves()
    /// Where this batch's identity moves went: a `created` there, told in
    /// the same batch, was the move's other side.
    var identityMoved: Set<[UInt8]> = []
    /// Renames another program made on this machine, for the owner to offer
    /// their links' update (`takeOutsideMoves`).
    var outsideMoves: [Change] = []
    /// How many folders `reconcile` has read, for tests of what it skips.
    var folderReads = 0
    var warned = false
    let log: (String) -> Void

    init(watcher: Watcher?, log: @escaping (String) -> Void) {
        self.watcher = watcher
        self.log = log
    }

    func watchTree(_ top: Entry, library: Library, workspace: Workspace) {
        top.walk { e in
            guard e.kind == .directory else { return false }
            // A folder not read yet is watched too: a rename in it is then
            // still seen as one move, read when its events come.
            watch(e)
            guard !library.isPending(e) else { return false }
            if library.project(at: e) != nil || e === library.root || e.parent === library.root { watchMarker(of: e) }
            return true
        }
    }

    private func watch(_ e: Entry) {
        let id = ObjectIdentifier(e)
        guard watchOf[id] == nil, polled[id] == nil else { return }
        guard let watcher else { polled[id] = e; return }
        let path = e.path
        switch watcher.add(path) {
        case .added(let wd):
            entryOf[wd] = e
            watchOf[id] = wd
            // The scan came first; anything that changed since shows in the folder's mtime.
            if let st = Scanner.stat(path), st.change_ns != e.changeStamp { stale.append(e) }
        case .noWatchesLeft:
            if !warned {
                warned = true
                log(
                    "warning: inotify watches exhausted (fs.inotify.max_user_watches); polling the remaining folders every 0.5 s"
                )
            }
            polled[id] = e
        case .failed:
            polled[id] = e
        }
    }

    /// The `.carrel` folder of a project (or would-be project), and its
    /// Trash records, where they exist.
    func watchMarker(of e: Entry) {
        guard let watcher else { return }
        let carrel = BytePath.join(e.path, ProjectFile.directoryName)
        if case .added(let wd) = watcher.add(carrel) { projectOf[wd] = e }
        // Trash records arrive from other machines too (a pull, a sync).
        if case .added(let wd) = watcher.add(BytePath.join(carrel, TrashRecords.folderName)) { projectOf[wd] = e }
        // Submission records too: a status changed on another machine shows on its rows here.
        if case .added(let wd) = watcher.add(BytePath.join(carrel, SubmissionRecords.folderName)) { projectOf[wd] = e }
    }

    func unwatchTree(_ top: Entry) {
        top.walk { e in
            let id = ObjectIdentifier(e)
            if let wd = watchOf.removeValue(forKey: id) {
                entryOf[wd] = nil
                watcher?.remove(wd)
            }
            polled[id] = nil
            return e.kind == .directory
        }
        for (wd, e) in projectOf where e.isDescendant(of: top) {
            projectOf[wd] = nil
            watcher?.remove(wd)
        }
    }
}

/// The events this server's own commands will make the kernel report. The
/// model already shows those changes, so the folders need no re-read: after
/// a delete that would be two folders read and every child stat'ed, on the
/// work thread, ahead of the next command. An event that matches nothing
/// (another program's, or one that arrives once the folder moved) still
/// gets its folder reconciled.
struct ExpectedEvents {
    enum Kind { case created, movedFrom, movedTo }

    struct Key: Hashable {
        let folder: [UInt8]
        let name: [UInt8]
        let kind: Kind
    }

    private var pending: [Key: (count: Int, sinceMs: Int64)] = [:]
    /// The kernel queues an event before the system call returns, and the
    /// watcher delivers within ~70 ms, so an expectation older than this
    /// matched nothing and is dropped before it could hide a real change.
    static let lifetimeMs: Int64 = 2_000

    mutating func expect(_ changes: [Change], nowMs: Int64) {
        func add(_ path: [UInt8], _ kind: Kind) {
            let (folder, name) = BytePath.split(path)
            pending[Key(folder: folder, name: name, kind: kind), default: (0, nowMs)].count += 1
        }
        for change in changes {
            switch change.kind {
            case .created: add(change.path, .created)
            case .moved:
                guard let from = change.oldPath else { continue }
                add(from, .movedFrom)
                add(change.path, .movedTo)
            case .deleted, .changed: continue
            }
        }
    }

    /// Whether the event was expected; each expectation is used once.
    mutating func consume(_ event: WatchEvent, in folder: [UInt8], nowMs: Int64) -> Bool {
        guard !pending.isEmpty else { return false }
        let kind: Kind
        if event.isMovedFrom {
            kind = .movedFrom
        } else if event.isMovedTo {
            kind = .movedTo
        } else if event.isCreate {
            kind = .created
        } else {
            return false
        }
        let key = Key(folder: folder, name: event.name, kind: kind)
        guard let found = pending[key], nowMs - found.sinceMs <= Self.lifetimeMs else { return false }
        pending[key] = found.count > 1 ? (found.count - 1, found.sinceMs) : nil
        return true
    }

    mutating func dropExpired(nowMs: Int64) {
        guard !pending.isEmpty else { return }
        pending = pending.filter { nowMs - $0.value.sinceMs <= Self.lifetimeMs }
    }

    mutating func removeAll() { pending = [:] }

    var isEmpty: Bool { pending.isEmpty }
}

/// One batch of the kernel's events, as the watcher hands them on; the
/// owner keeps it, unopened, until `Workspace.apply`.
public typealias WatchBatch = [WatchEvent]

extension Workspace {
    /// Notes the events a command's changes will make the kernel report
    /// (see `ExpectedEvents`). The owner calls this before the watcher's
    /// next batch can be applied.
    public func expectEvents(of changes: [Change]) {
        watching?.expected.expect(changes, nowMs: Clock.nowMs())
    }

    /// Starts watching every library. `deliver` is called on the watcher's
    /// thread; the owner hands the events back to `apply` on its own queue.
    public func startWatching(
        log: @escaping @Sendable (String) -> Void, deliver: @escaping @Sendable ([WatchEvent]) -> Void
    ) {
        guard watching == nil, !watchingStopped else { return }
        let watcher = Watcher(
            deliver: deliver,
            failed: { why in
                log("error: watching stopped, \(why); changes other programs make are not seen until Carrel restarts")
            })
        if watcher == nil { log("warning: inotify unavailable; polling folders every 0.5 s") }
        let state = WatchState(watcher: watcher, log: log)
        watching = state
        for library in libraries { state.watchTree(library.root, library: library, workspace: self) }
        watcher?.start()
    }

    /// Hands on, through `deliver` and on this thread, every event the
    /// kernel has reported until now and the watcher has not handed on.
    public func catchUpWithWatcher() {
        watching?.watcher?.catchUp()
    }

    /// Stops the watcher's thread and gives its inotify instance back; the
    /// model is no longer kept current by the kernel's events.
    public func stopWatching() {
        watchingStopped = true
        watching?.watcher?.stop()
    }

    /// Reconciles folders that changed while they were being watched for the
    /// first time. Call after anything that may add watches.
    public func settle() -> [Change] {
        guard let state = watching else { return [] }
        var changes: [Change] = []
        while let dir = state.stale.popLast() {
            if library(of: dir) != nil { changes += reconcile(dir) }
        }
        return changes
    }

    /// Whether the owner's timer should call `poll`: folders without a
    /// watch, or a sync engine's rename waiting for its second step.
    public var needsPolling: Bool {
        guard let state = watching else { return false }
        return !state.polled.isEmpty || !state.syncRenames.isEmpty || !state.identityMoves.isEmpty
    }

    /// Brings the model in line with what the kernel reported, returning what changed.
    public func apply(_ events: [WatchEvent]) -> [Change] {
        guard let state = watching else { return [] }
        if events.contains(where: \.isOverflow) {
            state.expected.removeAll()
            // The rescan finds where every held item went, or that it is gone.
            _ = state.syncRenames.removeAll()
            state.identityMoves.removeAll()
            return rescanAll()
        }
        let nowMs = Clock.nowMs()
        state.expected.dropExpired(nowMs: nowMs)
        state.identityMoves.forgetOldFound(nowMs: nowMs)
        var changes: [Change] = []
        var dirty: [ObjectIdentifier: Entry] = [:]
        var movedFrom: [UInt32: (Entry, [UInt8])] = [:]
        var contentChanged: [(Entry, [UInt8])] = []
        var markerTouched: [ObjectIdentifier: Entry] = [:]
        var orderTouched: [ObjectIdentifier: (folder: Entry, copies: Bool)] = [:]
        // Folders a sync engine put something in: what it did there answers
        // no write of an order file.
        var syncMade: [ObjectIdentifier: Entry] = [:]
        var fromTemporary: [UInt32: SyncRenames.Held] = [:]
        var renamedInPlace: [(folder: Entry, old: EntryName, new: EntryName)] = []
        var pairedMoves: [(change: Change, from: Entry, to: Entry)] = []
        var deletedNames: [ObjectIdentifier: Set<EntryName>] = [:]
        // Folders not read until this batch's events in them.
        var readNow = Set<ObjectIdentifier>()
        for ev in events {
            if ev.watchGone {
                if let e = state.entryOf.removeValue(forKey: ev.watch) { state.watchOf[ObjectIdentifier(e)] = nil }
                state.projectOf[ev.watch] = nil
                continue
            }
            if let projectRoot = state.projectOf[ev.watch] {
                markerTouched[ObjectIdentifier(projectRoot)] = projectRoot
                continue
            }
            guard let dir = state.entryOf[ev.watch], let owner = library(of: dir) else { continue }
            if owner.isPending(dir) {
                load(dir, in: owner)
                readNow.insert(ObjectIdentifier(dir))
            }
            if ev.name == ProjectFile.directoryName {
                markerTouched[ObjectIdentifier(dir)] = dir
                continue
            }
            if ev.name.withUnsafeBytes({ OrderFile.isOrderFile($0) }) {
                // A write's temporary changes nothing until it is swapped in.
                if OrderFile.isTemporary(ev.name) { continue }
                let copy = ev.name != OrderFile.name
                orderTouched[ObjectIdentifier(dir)] = (dir, copy || orderTouched[ObjectIdentifier(dir)]?.copies == true)
                continue
            }
            if SyncTemporary.isTemporary(ev.name) {
                syncMade[ObjectIdentifier(dir)] = dir
                if ev.isMovedTo, let (fromDir, fromName) = movedFrom.removeValue(forKey: ev.cookie) {
                    syncMade[ObjectIdentifier(fromDir)] = fromDir
                    state.syncRenames.hold(fromName, in: fromDir, as: ev.name, in: dir, nowMs: nowMs)
                } else if ev.isMovedFrom, let held = state.syncRenames.take(ev.name, in: dir) {
                    fromTemporary[ev.cookie] = held
                }
                continue
            }
            if Scanner.isHidden(ev.name) || ev.name.isEmpty { continue }
            if ev.isDelete {
                let name = EntryName(bytes: ev.name)
                deletedNames[ObjectIdentifier(dir), default: []].insert(name)
                // A file held since a read found it gone was removed: told now, not when its hold ends.
                if let gone = dir.child(name) { state.identityMoves.release(gone) }
            }
            if state.expected.consume(ev, in: dir.path, nowMs: nowMs) { continue }
            dirty[ObjectIdentifier(dir)] = dir
            if ev.isMovedFrom { movedFrom[ev.cookie] = (dir, ev.name) }
            if ev.isMovedTo, let (fromDir, fromName) = movedFrom.removeValue(forKey: ev.cookie) {
                let snapshots = snapshotsBeforeWatchedMove(fromDir, fromName)
                let pieces = piecesBeforeWatchedMove(fromDir, fromName)
                if let change = applyMove(fromDir, fromName, to: dir, ev.name) {
                    carrySnapshots(snapshots, to: dir, ev.name)
                    carryPieces(pieces, to: dir, ev.name)
                    changes.append(change)
                    pairedMoves.append((change, fromDir, dir))
                    if fromDir === dir {
                        renamedInPlace.append((dir, EntryName(bytes: fromName), EntryName(bytes: ev.name)))
                    }
                } else if let change = moveBeforeRead(fromDir, fromName, to: dir, ev.name, readNow) {
                    pairedMoves.append((change, fromDir, dir))
                }
            } else if ev.isMovedTo, let held = fromTemporary.removeValue(forKey: ev.cookie) {
                if SyncTemporary.isTemporary(held.temporary, of: ev.name), library(of: held.folder) != nil,
                    let change = applyMove(held.folder, held.name, to: dir, ev.name)
                {
                    changes.append(change)
                } else {
                    dirty[ObjectIdentifier(held.folder)] = held.folder
                }
            }
            if ev.isContentChange { contentChanged.append((dir, ev.name)) }
        }
        // A temporary renamed where no watch saw it arrive took the held item away.
        for held in fromTemporary.values { dirty[ObjectIdentifier(held.folder)] = held.folder }
        // Renamed to where no watch saw it arrive (a folder not watched yet):
        // the file may turn up when that folder is read.
        for (dir, name) in movedFrom.values {
            guard let gone = dir.child(EntryName(bytes: name)), IdentityMoves.mayPair(gone),
                Scanner.stat(BytePath.join(dir.path, name)) == nil
            else { continue }
            if let change = pairGone(gone) {
                changes.append(change)
            } else {
                state.identityMoves.hold(gone, nowMs: nowMs)
            }
        }
        state.outsideMoves += Self.outsideMoves(pairedMoves, syncMade: syncMade)
        for (folder, old, new) in renamedInPlace where syncMade[ObjectIdentifier(folder)] == nil {
            orderAfterOutsideRename(folder, from: old, to: new)
        }
        for (id, dir) in dirty where library(of: dir) != nil {
            changes += reconcile(dir, bySync: syncMade[id] != nil, deletedByEvents: deletedNames[id] ?? [])
        }
        for (dir, name) in contentChanged {
            guard let e = dir.child(EntryName(bytes: name)), e.kind == .file, let st = Scanner.stat(e.path) else {
                continue
            }
            if st.modified_ms != e.modified {
                e.modified = st.modified_ms
                changes.append(Change(.changed, e.path, inTrash: inTrashFlag(e)))
            }
        }
        for dir in markerTouched.values { changes += reloadProject(dir) }
        for (dir, copies) in orderTouched.values {
            guard let library = library(of: dir) else { continue }
            if orderFileChanged(dir, in: library, copiesSeen: copies) { changes.append(Change(.changed, dir.path)) }
        }
        // A pending folder whose read found it gone is read again once the model knows where it went.
        for library in libraries where !library.pending.isEmpty { queuePending(library) }
        return withoutCreatedMovedTo(changes + settle())
    }

    /// `changes` less each `created` whose file an identity move then put
    /// in its place: the move says it.
    private func withoutCreatedMovedTo(_ changes: [Change]) -> [Change] {
        guard let state = watching, !state.identityMoved.isEmpty else { return changes }
        defer { state.identityMoved = [] }
        return changes.filter { $0.kind != .created || !state.identityMoved.contains($0.path) }
    }

    func inTrashFlag(_ e: Entry) -> Bool {
        guard let l = library(of: e) else { return false }
        return l.project(containing: e)?.isInTrash(e) ?? false
    }

    /// A rename seen whole (both halves in one batch, or a sync engine's
    /// two renames through its temporary): moves the model's entry, subtree
    /// and watches intact.
    /// A move the kernel paired in a folder read only now: the model never
    /// held the old name, so the folder's read shows the item at its new
    /// place and nothing moves in the model, but the move is still one
    /// another program made, whose links the writer may want kept true.
    private func moveBeforeRead(
        _ fromDir: Entry, _ fromName: [UInt8], to toDir: Entry, _ toName: [UInt8], _ readNow: Set<ObjectIdentifier>
    ) -> Change? {
        guard readNow.contains(ObjectIdentifier(fromDir)) || readNow.contains(ObjectIdentifier(toDir)) else {
            return nil
        }
        let from = BytePath.join(fromDir.path, fromName)
        let to = BytePath.join(toDir.path, toName)
        guard Scanner.stat(from) == nil, Scanner.stat(to) != nil else { return nil }
        return Change(.moved, to, from: from, inTrash: false)
    }

    private func applyMove(_ fromDir: Entry, _ fromName: [UInt8], to toDir: Entry, _ toName: [UInt8]) -> Change? {
        guard let e = fromDir.child(EntryName(bytes: fromName)), toDir.child(EntryName(bytes: toName)) == nil,
            Scanner.stat(BytePath.join(fromDir.path, fromName)) == nil,
            Scanner.stat(BytePath.join(toDir.path, toName)) != nil,
            !toDir.isDescendant(of: e)
        else { return nil }
        let old = e.path
        e.move(to: toDir, as: EntryName(bytes: toName))
        watching?.identityMoves.release(e)
        return Change(.moved, e.path, from: old, inTrash: inTrashFlag(e))
    }

    /// Compares one directory's children with the disk and fixes the model.
    /// `bySync`: a sync engine made the change, and the order file that
    /// comes with it says where things go, so it is not written here.
    /// `deletedByEvents`: when the read answers a batch of events, the names
    /// the batch said were deleted from `dir`. The read comes after the
    /// watcher read the batch, so the disk may be ahead of it: a file gone
    /// with no such event was renamed or removed since, and the kernel's
    /// event for it is still to come. It waits for that event, held as a
    /// move's first half, so a rename is told as one move, not a deletion
    /// and a creation.
    func reconcile(_ dir: Entry, bySync: Bool = false, deletedByEvents: Set<EntryName>? = nil) -> [Change] {
        guard let library = library(of: dir), dir.kind == .directory else { return [] }
        if library.isPending(dir) {
            load(dir, in: library)
            return []
        }
        watching?.folderReads += 1
        guard let onDisk = Scanner.readDirectory(dir.path) else {
            dir.unreadable = Scanner.stat(dir.path) != nil
            return []
        }
        dir.unreadable = false
        var changes: [Change] = []
        let nowMs = Clock.nowMs()
        var seen = Set<EntryName>()
        var appeared: [Entry] = []
        var vanished: [EntryName] = []
        for fresh in onDisk {
            seen.insert(fresh.name)
            if let known = dir.child(fresh.name) {
                if known.kind == fresh.kind {
                    if known.kind == .file, known.modified != fresh.modified {
                        known.modified = fresh.modified
                        changes.append(Change(.changed, known.path, inTrash: inTrashFlag(known)))
                    }
                    known.setLinksToDirectory(fresh.linksToDirectory)
                    continue
                }
                changes.append(Change(.deleted, known.path))
                detach(known)
            }
            if fresh.kind == .directory {
                let ordered = Scanner.scan(fresh, path: BytePath.join(dir.path, fresh.name.bytes))
                dir.add(fresh)
                loadOrders(ordered, in: library)
            } else {
                dir.add(fresh)
                if let move = pairFound(fresh) {
                    changes.append(move)
                    continue
                }
            }
            appeared.append(fresh)
            if dir === library.root, fresh.kind == .directory { openProjectIfMarked(fresh, in: library) }
            watching?.watchTree(fresh, library: library, workspace: self)
            changes.append(Change(.created, fresh.path, inTrash: inTrashFlag(fresh)))
            if fresh.kind == .directory { changes += pairFound(below: fresh) }
            rememberFound(below: fresh, nowMs: nowMs)
        }
        let held = watching?.syncRenames
        for child in Array(dir.children.values) where !seen.contains(child.name) {
            // Half a sync engine's rename: the second half moves it.
            if held?.holds(child.name, in: dir) == true { continue }
            if watching?.identityMoves.holds(child.name, in: dir) == true { continue }
            if let move = pairGone(child) {
                changes.append(move)
                // Renamed in place: the order keeps its place, as for a rename seen whole.
                if child.parent === dir {
                    vanished.append(EntryName(bytes: BytePath.split(move.oldPath ?? []).name))
                    appeared.removeAll { $0.parent !== dir }
                    appeared.append(child)
                }
                continue
            }
            // A polled folder shows a rename only as a name gone and one found.
            let polled = watching?.watchOf[ObjectIdentifier(dir)] == nil
            let eventToCome = deletedByEvents.map { !$0.contains(child.name) } ?? false
            if let state = watching, polled || eventToCome, IdentityMoves.mayPair(child) {
                state.identityMoves.hold(child, nowMs: nowMs)
                continue
            }
            changes.append(Change(.deleted, child.path))
            vanished.append(child.name)
            detach(child)
        }
        if !bySync { orderAfterOutsideChanges(dir, vanished: vanished, appeared: appeared) }
        if let project = library.project(at: dir) {
            let before = Set(dir.children.keys)
            repair(project, in: library)
            for e in dir.children.values where !before.contains(e.name) { changes.append(Change(.created, e.path)) }
        }
        return changes
    }

    private func detach(_ e: Entry) {
        if let library = library(of: e) {
            library.projects[ObjectIdentifier(e)] = nil
            library.lockedProjects[ObjectIdentifier(e)] = nil
        }
        e.parent?.remove(e)
        watching?.unwatchTree(e)
        e.dismantle()
    }

    /// project.json or `.carrel` changed: re-read it.
    private func reloadProject(_ dir: Entry) -> [Change] {
        guard let library = library(of: dir) else { return [] }
        let before = library.project(at: dir)?.metadata
        let wasLocked = library.lockedProjects[ObjectIdentifier(dir)] != nil
        let project = openProjectIfMarked(dir, in: library)
        watching?.watchMarker(of: dir)
        if let project, project.submissions.map({ !$0.isEmpty }) ?? false {
            // Read again on next need; its rows may say something new.
            project.submissions = nil
            return [Change(.changed, dir.path)]
        }
        project?.submissions = nil
        if project?.metadata != before || wasLocked != (library.lockedProjects[ObjectIdentifier(dir)] != nil) {
            return [Change(.changed, dir.path)]
        }
        return []
    }

    /// After lost events: compare every directory with the disk.
    public func rescanAll() -> [Change] {
        var changes: [Change] = []
        for library in libraries {
            var dirs: [Entry] = []
            library.root.walk { e in
                if e.kind == .directory { dirs.append(e); return true }
                return false
            }
            for d in dirs where library.root === d.root { changes += reconcile(d) }
            for (_, p) in library.projects { changes += reloadProject(p.root) }
        }
        return changes
    }

    /// Polls directories that have no inotify watch, by their mtime, and
    /// some of their files: a file rewritten in place leaves its folder's
    /// mtime alone, and its words must still follow.
    public func poll() -> [Change] {
        guard let state = watching else { return [] }
        let nowMs = Clock.nowMs()
        var changes: [Change] =
            settle() + releaseUnfinishedSyncRenames(nowMs: nowMs) + releaseUnpairedIdentityMoves(nowMs: nowMs)
        let folders = Array(state.polled.values)
        for e in folders where library(of: e) != nil {
            guard let st = Scanner.stat(e.path) else { continue }
            if st.change_ns != e.changeStamp {
                e.changeStamp = st.change_ns
                changes += reconcile(e)
            }
        }
        changes += pollFiles(folders, state)
        return withoutCreatedMovedTo(changes)
    }

    /// At most `filesPerPoll` files a poll, taking the polled folders in turn.
    static let filesPerPoll = 2_000

    private func pollFiles(_ folders: [Entry], _ state: WatchState) -> [Change] {
        guard !folders.isEmpty else { return [] }
        var changes: [Change] = []
        var budget = Self.filesPerPoll
        var visited = 0
        while budget > 0, visited < folders.count {
            let e = folders[state.filePollCursor % folders.count]
            state.filePollCursor = (state.filePollCursor + 1) % folders.count
            visited += 1
            guard library(of: e) != nil else { continue }
            for child in e.children.values where child.kind == .file {
                budget -= 1
                guard let st = Scanner.stat(child.path), st.modified_ms != child.modified else { continue }
                child.modified = st.modified_ms
                changes.append(Change(.changed, child.path, inTrash: inTrashFlag(child)))
            }
        }
        return changes
    }
}
