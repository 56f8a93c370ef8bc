import CarrelModel
import CarrelWorkspace

/// `carrel tree` as text, like tree(1).
struct TreePrinter {
    let workspace: Workspace
    let language: Language

    func print(_ item: Item, depth: Int, into out: inout String) {
        out += line(item) + "\n"
        walk(item, prefix: "", depth: depth, into: &out)
    }

    private func walk(_ item: Item, prefix: String, depth: Int, into out: inout String) {
        guard depth > 0 else { return }
        let children = workspace.children(item)
        for (i, child) in children.enumerated() {
            let last = i == children.count - 1
            out += prefix + (last ? "└── " : "├── ") + line(child) + "\n"
            walk(child, prefix: prefix + (last ? "    " : "│   "), depth: depth - 1, into: &out)
        }
    }

    private func line(_ item: Item) -> String {
        let info = workspace.describe(item, language)
        var s = "[\(info.icon)] \(info.title)"
        if let type = info.projectType { s += " (\(type))" }
        if info.link { s += " → link" }
        if info.unreadable { s += " (unreadable)" }
        if info.kind != .file {
            var counts: [String] = []
            if info.folderCount > 0 { counts.append("\(info.folderCount) ▸") }
            if info.fileCount > 0 || info.folderCount > 0 { counts.append("\(info.fileCount)") }
            if info.folderCount == 0 && info.fileCount > 0 { counts = ["\(info.fileCount)"] }
            if !counts.isEmpty { s += "  " + counts.joined(separator: " ") }
        }
        return s
    }
}
