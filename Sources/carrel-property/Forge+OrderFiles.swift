import Foundation
import Glibc

/// Order files as hands, merges and hostile clones leave them: odd lines,
/// conflict markers, over 1 MiB, links and pipes, Syncthing's copies; and
/// `.gitattributes`, which the first reorder writes to, linked outside.
extension PropertyRun {
    func orderLines(_ folder: String) -> String {
        let names = Disk.walk(box.path(folder)).filter { !$0.rel.contains("/") && !$0.name.hasPrefix(".") }.map(\.name)
        var lines: [String] = names.shuffled(using: &rng)
        for _ in 0..<random(4) {
            lines.insert(
                pick(["", "a/b.md", "..", "<<<<<<< HEAD", "=======", "\u{1}bell", "gone.md", "poem0.md"])!,
                at: random(lines.count + 1))
        }
        return lines.joined(separator: "\n") + (chance(80) ? "\n" : "")
    }

    func forgeOrderFiles(_ project: String) {
        for folder in writerFolders(project).map({ project + "/" + $0 }) where chance(25) {
            Disk.write(box.path(folder + "/.carrel-order"), orderLines(folder))
            if chance(20) {
                Disk.write(
                    box.path(folder + "/.carrel-order" + Self.conflictMark), orderLines(folder))
            }
        }
        // Over 1 MiB (Carrel reads at most 1 MiB of one) where the writer has things to reorder.
        if hazards.contains(.hugeOrderFile), let folder = folderWithItems(project) {
            plantUnreadable(folder + "/.carrel-order") {
                Disk.write($0, orderLines(folder) + String(repeating: "filler line\n", count: 100_000))
            }
        }
        if chance(15), let folder = folderWithItems(project), !Disk.exists(box.path(folder + "/.carrel-order")) {
            plantUnreadable(folder + "/.carrel-order") { symlink(self.box.outside + "/order", $0) }
        }
        if chance(10), let folder = folderWithItems(project), !Disk.exists(box.path(folder + "/.carrel-order")) {
            plantUnreadable(folder + "/.carrel-order") { mkfifo($0, 0o644) }
        }
    }

    /// A permanent folder (never renamed or moved) holding two items or more, for reorders.
    func folderWithItems(_ project: String) -> String? {
        var folders = writerFolders(project).map { project + "/" + $0 }
        folders.append(project)
        let full = folders.filter {
            Disk.walk(box.path($0)).filter { n in !n.rel.contains("/") && !n.name.hasPrefix(".") }.count >= 2
        }
        return pick(full) ?? pick(folders)
    }

    /// Plants a file Carrel cannot read, and remembers what it is, so a
    /// step that replaces or removes it is caught.
    func plantUnreadable(_ rel: String, _ make: (String) -> Void) {
        let path = box.path(rel)
        unlink(path)
        make(path)
        if let id = Disk.identity(path) { unreadable[rel] = id }
    }

    func forgeGitattributes() {
        let path = box.path(".gitattributes")
        if hazards.contains(.linkedGitattributes) {
            link(box.outside + "/attributes", path)
        } else if chance(20) {
            symlink(box.outside + "/attributes", path)
        } else if chance(30) {
            Disk.write(path, "*.pdf binary\n")
        }
    }
}
