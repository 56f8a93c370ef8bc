import CarrelModel
import CarrelWorkspace

/// Undo and redo: the commands that can be taken back are noted in their
/// library's journal as they finish (`Workspace+Undo.swift`).
extension Server {
    func journaled(_ command: Workspace.Undoable, _ outcome: Outcome) -> Outcome {
        workspace.noteForUndo(command, outcome)
        return outcome
    }

    /// A move with a position inside the item's own folder is a reorder
    /// (a drag within a folder), and is taken back as one.
    func journaledMove(_ source: Workspace.Target, to destination: Workspace.Target, at place: Workspace.Position?)
        throws(Failure) -> Outcome
    {
        if place != nil, case .entry(let item, _) = source, case .entry(let folder, _) = destination,
            item.parent === folder
        {
            return try workspace.journalingSetting(.order, source) { () throws(Failure) -> Outcome in
                try workspace.move(source, to: destination, at: place)
            }
        }
        return journaled(.move, try workspace.move(source, to: destination, at: place))
    }

    /// The library holding `uri`.
    func library(of uri: String) throws(Failure) -> Library {
        switch try target(uri) {
        case .entry(_, let library), .all(_, let library): return library
        }
    }
}
