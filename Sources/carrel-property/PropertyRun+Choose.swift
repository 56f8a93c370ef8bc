import CarrelJSON
import Foundation
import Glibc

/// The next step, chosen from what the disk holds now, biased toward the
/// commands that read and write Carrel's own files.
extension PropertyRun {
    /// The library as the disk has it, writer-visible names only.
    struct View {
        var trash: [String] = []
        var trashTop: [String] = []
        var movable: [String] = []
        var folders: [String] = []
    }

    func view() -> View {
        var v = View()
        v.folders = [""]
        for n in Disk.walk(box.lib, includeHidden: false) {
            let parts = n.rel.split(separator: "/").map(String.init)
            if isPinned(n.rel) {
                if n.isDir { v.folders.append(n.rel) }
                continue
            }
            guard let project = projects.first(where: { $0.name == parts[0] }) else {
                v.movable.append(n.rel)
                if n.isDir { v.folders.append(n.rel) }
                continue
            }
            if parts.count == 1 {
                v.folders.append(n.rel)
                continue
            }
            if parts[1] == "Trash" {
                if parts.count == 3 { v.trashTop.append(n.rel) }
                if parts.count >= 3 { v.trash.append(n.rel) }
                continue
            }
            let permanent = parts.count == 2 && Self.writerFolders[project.type]!.contains(parts[1])
            if n.isDir { v.folders.append(n.rel) }
            if !permanent { v.movable.append(n.rel) }
        }
        return v
    }

    /// The visible children of `folder`.
    func children(_ folder: String) -> [String] {
        Disk.walk(box.path(folder), includeHidden: false).filter { !$0.rel.contains("/") }.map {
            folder.isEmpty ? $0.name : folder + "/" + $0.name
        }
    }

    func projectOf(_ rel: String) -> String? {
        let first = rel.split(separator: "/").first.map(String.init)
        return projects.first { $0.name == first }?.name
    }

    /// A path a setting may be keyed by: a file, a folder, a project, or one
    /// that project.json names (forged entries included).
    func settingPath(_ v: View) -> String {
        if chance(50), let p = pick(projects)?.name,
            let keys = (projectJSON(p)["targets"]?.objectValue?.keys).map(Array.init), let k = pick(keys.sorted())
        {
            return p + "/" + k
        }
        return pick(v.movable + v.folders.filter { !$0.isEmpty }) ?? "P1"
    }

    func choose() -> Step {
        let v = view()
        while true {
            let roll = random(118)
            switch roll {
            case 0..<9:
                guard let p = pick(projects) else { continue }
                return .command("carrel.emptyTrash", ["projectUri": .string(box.uri(p.name)), "confirmed": true])
            case 9..<14:
                guard let item = pick(v.trash) else { continue }
                return .command("carrel.delete", ["uri": .string(box.uri(item)), "confirmed": true])
            case 14..<28:
                // Conflict copies and forged origins first: that is where restores go wrong.
                let odd = v.trashTop.filter { !$0.hasSuffix("/old.md") && !$0.contains("/gone") }
                guard let item = chance(60) ? pick(odd) ?? pick(v.trashTop) : pick(v.trash) else { continue }
                return .command("carrel.restore", ["uri": .string(box.uri(item))])
            case 28..<38:
                let words: JSONValue = chance(50) ? .null : .int(pick([1, 500, 100_000, 1_000_000_000])!)
                return .command("carrel.setTarget", ["uri": .string(box.uri(settingPath(v))), "words": words])
            case 38..<45:
                guard let f = pick(v.folders.filter { !$0.isEmpty }) else { continue }
                let by = pick(["manual", "name", "modified", "created"])!
                return .command(
                    "carrel.setSort", ["uri": .string(box.uri(f)), "by": .string(by), "descending": .bool(chance(50))])
            case 45..<48:
                guard let f = pick(v.folders.filter { !$0.isEmpty }) else { continue }
                return .command("carrel.setConfirmDelete", ["uri": .string(box.uri(f)), "confirm": .bool(chance(50))])
            case 48..<58:
                guard let (item, sibling) = reorderPair() else { continue }
                return .command(
                    "carrel.reorder",
                    ["uri": .string(box.uri(item)), chance(50) ? "before" : "after": .string(box.uri(sibling))])
            case 58..<64:
                guard let item = pick(v.movable) else { continue }
                return .command("carrel.delete", ["uri": .string(box.uri(item)), "confirmed": true])
            case 64..<67:
                guard let item = pick(v.movable) else { continue }
                let ext = item.hasSuffix(".md") ? ".md" : ""
                return .command(
                    "carrel.rename", ["uri": .string(box.uri(item)), "newName": .string("renamed\(random(100))" + ext)])
            case 67..<70:
                guard let item = pick(v.movable), let dest = pick(v.folders) else { continue }
                return .command(
                    "carrel.moveTo", ["uri": .string(box.uri(item)), "destinationUri": .string(box.uri(dest))])
            case 70..<72:
                guard let f = pick(v.folders) else { continue }
                return .command(
                    "carrel.newFile", ["parentUri": .string(box.uri(f)), "name": .string("new\(random(1000))")])
            case 72..<75:
                return .tree(chance(50) ? nil : pick(v.folders).map { box.uri($0) })
            case 75..<86:
                guard let args = cliArguments(v) else { continue }
                return .cli(args + ["--library", box.lib])
            case 86..<91:
                return .restart(graceful: chance(70))
            case 106..<118:
                guard let step = keptFilesStep(v) else { continue }
                return step
            case 100..<106:
                // Undo and redo read this device's journal, which the run forges too.
                let args: JSONValue = chance(50) ? [:] : ["library": .string(box.uri(""))]
                return .command(chance(60) ? "carrel.undo" : "carrel.redo", args)
            default:
                guard let change = outsideChange(v) else { continue }
                return change
            }
        }
    }

    /// Two items of one folder, most often where an order file was planted.
    func reorderPair() -> (String, String)? {
        var folder: String?
        if chance(60), let planted = pick(unreadable.keys.sorted()) {
            folder = planted.split(separator: "/").dropLast().joined(separator: "/")
        }
        if folder == nil, let p = pick(projects)?.name { folder = folderWithItems(p) }
        guard let folder else { return nil }
        let items = children(folder)
        guard items.count >= 2 else { return nil }
        let a = random(items.count)
        var b = random(items.count - 1)
        if b >= a { b += 1 }
        return (items[a], items[b])
    }

    func cliArguments(_ v: View) -> [String]? {
        switch random(10) {
        case 0: return ["target", box.path(settingPath(v)), chance(50) ? "none" : "\(1 + random(900))"]
        case 1:
            guard let f = pick(v.folders.filter { !$0.isEmpty }) else { return nil }
            return ["sort", box.path(f), pick(["manual", "name", "modified", "created"])!]
        case 2:
            guard let (item, sibling) = reorderPair() else { return nil }
            return ["reorder", box.path(item), chance(50) ? "--before" : "--after", box.path(sibling)]
        case 3:
            guard let item = pick(v.trashTop) else { return nil }
            return ["restore", box.path(item)]
        case 4:
            guard let p = pick(projects) else { return nil }
            return ["empty-trash", box.path(p.name), "--yes"]
        case 5:
            guard let item = pick(v.trash + v.movable) else { return nil }
            return ["rm", box.path(item), "--yes"]
        case 6: return ["tree", "--json"]
        case 7: return ["undo"]
        case 8: return ["redo"]
        default: return ["conflicts"]
        }
    }
}
