import Foundation
import Glibc

/// What else a cloned or synced library can hold where Carrel looks: links
/// out of the library, pipes, huge and empty files.
extension PropertyRun {
    func forgeHostile(_ project: String) {
        let folders = writerFolders(project).map { project + "/" + $0 } + [project]
        if chance(40), let f = pick(folders) { symlink(box.outside + "/folder", box.path(f + "/linked")) }
        if chance(30), let f = pick(folders) { mkfifo(box.path(f + "/pipe.md"), 0o644) }
        if chance(20), let f = pick(folders) { Disk.write(box.path(f + "/empty.md"), "") }
        if chance(15), let f = pick(folders) {
            Disk.write(box.path(f + "/huge.md"), String(repeating: "word ", count: 400_000))
        }
        if chance(15), let f = pick(folders) { link(box.outside + "/folder/kept.md", box.path(f + "/hard.md")) }
        if chance(5) {
            // project.json a link to a file outside: the project is shown locked.
            let json = box.path(project + "/.carrel/project.json")
            unlink(json)
            symlink(box.outside + "/project.json", json)
        }
        if chance(5) {
            // `.carrel/purge` a link outside: never emptied.
            symlink(box.outside + "/folder", box.path(project + "/.carrel/purge"))
        }
    }

    /// The whole library's forgery, before the first server opens it.
    func forge() {
        guard violation == nil else { return }
        for (name, _) in projects {
            forgeSettings(name)
            forgeTrash(name)
            forgeOrderFiles(name)
            forgeHostile(name)
            if hazards.contains(.forgedSubmissions) { forgeSubmissions(name) }
            if hazards.contains(.forgedSnapshots) { forgeSnapshots(name) }
            if hazards.contains(.settingsConflictCopy) && chance(40) { settingsConflictCopy(name) }
        }
        forgeGitattributes()
    }
}
