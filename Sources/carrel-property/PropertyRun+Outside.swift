import Foundation
import Glibc

/// Changes other programs make while the server watches: a sync engine
/// bringing another machine's project.json or Trash, the writer's shell
/// adding files, hostile files arriving with a pull.
extension PropertyRun {
    func outsideChange(_ v: View) -> Step? {
        guard let p = pick(projects)?.name else { return nil }
        switch random(8) {
        case 6:
            guard let journal = undoJournal() else { return nil }
            return .outside("the undo journal is torn, a pipe, a link out, forged or from a newer Carrel") {
                self.forgeJournal(journal)
            }
        case 0:
            guard hazards.contains(.settingsConflictCopy) || hazards.contains(.rolesOnWriterFolders) else { return nil }
            return .outside("Syncthing brings a conflict copy of \(p)/.carrel/project.json") {
                self.settingsConflictCopy(p)
            }
        case 1:
            guard hazards.contains(.forgedStamps) else { return nil }
            return .outside("git pulls a \(p)/.carrel/project.json with forged stamps") {
                self.writeProjectJSON(p, self.forgedSettings(p))
            }
        case 2:
            let item = "arrived\(random(1000)).md"
            let origin = origin(p, item: item)
            return .outside("sync brings \(p)/Trash/\(item) deleted from \(origin.prefix(40))") {
                self.writeTrashItem(p, "", item, origin: origin)
            }
        case 3:
            guard hazards.contains(.twoMachines), writerFolders(p).count >= 2 else { return nil }
            let folders = writerFolders(p)
            return .outside("two machines delete \(folders[0])/Twin.md and \(folders[1])/Twin.md in \(p)") {
                self.writeTrashItem(p, "", "Twin.md", origin: folders[0] + "/Twin.md")
                self.writeRecord(p, item: "Twin.md", origin: folders[1] + "/Twin.md")
                self.writeFile(p + "/Trash/Twin" + Self.conflictMark + ".md")
            }
        case 4:
            guard hazards.contains(.hugeOrderFile), let folder = folderWithItems(p) else { return nil }
            return .outside("an order file over 1 MiB arrives in \(folder)") {
                self.plantUnreadable(folder + "/.carrel-order") {
                    Disk.write($0, String(repeating: "filler line\n", count: 100_000))
                }
            }
        case 5:
            guard let f = pick(v.folders.filter { !$0.contains("/Trash") }) else { return nil }
            let name = "typed\(random(1000)).md"
            return .outside("the writer saves \(f.isEmpty ? "" : f + "/")\(name)") {
                if !Disk.exists(self.box.path(f + "/" + name)) { self.writeFile((f.isEmpty ? "" : f + "/") + name) }
            }
        default:
            guard let f = pick(v.movable), let dest = pick(v.folders.filter { !$0.contains("Trash") }) else {
                return nil
            }
            let name = f.split(separator: "/").last.map(String.init) ?? f
            return .outside("the writer moves \(f) into \(dest.isEmpty ? "the library" : dest) in a shell") {
                let to = self.box.path((dest.isEmpty ? "" : dest + "/") + name)
                if !Disk.exists(to) { rename(self.box.path(f), to) }
            }
        }
    }

    /// This device's undo journal of the library, once a step made one.
    func undoJournal() -> String? {
        let folder = box.home + "/state/carrel/undo"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.first { $0.hasPrefix("library-") && $0.hasSuffix(".json") }.map { folder + "/" + $0 }
    }

    /// Replaces the journal with what a crash, a hand or a hostile program
    /// might leave; undo must set it aside or refuse its steps, and never
    /// touch anything outside the library.
    func forgeJournal(_ path: String) {
        unlink(path)
        let step =
            #"{"op":"renamed","path":"PATH","origin":"P1/x.md","device":"1","inode":"2","folder":false,"size":"0","modified":"0"}"#
        switch random(6) {
        case 0: _ = Disk.write(path, #"{"version":1,"undo":[{"op":"#)
        case 1: mkfifo(path, 0o644)
        case 2: symlink(box.outside + "/folder", path)
        case 3: _ = Disk.write(path, #"{"version":99,"undo":[],"redo":[]}"#)
        default:
            let escape = pick(["../outside/folder", "/etc", "P1/../../outside", ""])!
            let forged = step.replacingOccurrences(of: "PATH", with: escape)
            _ = Disk.write(path, #"{"version":1,"undo":["# + forged + #"],"redo":["# + forged + "]}")
        }
    }
}
