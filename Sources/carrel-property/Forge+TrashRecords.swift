import CarrelJSON
import Foundation
import Glibc

/// Trash items with records of every origin a record can name: usable,
/// missing, deep, absolute, climbing out, inside the Trash, hidden; two
/// records of one name with the sync engine's copy of the item; records
/// that are pipes, links, huge or empty.
extension PropertyRun {
    static let conflictMark = ".sync-conflict-20260101-120000-ABCDEFG"

    /// A record's file name as Carrel makes them: the time and 64 random bits.
    func recordName() -> String {
        let bits = String(rng.next(), radix: 16)
        return "\(1_767_225_600_000 + random(1_000_000))-\(String(repeating: "0", count: 16 - bits.count))\(bits).json"
    }

    func writeRecord(_ project: String, item: String, origin: String, deleted: Int? = nil) {
        let folder = box.path(project + "/.carrel/trash")
        mkdir(folder, 0o755)
        let file = recordName()
        let json: JSONValue = [
            "name": .string(item), "from": .string(origin),
            "deleted": .int(deleted ?? 1_767_225_600_000 + random(1_000_000)),
            "id": .string(String(file.dropLast(5))),
        ]
        Disk.write(folder + "/" + file, json.encoded(pretty: true) + [0x0A])
    }

    /// A writer's file in the project's Trash and, unless nil, its record.
    func writeTrashItem(_ project: String, _ type: String, _ item: String, origin: String?) {
        writeFile(project + "/Trash/" + item)
        if let origin { writeRecord(project, item: item, origin: origin) }
    }

    /// An origin of one of the kinds a record may hold.
    func origin(_ project: String, item: String) -> String {
        let writer = pick(writerFolders(project)) ?? "Notes"
        switch random(9) {
        case 0, 1: return writer + "/" + item
        case 2: return "Gone/Deeper/" + item
        case 3: return String(repeating: "d/", count: 1_500) + item
        case 4: return "/tmp/" + item
        case 5: return "../../outside/" + item
        case 6: return "Trash/Inner/" + item
        case 7: return ".carrel/" + item
        default: return ""
        }
    }

    func forgeTrash(_ project: String) {
        let type = projects.first { $0.name == project }?.type ?? "blank"
        let writer = writerFolders(project)
        for i in 0..<(1 + random(3)) {
            let item = "gone\(i).md"
            writeTrashItem(project, type, item, origin: chance(85) ? origin(project, item: item) : nil)
        }
        if hazards.contains(.deepOrigin) {
            writeTrashItem(project, type, "deep.md", origin: String(repeating: "d/", count: 1_500) + "deep.md")
        }
        if hazards.contains(.originInsideTrash) {
            writeTrashItem(project, type, "inner.md", origin: "Trash/Inner/inner.md")
        }
        if hazards.contains(.twoMachines), writer.count >= 2 {
            // Each machine deleted its own Untitled.md; the Trash kept one under a conflict name.
            writeTrashItem(project, type, "Untitled.md", origin: writer[0] + "/Untitled.md")
            writeRecord(project, item: "Untitled.md", origin: writer[1] + "/Untitled.md")
            writeFile(project + "/Trash/Untitled" + Self.conflictMark + ".md")
        }
        let records = box.path(project + "/.carrel/trash")
        mkdir(records, 0o755)
        if chance(20) { mkfifo(records + "/" + recordName(), 0o644) }
        if chance(20) { symlink(box.outside + "/trash/1-0000000000000001.json", records + "/" + recordName()) }
        if chance(20) { Disk.write(records + "/" + recordName(), "") }
        if chance(15) {
            Disk.write(
                records + "/" + recordName(),
                #"{"name": "old.md", "from": ""# + String(repeating: "x", count: 70_000) + "\"}")
        }
        if chance(20), let some = Disk.walk(records).first(where: { $0.isFile && $0.size > 0 }) {
            // Syncthing's copy of one record, as two machines both kept it.
            let copy = String(some.name.dropLast(5)) + Self.conflictMark + ".json"
            if let bytes = Disk.read(records + "/" + some.name) { Disk.write(records + "/" + copy, bytes) }
        }
    }
}
