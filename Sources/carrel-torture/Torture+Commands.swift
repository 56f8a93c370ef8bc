import CarrelClient
import CarrelJSON
import CarrelProtocol
import CarrelRandom
import Foundation
import Glibc

/// The commands a cycle sends, chosen at random from what the disk holds.
extension Torture {
    struct Op {
        let name: String
        let command: String
        let args: JSONValue
        /// Contents a delete-for-good would destroy.
        var doomed: [String] = []
        /// Contents a duplicate may copy, once each time it appears here.
        var copies: [String] = []
    }

    /// Contents every place of which is under `rel`: what deleting it for
    /// good destroys. A content copied elsewhere lives on there.
    func doomedUnder(_ rel: String) -> [String] {
        var under: [String: Int] = [:]
        for c in contentsUnder(rel) { under[c, default: 0] += 1 }
        return under.filter { $0.value == 1 + (copyAllowance[$0.key] ?? 0) }.map(\.key)
    }

    func contentsUnder(_ rel: String) -> [String] {
        let base = lib + "/" + rel
        if !Disk.isDirectory(base) {
            if let b = Disk.read(base), !b.isEmpty { return [content(of: b)] }
            return []
        }
        return Disk.walk(base, includeHidden: true).filter { !$0.isDir }.compactMap {
            guard let b = Disk.read(base + "/" + $0.rel), !b.isEmpty else { return nil }
            return content(of: b)
        }
    }

