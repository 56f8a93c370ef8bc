import CarrelJSON
import CarrelModel
import CarrelWorkspace

/// `carrel conflicts`: the copies sync engines left beside the writer's
/// files. They are listed, never merged or removed: which text to keep is
/// the writer's choice.
extension CLI {
    static func conflicts(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let start: Entry
        let library: Library
        let named = try options.positional.first.map { try argument(ws, $0, reading: true) }
        switch try named ?? target(ws, ws.libraries[0].path) {
        case .entry(let e, let l): (start, library) = (e, l)
        case .all(let p, let l): (start, library) = (p.root, l)
        }
        let trashes = Set(library.projects.values.compactMap { $0.trash.map(ObjectIdentifier.init) })
        var found: [(copy: [UInt8], original: [UInt8], exists: Bool)] = []
        start.walk { e in
            if let original = e.conflictOf, let parent = e.parent {
                let path = parent.path + [UInt8(ascii: "/")] + Array(original.utf8)
                found.append((e.path, path, parent.child(original) != nil))
            }
            // The Trash's copies are out of the writing, as its files are out of the counts.
            return e.isDirectory && (e === start || !trashes.contains(ObjectIdentifier(e)))
        }
        found.sort { ($0.original + [0] + $0.copy).lexicographicallyPrecedes($1.original + [0] + $1.copy) }
        if options.has("--json") {
            let list = found.map { c -> JSONValue in
                .object([
                    "copy": .string(Workspace.display(c.copy)), "original": .string(Workspace.display(c.original)),
                    "originalExists": .bool(c.exists),
                ])
            }
            print(JSONValue.array(list).text())
            return
        }
        for c in found { print("\(Workspace.display(c.original))\t\(Workspace.display(c.copy))") }
    }
}
