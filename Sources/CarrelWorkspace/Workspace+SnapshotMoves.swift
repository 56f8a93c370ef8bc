import CarrelModel
import CarrelStore

/// Snapshots follow their file or folder through Carrel's renames and
/// moves, into the Trash and back: the item moves first, then the folder
/// of its snapshots (`SnapshotFolder.move`, no-replace, merging into one
/// already there). Between the two, a note in the device's state folder
/// (`SnapshotMoves`) says where the item went, so the next open finishes
/// a move a crash cut short.
extension Workspace {
    /// Where an item's snapshots are before it moves, and the note of the
    /// move once written. A move refused after the note was written drops
    /// the note with this value, so no repair ever carries snapshots to
    /// whatever holds the name it did not get.
    final class SnapshotCarry {
        let project: Project
        let parts: [EntryName]
        var note: [UInt8]?
        init(project: Project, parts: [EntryName]) {
            self.project = project
            self.parts = parts
        }
        deinit { if let note { SnapshotMoves.done(note) } }
    }

    /// Taken just before an item moves: nil when it has no snapshots.
    func snapshotsBeforeMove(_ entry: Entry, _ library: Library) -> SnapshotCarry? {
        guard let p = library.project(containing: entry), entry !== p.root,
            let parts = entry.components(below: p.root), let projectDir = try? open(p.root, in: library),
            let parent = try? SnapshotFolder.open(project: projectDir, parts.dropLast().map(\.bytes), create: false),
            parent.kind(of: parts.last!.bytes) != nil
        else { return nil }
        return SnapshotCarry(project: p, parts: parts)
    }

    /// Writes down where the item is going, before it goes.
    func noteSnapshotMove(_ carry: SnapshotCarry?, to destination: [EntryName], in project: Project?) {
        guard let carry, let project, carry.parts.allSatisfy(\.isValidUTF8), destination.allSatisfy(\.isValidUTF8)
        else { return }
        carry.note = SnapshotMoves.begin(
            SnapshotMoves.Move(
                fromProject: carry.project.root.path, from: carry.parts.map(\.string), toProject: project.root.path,
                to: destination.map(\.string)))
    }

    /// After the item moved: its snapshots follow it, and the note goes.
    func carrySnapshots(_ carry: SnapshotCarry?, to entry: Entry, _ library: Library) {
        defer {
            if let note = carry?.note { SnapshotMoves.done(note) }
            carry?.note = nil
        }
        guard let carry, let p = library.project(containing: entry), let parts = entry.components(below: p.root)
        else { return }
        moveSnapshotFolder(
            fromProject: carry.project.root, carry.parts.map(\.bytes), toProject: p.root, parts.map(\.bytes), library)
    }

    /// Another program on this device renamed an item, both halves seen:
    /// its snapshots follow, as after Carrel's own rename. Not a sync
    /// engine's rename (paired through its temporary) nor one paired by
    /// identity, which may be Syncthing's too: the machine that renamed
    /// moved the snapshots, and sync brings that move, which a move here
    /// would race. No note: a crash leaves them under the old path.
    func snapshotsBeforeWatchedMove(_ fromDir: Entry, _ fromName: [UInt8]) -> SnapshotCarry? {
        guard let e = fromDir.child(EntryName(bytes: fromName)), let library = library(of: e) else { return nil }
        return snapshotsBeforeMove(e, library)
    }

    func carrySnapshots(_ carry: SnapshotCarry?, to dir: Entry, _ name: [UInt8]) {
        guard let carry, let e = dir.child(EntryName(bytes: name)), let library = library(of: e) else { return }
        carrySnapshots(carry, to: e, library)
    }

    private func moveSnapshotFolder(
        fromProject: Entry, _ from: [[UInt8]], toProject: Entry, _ to: [[UInt8]], _ library: Library
    ) {
        guard from != to || fromProject !== toProject, let last = from.last, let newLast = to.last,
            let source = try? open(fromProject, in: library), let target = try? open(toProject, in: library),
            let oldParent = try? SnapshotFolder.open(project: source, Array(from.dropLast()), create: false),
            oldParent.kind(of: last) != nil,
            let newParent = try? SnapshotFolder.open(project: target, Array(to.dropLast()), create: true)
        else { return }
        let left = SnapshotFolder.move(last, in: oldParent, to: newLast, in: newParent)
        if left > 0 {
            log("snapshots: \(left) name(s) left in \(BytePath.display(oldParent.path)); the destination held others")
        }
    }

    /// Deleting for good in the Trash takes the item's snapshots with it.
    func removeSnapshots(of entry: Entry, _ library: Library) {
        guard let p = library.project(containing: entry), let parts = entry.components(below: p.root)?.map(\.bytes),
            let last = parts.last, let projectDir = try? open(p.root, in: library),
            let parent = try? SnapshotFolder.open(project: projectDir, Array(parts.dropLast()), create: false),
            parent.kind(of: last) == .folder
        else { return }
        try? parent.removeTree(last)
    }

    /// At open: finishes the snapshot moves a crash cut short. A move whose
    /// item reached its destination carries the snapshots there; one whose
    /// item never moved is dropped. Only this library's notes are read.
    func finishSnapshotMoves(in library: Library) {
        let prefix = library.path + [UInt8(ascii: "/")]
        for (name, move) in SnapshotMoves.pending() {
            guard let move else {
                SnapshotMoves.done(name)
                continue
            }
            guard move.fromProject.starts(with: prefix) || move.fromProject == library.path,
                move.toProject.starts(with: prefix) || move.toProject == library.path
            else { continue }
            defer { SnapshotMoves.done(name) }
            guard let fromProject = entry(atAbsolute: move.fromProject, library),
                let toProject = entry(atAbsolute: move.toProject, library),
                let arrived = try? open(toProject, in: library),
                (try? arrived.subdirectory(move.to.dropLast().map { Array($0.utf8) }))?.kind(
                    of: Array(move.to.last!.utf8)) != nil
            else { continue }
            log("repair: snapshots follow \(move.to.joined(separator: "/")), moved before a crash")
            moveSnapshotFolder(
                fromProject: fromProject, move.from.map { Array($0.utf8) }, toProject: toProject,
                move.to.map { Array($0.utf8) }, library)
        }
    }

    private func entry(atAbsolute path: [UInt8], _ library: Library) -> Entry? {
        if path == library.path { return library.root }
        guard let names = libraryPath(ofAbsolute: path, in: library) else { return nil }
        return self.entry(at: names, in: library)
    }
}