    /// `carrel.snapshots` and `carrel.compareSnapshot` only read, so are not sent.
    func chooseOp(_ v: View) -> Op {
        let parent = { (rel: String) -> String in rel.split(separator: "/").dropLast().joined(separator: "/") }
        while true {
            let roll = random(118)
            switch roll {
            case 0..<14:
                guard var folder = pick(v.folders) else { continue }
                if chance(0.15), let p = pick(v.projects) { folder = p.rel + "/.carrel/all" }
                return Op(
                    name: "newFile", command: "carrel.newFile",
                    args: ["parentUri": .string(uri(folder)), "name": .string(newName("f"))])
            case 14..<22:
                guard let folder = pick(v.folders), v.folders.count < 120 else { continue }
                return Op(
                    name: "newFolder", command: "carrel.newFolder",
                    args: ["parentUri": .string(uri(folder)), "name": .string(newName("d"))])
            case 22..<24:
                guard v.projects.count < 8 else { continue }
                let type = pick(["blank", "poetry", "shortStory", "novel", "script"])!
                return Op(
                    name: "newProject", command: "carrel.newProject",
                    args: ["parentUri": .string(uri("")), "name": .string(newName("p")), "type": .string(type)])
            case 24..<36:
                guard let item = pick(v.movable + v.inTrash + v.projects.map { ($0.rel, true) }) else { continue }
                if protectSeedProjects && ["Poems", "Novel", "Blank"].contains(item.rel) { continue }
                let name = item.rel.split(separator: "/").last.map(String.init) ?? item.rel
                var newName = item.isDir ? self.newName("r") : self.newName("r") + ".md"
                if chance(0.2), let first = name.first {
                    // Case-only rename, which must work.
                    let flipped = first.isUppercase ? first.lowercased() : first.uppercased()
                    newName = flipped + name.dropFirst()
                } else if chance(0.1),
                    let sibling = pick(
                        (v.movable + v.inTrash).filter { parent($0.rel) == parent(item.rel) && $0.rel != item.rel })
                {
                    newName = sibling.rel.split(separator: "/").last.map(String.init) ?? newName  // refused: nameTaken
                }
                return Op(
                    name: "rename", command: "carrel.rename",
                    args: ["uri": .string(uri(item.rel)), "newName": .string(newName)])
            case 36..<52:
                guard let item = pick(v.movable + v.inTrash), let dest = pick(v.folders) else { continue }
                // Sometimes at a place: the destination's order file is written first.
                if chance(0.3), let anchor = pick(v.movable.filter { parent($0.rel) == dest && $0.rel != item.rel }) {
                    return Op(
                        name: "moveTo(placed)", command: "carrel.moveTo",
                        args: [
                            "uri": .string(uri(item.rel)), "destinationUri": .string(uri(dest)),
                            chance(0.5) ? "before" : "after": .string(uri(anchor.rel)),
                        ])
                }
                return Op(
                    name: "moveTo", command: "carrel.moveTo",
                    args: ["uri": .string(uri(item.rel)), "destinationUri": .string(uri(dest))])
            case 52..<66:
                guard let item = pick(v.movable) else { continue }
                var args: JSONValue = ["uri": .string(uri(item.rel))]
                if chance(0.7) { args = ["uri": .string(uri(item.rel)), "confirmed": true] }
                return Op(
                    name: v.plainFolders.contains(where: { item.rel == $0 || item.rel.hasPrefix($0 + "/") })
                        || !item.rel.contains("/") ? "delete(system trash)" : "delete",
                    command: "carrel.delete", args: args)
            case 66..<67:
                guard v.projects.count > 2, let p = pick(v.projects) else { continue }
                if protectSeedProjects && ["Poems", "Novel", "Blank"].contains(p.rel) { continue }
                return Op(
                    name: "delete(project)", command: "carrel.delete",
                    args: ["uri": .string(uri(p.rel)), "confirmed": true])
            case 67..<72:
                guard opts.servers == 1, let item = pick(v.inTrash) else { continue }
                return Op(
                    name: "deleteForever", command: "carrel.delete",
                    args: ["uri": .string(uri(item.rel)), "confirmed": .bool(chance(0.5))],
                    doomed: doomedUnder(item.rel))
            case 72..<84:
                guard let item = pick(v.inTrash) else { continue }
                return Op(name: "restore", command: "carrel.restore", args: ["uri": .string(uri(item.rel))])
            case 84..<86:
                guard opts.servers == 1, let p = pick(v.projects) else { continue }
                return Op(
                    name: "emptyTrash", command: "carrel.emptyTrash",
                    args: ["projectUri": .string(uri(p.rel)), "confirmed": .bool(chance(0.5))],
                    doomed: doomedUnder(p.rel + "/Trash"))
            case 86..<88:
                guard let item = pick(v.movable + v.projects.map { ($0.rel, true) }) else { continue }
                // A target in project.json, or cleared; outside projects it is refused.
                return Op(
                    name: "setTarget", command: "carrel.setTarget",
                    args: ["uri": .string(uri(item.rel)), "words": chance(0.3) ? .null : .int(1 + random(5000))])
            case 88..<89:
                guard let f = pick(v.folders) else { continue }
                return Op(
                    name: "setSort", command: "carrel.setSort",
                    args: [
                        "uri": .string(uri(f)), "by": .string(pick(["manual", "name", "modified", "created"])!),
                        "descending": .bool(chance(0.5)),
                    ])
            case 90..<95:
                guard let item = pick(v.movable),
                    let sibling = pick(v.movable.filter { parent($0.rel) == parent(item.rel) && $0.rel != item.rel })
                else { continue }
                return Op(
                    name: "reorder", command: "carrel.reorder",
                    args: ["uri": .string(uri(item.rel)), chance(0.5) ? "before" : "after": .string(uri(sibling.rel))])
            case 89..<90:
                guard let f = pick(v.folders) else { continue }
                if chance(0.25) {
                    // Only "ask": the harness answers every move's links question
                    // and waits for its report, which "never" would leave unsent.
                    return Op(
                        name: "setLinkUpdates", command: "carrel.setLinkUpdates",
                        args: ["uri": .string(uri(f)), "mode": "ask"])
                }
                return Op(
                    name: "setConfirmDelete", command: "carrel.setConfirmDelete",
                    args: ["uri": .string(uri(f)), "confirm": .bool(chance(0.5))])
            case 100..<106:
                // Mostly what can be copied; now and then what is refused (the Trash, a permanent folder).
                guard let item = pick(chance(0.85) ? v.movable : v.inTrash + v.permanent.map { ($0, true) }) else {
                    continue
                }
                return Op(
                    name: "duplicate", command: "carrel.duplicate", args: ["uri": .string(uri(item.rel))],
                    copies: contentsUnder(item.rel))
            case 106..<112:
                // Undo and redo are made of the operations' own steps; a kill
                // inside one must leave every file once, as inside those.
                let redo = roll >= 109
                return Op(
                    name: redo ? "redo" : "undo", command: redo ? "carrel.redo" : "carrel.undo",
                    args: chance(0.5) ? [:] : ["library": .string(uri(""))])
            case 112..<118:
                // `carrel.snapshot` and `carrel.rollBack` (Torture+Snapshots.swift): snapshots
                // are written while kills land, then carried along every move.
                guard let op = snapshotOp(v) else { continue }
                return op
            case 95..<96:
                guard let p = pick(v.projects) else { continue }
                // A compiled document lands in the project's Compiled folder, whole or not at all.
                return Op(
                    name: "compile", command: "carrel.compile",
                    args: ["projectUri": .string(uri(p.rel)), "format": "markdown"])
            case 96..<97:
                guard let item = pick(v.movable) else { continue }
                if chance(0.5), let p = pick(v.projects) {
                    // The byline is a setting of project.json, rewritten whole or not at all.
                    return Op(
                        name: "setByline", command: "carrel.setByline",
                        args: ["projectUri": .string(uri(p.rel)), "author": "Ada", "contact": ["a@example.com"]])
                }
                return Op(
                    name: "setCompileIncluded", command: "carrel.setCompileIncluded",
                    args: ["uri": .string(uri(item.rel)), "included": .bool(chance(0.5))])
            default:
                // Commands that must be refused, so kills also land in refusals;
                // and submissions, refused unless the folder picked is a market.
                switch random(7) {
                case 4:
                    guard let f = pick(v.folders.filter { !$0.isEmpty }) else { continue }
                    return Op(
                        name: "setMarket", command: "carrel.setMarket",
                        args: ["uri": .string(uri(f)), "fields": ["fee": .string(newName("fee"))]])
                case 5:
                    guard let f = pick(v.folders.filter { !$0.isEmpty }),
                        let piece = pick(v.movable.filter { !$0.isDir })
                    else { continue }
                    // The text sent is a snapshot under `.carrel`, hidden: never a second visible file.
                    return Op(
                        name: "submit", command: "carrel.submit",
                        args: ["items": [.string(uri(piece.rel))], "marketUri": .string(uri(f)), "confirmed": true])
                case 6:
                    // No such record: refused before anything is written.
                    return chance(0.5)
                        ? Op(
                            name: "refused", command: "carrel.setSubmissionStatus",
                            args: ["record": "0-none", "status": "accepted"])
                        : Op(name: "refused", command: "carrel.withdrawOthers", args: ["record": "0-none"])
                case 0:
                    guard let p = pick(v.permanent) else { continue }
                    return Op(
                        name: "refused", command: "carrel.rename", args: ["uri": .string(uri(p)), "newName": "X"])
                case 1:
                    guard let d = pick(v.movable.filter(\.isDir)) else { continue }
                    return Op(
                        name: "refused", command: "carrel.moveTo",
                        args: ["uri": .string(uri(d.rel)), "destinationUri": .string(uri(d.rel))])
                case 2:
                    guard let f = pick(v.folders) else { continue }
                    return Op(
                        name: "refused", command: "carrel.newFolder",
                        args: ["parentUri": .string(uri(f)), "name": "bad/name"])
                default:
                    guard let m = pick(v.movable) else { continue }
                    return Op(name: "refused", command: "carrel.restore", args: ["uri": .string(uri(m.rel))])
                }
            }
        }
    }
}
