import CarrelModel
import CarrelStore
import Glibc

/// A snapshot's temporary a crash left. This device's are found at open
/// from the notes each write leaves until its rename is durable
/// (`SnapshotWrites`), so an open never walks the snapshot folders; any
/// other (cut short on another machine and synced in, or left by a Carrel
/// that wrote no notes) is found by a sweep after the first view.
extension Workspace {
    /// At open: removes the temporaries of this project's writes whose
    /// process is gone, and their notes. A note whose temporary is gone
    /// (the crash came before it was made, or after its rename) is dropped;
    /// so is one whose folder no longer exists. One of another project is
    /// left for its open.
    func finishSnapshotWrites(_ project: Project) {
        let left = SnapshotWrites.left()
        guard !left.isEmpty else { return }
        let rootPath = project.root.path
        let top = BytePath.join(BytePath.join(rootPath, Array(".carrel".utf8)), SnapshotFolder.name)
        var removed = 0
        for (name, note) in left {
            guard let note else {
                SnapshotWrites.done(name)
                continue
            }
            guard let parts = Self.components(of: note.folder, below: top) else {
                if Scanner.stat(note.folder) == nil { SnapshotWrites.done(name) }
                continue
            }
            defer { SnapshotWrites.done(name) }
            guard let projectDir = try? Directory.open(rootPath),
                let dir = try? SnapshotFolder.open(project: projectDir, parts, create: false),
                dir.kind(of: note.temporary) == .file, (try? dir.unlinkFile(note.temporary)) != nil
            else { continue }
            dir.sync()
            removed += 1
        }
        if removed > 0 {
            log("repair: removed \(removed) snapshot temporary file(s) in \(BytePath.display(top))")
        }
    }

    /// The folders of `path` below `top`; nil when it is not below it, or
    /// names a `.` or `..` or an empty component a note never holds.
    static func components(of path: [UInt8], below top: [UInt8]) -> [[UInt8]]? {
        guard path.starts(with: top) else { return nil }
        let rest = path.dropFirst(top.count)
        if rest.isEmpty { return [] }
        guard rest.first == UInt8(ascii: "/") else { return nil }
        let parts = rest.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map(
            Array.init)
        guard
            parts.allSatisfy({
                !$0.isEmpty && $0 != [UInt8(ascii: ".")] && $0 != [UInt8(ascii: "."), UInt8(ascii: ".")]
            })
        else { return nil }
        return parts
    }

    /// Every open project's snapshot folders walked once for temporaries
    /// untouched for an hour (`Leftovers.removeSnapshotTemporaries`): the
    /// ones no note of this device's names. Returns how many went.
    @discardableResult
    public func sweepSnapshotTemporaries() -> Int {
        var total = 0
        for library in libraries {
            for project in library.projects.values.sorted(by: { $0.root.path.lexicographicallyPrecedes($1.root.path) })
            {
                guard let carrelDir = try? ProjectFile.carrelFolder(project.root.path) else { continue }
                let removed = Leftovers.removeSnapshotTemporaries(carrelDir: carrelDir)
                if removed > 0 {
                    log(
                        "sweep: removed \(removed) abandoned snapshot temporary file(s) in \(BytePath.display(project.root.path))/.carrel"
                    )
                }
                total += removed
            }
        }
        return total
    }
}
