import Foundation
import Glibc

/// Changes other programs make while the server watches: a sync engine
/// bringing another machine's project.json or Trash, the writer's shell
/// adding files, hostile files arriving with a pull.
extension PropertyRun {
    func outsideChange(_ v: View) -> Step? {
        guard let p = pick(projects)?.name else { return nil }
        switch random(7) {
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
}
