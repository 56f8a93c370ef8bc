import CarrelJSON
import Foundation
import Glibc

/// Snapshots: a second place of a file's content, hidden under its
/// project's `.carrel/snapshots/<the file's path>/`, written whole through a
/// hidden temporary, carried along the file's renames, moves and trips
/// through the Trash, and removed when the file is deleted for good.
extension Torture {
    static let snapshotsFolder = ".carrel/snapshots"
    static let snapshotTemporaryPrefix = ".carrel-snapshot-"
    /// Where the server notes each snapshot it writes until the write is
    /// durable, in the device's state folder: how a restart finds what a
    /// kill left without walking the snapshot folders.
    var snapshotWriteNotes: String { root + "/home/state/carrel/snapshot-writes" }
    /// A pid no process ever has (above Linux's largest `pid_max`).
    static let deadPid = "2147483647"

    /// `carrel.snapshot` of a file or folder in view, or `carrel.rollBack`
    /// of a file to one of its snapshots.
    func snapshotOp(_ v: View) -> Op? {
        let inProjects = v.movable.filter { item in v.projects.contains { item.rel.hasPrefix($0.rel + "/") } }
        let files = Set(inProjects.filter { !$0.isDir }.map(\.rel))
        // Only a snapshot of the content the file holds: one of another (a file
        // that left its path, its snapshots staying) would put that content
        // in a second place, which a writer may do but the count of places
        // would take for a duplicate.
        let kept = snapshotFiles().filter { s in
            guard !s.name.hasPrefix("."), files.contains(s.project + "/" + s.path),
                let file = Disk.read(lib + "/" + s.project + "/" + s.path), let snapshot = Disk.read(s.full)
            else { return false }
            return content(of: file) == content(of: snapshot)
        }
        if chance(0.5), let s = pick(kept) {
            let rel = s.project + "/" + s.path
            // The older text may hold links the moves since then left behind.
            if let bytes = Disk.read(lib + "/" + rel), let id = Self.contentID(content(of: bytes)) {
                linksOutOfView.insert(id)
            }
            return Op(
                name: "rollBack", command: "carrel.rollBack",
                args: ["uri": .string(uri(rel)), "snapshot": .string(s.name)])
        }
        guard let item = pick(chance(0.9) ? inProjects : v.movable) else { return nil }
        return Op(
            name: "snapshot", command: "carrel.snapshot",
            args: chance(0.5)
                ? ["uri": .string(uri(item.rel))] : ["uri": .string(uri(item.rel)), "title": .string(newName("t"))])
    }

    /// The project holding `rel` and the path below it.
    func splitProject(_ rel: String) -> (project: String, below: String)? {
        guard let slash = rel.firstIndex(of: "/") else { return nil }
        let project = String(rel[..<slash])
        guard projectType(project) != nil else { return nil }
        return (project, String(rel[rel.index(after: slash)...]))
    }

    /// Every snapshot in the library: its project, the path it is kept
    /// under, its name, and hidden temporaries too.
    func snapshotFiles() -> [(project: String, path: String, name: String, full: String)] {
        var out: [(String, String, String, String)] = []
        for p in Disk.walk(lib, includeHidden: false) where p.isDir && !p.rel.contains("/") {
            let base = lib + "/" + p.rel + "/" + Self.snapshotsFolder
            for n in Disk.walk(base, includeHidden: true) where !n.isDir {
                let path = n.rel.split(separator: "/").dropLast().joined(separator: "/")
                out.append((p.rel, path, n.name, base + "/" + n.rel))
            }
        }
        return out
    }

    /// Contents whose snapshots may rightly stay where the file no longer
    /// is: each that ever left its project (moved out of one, or into the
    /// system trash) keeps its snapshots in the project it left, and each
    /// ever in two places (a duplicate) may keep its copy's.
    func noteSnapshotsAdrift(_ found: [String: [String]]) {
        for (c, places) in found {
            let projects = Set(
                places.map { place -> String in
                    let parts = place.split(separator: "/").map(String.init)
                    return parts.first == "lib" && parts.count > 2 && projectType(parts[1]) != nil ? parts[1] : ""
                })
            if places.count > 1 || projects.count != 1 || projects.first == "" { snapshotsAdrift.insert(c) }
            if let was = snapshotProject[c], was != projects.first { snapshotsAdrift.insert(c) }
            snapshotProject[c] = projects.first
        }
    }

    /// Every snapshot holds a whole text the harness wrote; after a restart
    /// no temporary of one is left, and each snapshot of a content still
    /// in its project is kept under the path of the file that holds it.
    func checkSnapshots(_ found: [String: [String]], phase: String, afterRestart: Bool) {
        noteSnapshotsAdrift(found)
        // A restart removes what each note names and the note: with one server, none is left.
        if afterRestart, opts.servers == 1 {
            for note in (try? FileManager.default.contentsOfDirectory(atPath: snapshotWriteNotes)) ?? [] {
                violation("\(phase): a snapshot write's note \(note) is left after a restart")
            }
        }
        for s in snapshotFiles() {
            let shown = "\(s.project)/\(Self.snapshotsFolder)/\(s.path)/\(s.name)"
            if s.name.hasPrefix(".") {
                if s.name.hasPrefix(Self.snapshotTemporaryPrefix), afterRestart, opts.servers == 1 {
                    violation("\(phase): a snapshot's temporary \(shown) is left after a restart")
                }
                continue
            }
            // A new file before the writer typed, or a compiled document: nothing of the harness's.
            guard let bytes = Disk.read(s.full), !bytes.isEmpty else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.hasPrefix(Self.compiledFrontMatter) { continue }
            guard let c = Self.split(text)?.content, contents[c] != nil else {
                violation("\(phase): the snapshot \(shown) holds text the harness never wrote (torn?)")
                continue
            }
            guard afterRestart, opts.servers == 1, contents[c] == .alive, !snapshotsAdrift.contains(c) else { continue }
            let file = lib + "/" + s.project + "/" + s.path
            if Disk.read(file).map({ content(of: $0) }) != c {
                let id = Self.contentID(c).map(String.init) ?? "?"
                violation(
                    "\(phase): a snapshot of content #\(id) is left under \(s.project)/\(s.path), where its file is not (it is at \(found[c] ?? []))"
                )
            }
        }
    }

    /// After a confirmed delete for good: the contents it destroyed have no
    /// snapshot left.
    func checkSnapshotsDestroyed(_ op: Op) {
        guard !op.doomed.isEmpty else { return }
        let doomed = Set(op.doomed.filter { contents[$0] == .gone })
        for s in snapshotFiles() where !s.name.hasPrefix(".") {
            guard let bytes = Disk.read(s.full), doomed.contains(content(of: bytes)) else { continue }
            violation(
                "\(op.name): the snapshot \(s.project)/\(Self.snapshotsFolder)/\(s.path)/\(s.name) outlived its file")
        }
    }
}
