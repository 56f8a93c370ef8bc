import CarrelModel
import CarrelWorkspace
import Glibc

/// `carrel tree` as text, drawn like tree(1): each row's title first, then
/// its count in the same words every editor shows ("3 files"), dimmed on a
/// terminal. Icon names are for editors to map to glyphs; `--icons` shows
/// them for anyone mapping their own.
struct TreePrinter {
    let workspace: Workspace
    let language: Language
    var icons = false
    /// Dim counts with ANSI escapes: only on a terminal, and never under NO_COLOR.
    var color = false

    /// Colour when standard output is a terminal and NO_COLOR is unset or empty.
    static var wantsColor: Bool {
        guard isatty(1) == 1 else { return false }
        guard let noColor = getenv("NO_COLOR") else { return true }
        return noColor.pointee == 0
    }

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
        var s = icons ? "[\(info.icon)] \(info.title)" : info.title
        if let id = info.projectType, let type = ProjectType.named(id) { s += " (\(type.title(language)))" }
        if info.link { s += " → link" }
        if info.unreadable { s += language == .french ? " (illisible)" : " (unreadable)" }
        if let summary = CountWords.summary(info.counts, language) {
            s += "  " + (color ? "\u{1B}[2m\(summary)\u{1B}[0m" : summary)
        }
        return s
    }
}
