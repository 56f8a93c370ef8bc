import Foundation
import Glibc

/// A file's snapshot folder as a clone or a sync can leave it: a snapshot,
/// then names of snapshots that are links out, pipes, folders, sparse
/// files over 16 MiB, a forged name, hidden temporaries (one a link); now
/// and then a writer folder's whole snapshot folder a link out.
extension PropertyRun {
    static func snapshotName(_ n: Int, title: String? = nil) -> String {
        "2026-01-0\(1 + n % 9)T01-15-00.000Z a1b2c3d4-0000000\(n % 10) 3w" + (title.map { " " + $0 } ?? "") + ".md"
    }

    func forgeSnapshots(_ project: String) {
        let files = writerFiles(project)
        if chance(15), let folder = pick(writerFolders(project)) {
            // The folder's snapshots: nothing may be read or written through it.
            Disk.makeFolders(box.path(project + "/.carrel/snapshots"))
            symlink(box.outside + "/folder", box.path(project + "/.carrel/snapshots/" + folder))
            return
        }
        guard let file = pick(files) else { return }
        let rel = project + "/" + file
        pinned.insert(rel)
        let folder = project + "/.carrel/snapshots/" + file
        Disk.makeFolders(box.path(folder))
        Disk.write(box.path(folder + "/" + Self.snapshotName(1, title: "Before")), "an older text\n")
        var expected: [String] = []
        func hostile(_ name: String, _ make: (String) -> Void) {
            plantUnreadable(folder + "/" + name, make)
            expected.append(name)
        }
        if chance(60) { hostile(Self.snapshotName(2)) { symlink(self.box.outside + "/folder/kept.md", $0) } }
        if chance(50) { hostile(Self.snapshotName(3)) { mkfifo($0, 0o644) } }
        if chance(40) {
            hostile(Self.snapshotName(4)) { path in
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                if fd >= 0 {
                    ftruncate(fd, 17 << 20)
                    close(fd)
                }
            }
        }
        if chance(40) {
            let name = Self.snapshotName(5)
            mkdir(box.path(folder + "/" + name), 0o755)
            expected.append(name)
        }
        if chance(50) {
            let name = "not a snapshot.md"
            Disk.write(box.path(folder + "/" + name), "forged\n")
            expected.append(name)
        }
        // Hidden: never listed. A temporary no note names waits for the sweep
        // after the first view, which takes it only an hour old; a link stays,
        // never followed.
        if chance(50) { Disk.write(box.path(folder + "/.carrel-snapshot-999999999-1"), "half a snapshot\n") }
        if chance(50) { symlink(box.outside + "/folder/kept.md", box.path(folder + "/.carrel-snapshot-999999999-2")) }
        forgedSnapshots[rel] = expected
    }
}
