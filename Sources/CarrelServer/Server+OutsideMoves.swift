import CarrelModel
import CarrelWorkspace

/// A rename or move another program made on this machine (a shell's `mv`)
/// breaks links as Carrel's own would: the writer is offered the same
/// update, by the same setting and rules. Moves that arrived by sync are
/// never offered (`Watching+OutsideMoves.swift` says which are which).
extension Server {
    struct OutsideMoves {
        let before: LinksBeforeMove
        let move: LinkMove
        /// The one item's old name, when one item moved.
        let name: String?
    }

    /// What the watcher's last batch moved, with the links as they were,
    /// taken before the batch's changes reach the index.
    func outsideMovesOfLastBatch() -> [OutsideMoves] {
        let moves = workspace.takeOutsideMoves()
        guard !moves.isEmpty, state == .running else { return [] }
        var out: [OutsideMoves] = []
        for library in workspace.libraries {
            var pairs: [LinkMove] = []
            var first: Entry?
            for moved in moves {
                guard let old = moved.oldPath, let from = workspace.libraryPath(ofAbsolute: old, in: library),
                    let to = workspace.libraryPath(ofAbsolute: moved.path, in: library), from != to,
                    let entry = workspace.entry(at: to, in: library)
                else { continue }
                pairs.append(LinkMove(from: from, to: to))
                if first == nil { first = entry }
            }
            guard let first, !pairs.isEmpty else { continue }
            let move = LinkMove(pairs)
            let mode = workspace.linkUpdates(of: first, in: library)
            guard mode != .never else { continue }
            let before = LinksBeforeMove(
                library: library, snapshot: workspace.linkSnapshot(library, undoing: move),
                open: openDocuments(in: library), mode: mode)
            out.append(OutsideMoves(before: before, move: move, name: pairs.count == 1 ? move.pairs[0].from.last : nil))
        }
        return out
    }

    func offerLinkUpdates(_ moves: [OutsideMoves]) {
        for m in moves {
            offerLinkUpdates(m.before, m.move) { links, files in
                .links(.outsideMove(links: links, files: files, name: m.name, items: m.move.pairs.count))
            }
        }
    }
}
