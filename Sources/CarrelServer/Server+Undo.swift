import CarrelModel
import CarrelWorkspace

/// Undo and redo: the commands that can be taken back are noted in their
/// library's journal as they finish (`Workspace+Undo.swift`).
extension Server {
    func journaled(_ command: Workspace.Undoable, _ outcome: Outcome) -> Outcome {
        workspace.noteForUndo(command, outcome)
        return outcome
    }

    /// The library holding `uri`.
    func library(of uri: String) throws(Failure) -> Library {
        switch try target(uri) {
        case .entry(_, let library), .all(_, let library): return library
        }
    }
}
