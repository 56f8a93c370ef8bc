import CarrelJSON
import Foundation
import Glibc

/// Markets and submission records as a clone or a sync can leave them: a
/// `.carrel-market` that is a link out, a pipe, huge, torn or of forged
/// fields; records that are links, pipes, huge, torn, of another id, or
/// name a piece, a copy or a market out of the project; a folder of copies
/// that arrived before its record; now and then `.carrel/submissions`
/// itself a link out of the library.
extension PropertyRun {
    /// The folders a project's markets may sit in, by its type.
    func marketFolders(_ project: String) -> [String] {
        writerFolders(project).filter { ["Magazines", "Competitions", "Commissions", "Other"].contains($0) }
    }

    func recordID() -> String {
        let bits = String(rng.next(), radix: 16)
        return "\(1_767_225_600_000 + random(1_000_000))-\(String(repeating: "0", count: 16 - bits.count))\(bits)"
    }

    func forgeSubmissions(_ project: String) {
        guard let marketFolder = pick(marketFolders(project)) else { return }
        let good = project + "/" + marketFolder + "/Granta"
        mkdir(box.path(good), 0o755)
        pinned.insert(good)
        Disk.write(box.path(good + "/.carrel-market"), #"{"id":"m1","fields":{"name":{"changed":1,"value":"Granta"}}}"#)
        markets.append(good)
        let hostile: [(String, (String) -> Void)] = [
            ("Linked", { symlink(self.box.outside + "/project.json", $0) }),
            ("Piped", { mkfifo($0, 0o644) }),
            ("Huge", { Disk.write($0, "{\"id\":\"" + String(repeating: "x", count: 70_000) + "\"}") }),
        ]
        for (name, make) in hostile where chance(60) {
            let folder = project + "/" + marketFolder + "/" + name
            mkdir(box.path(folder), 0o755)
            pinned.insert(folder)
            markets.append(folder)
            plantUnreadable(folder + "/.carrel-market", make)
        }
        if chance(50) {
            let folder = project + "/" + marketFolder + "/Torn"
            mkdir(box.path(folder), 0o755)
            pinned.insert(folder)
            markets.append(folder)
            Disk.write(
                box.path(folder + "/.carrel-market"), chance(50) ? #"{"id":"t","fie"# : #"{"id":7,"fields":[1]}"#)
        }

        let records = project + "/.carrel/submissions"
        if chance(10) {
            // Nothing may be written or read through it.
            symlink(box.outside + "/folder", box.path(records))
            return
        }
        mkdir(box.path(records), 0o755)
        let piece = writerFiles(project).first ?? "Draft/poem0.md"
        let id = recordID()
        let record: JSONValue = [
            "id": .string(id), "sent": "2026-01-05", "created": 1,
            "market": [
                "changed": 1, "value": ["path": .string(String(good.dropFirst(project.count + 1))), "name": "Granta"],
            ],
            "pieces": [
                "1": [
                    "path": .string(piece), "copy": .string(id + "/1 poem.md"),
                    "status": ["changed": 1, "value": ["status": "pending", "day": "2026-01-05"]],
                ]
            ],
        ]
        Disk.write(box.path(records + "/" + id + ".json"), record.encoded(pretty: true) + [0x0A])
        mkdir(box.path(records + "/" + id), 0o755)
        Disk.write(box.path(records + "/" + id + "/1 poem.md"), "the text as sent\n")
        goodRecords[project, default: []].append(id)

        func forged(_ make: (String) -> Void, unreadable: Bool = false) {
            let name = recordID() + ".json"
            if unreadable { plantUnreadable(records + "/" + name, make) } else { make(box.path(records + "/" + name)) }
            forgedRecords[project, default: []].append(name)
        }
        func shaped(_ change: @escaping (inout [String: JSONValue], String) -> Void) -> (String) -> Void {
            { path in
                let id = String((path as NSString).lastPathComponent.dropLast(5))
                var raw = record.objectValue!
                raw["id"] = .string(id)
                change(&raw, id)
                Disk.write(path, JSONValue.object(raw).encoded(pretty: true))
            }
        }
        if chance(50) { forged({ symlink(self.box.outside + "/trash/1-0000000000000001.json", $0) }, unreadable: true) }
        if chance(50) { forged({ mkfifo($0, 0o644) }, unreadable: true) }
        if chance(40) {
            forged({ Disk.write($0, "{\"id\":\"" + String(repeating: "x", count: 300_000) + "\"}") }, unreadable: true)
        }
        if chance(50) { forged({ Disk.write($0, #"{"id":"#) }) }
        if chance(50) { forged(shaped { raw, _ in raw["id"] = "someone-else" }) }
        if chance(60) {
            forged(
                shaped { raw, id in
                    raw["pieces"] = ["1": ["path": "../../outside/folder/kept.md", "copy": .string(id + "/1 kept.md")]]
                })
        }
        if chance(50) {
            forged(
                shaped { raw, _ in
                    raw["pieces"] = ["1": ["path": .string(piece), "copy": "../../../outside/folder/kept.md"]]
                })
        }
        if chance(50) {
            forged(shaped { raw, _ in raw["market"] = ["changed": 1, "value": ["path": "/tmp/x", "name": "X"]] })
        }
        if chance(50) {
            // Copies that sync brought before their record: never Carrel's to remove.
            let early = records + "/" + recordID()
            mkdir(box.path(early), 0o755)
            Disk.write(box.path(early + "/1 poem.md"), "sent from another machine\n")
            if let id = Disk.identity(box.path(early)) { unreadable[early] = id }
        }
    }

    /// A project's writer files directly in its writer folders: never in
    /// a folder a step renames or moves.
    func writerFiles(_ project: String) -> [String] {
        writerFolders(project).flatMap { folder in
            Disk.walk(box.path(project + "/" + folder)).filter {
                $0.isFile && !$0.rel.contains("/") && !$0.name.hasPrefix(".")
            }
            .map { folder + "/" + $0.name }
        }
    }
}
