import CarrelModel
import CarrelStore

/// A question's record, as the server holds it until it is answered.
public typealias LinkQuestionFile = LinkQuestionRecord.Written

/// A link question a stopped Carrel left unanswered (`LinkQuestionRecord`).
public struct LeftLinkQuestion {
    public let library: Library
    public let move: LinkMove
    /// Removed once asked and answered, or found moot.
    public let record: LinkQuestionRecord.Written

    /// Drops the record: the question was answered, or needs no answer.
    public func settle() { record.remove() }
}

/// The question about the links a move breaks is recorded before the move,
/// so a stop before the writer answers leaves the question, not a silent
/// choice: the next server asks it again, where the move is still true.
extension Workspace {
    /// Records the question `plan` will raise, before the move is made.
    /// Nil when it needs none (a move into the Trash, nowhere new) or the
    /// record could not be written: then the move goes on as before, and a
    /// stop before the answer leaves the links as "Don't Update" would.
    public func recordLinkQuestion(_ plan: MovePlan) -> LinkQuestionRecord.Written? {
        guard !plan.intoTrash, plan.from != plan.to else { return nil }
        let record = LinkQuestionRecord(library: plan.library.realPath, from: plan.from, to: plan.to)
        guard let written = record.write(for: plan.library.realPath) else {
            log("link question not recorded: the state folder could not be written")
            return nil
        }
        return written
    }

    /// Reads the questions left for `library` when it is opened; a refused
    /// record is left where it is and named to the writer.
    func findLinkQuestions(_ library: Library) {
        for found in LinkQuestionRecord.left(for: library.realPath) {
            switch found.record {
            case .failure(let flaw):
                log("link question record \(found.path) refused: \(flaw)")
                notices.append(.linkRecordRefused(path: found.path, because: flaw))
            case .success(let record):
                leftLinkQuestions.append(
                    LeftLinkQuestion(
                        library: library, move: LinkMove(from: record.from, to: record.to), record: found.written))
            }
        }
    }

    /// Whether the move a left question is about still stands: its item at
    /// its new place and nothing at its old. A move that never happened
    /// (the stop came before it), or was undone, asks nothing.
    public func stillMoved(_ question: LeftLinkQuestion) -> Bool {
        guard let pair = question.move.pairs.first, libraries.contains(where: { $0 === question.library }) else {
            return false
        }
        return entry(at: pair.to, in: question.library) != nil && entry(at: pair.from, in: question.library) == nil
    }

    /// The links as they were before `move`, from the index as it is now:
    /// after a restart it knows only the files' new places, which is what
    /// a move just made leaves too.
    public func linkSnapshot(_ library: Library, reverting move: LinkMove) -> LinkSnapshot {
        linkSnapshot(library, afterMaking: move)
    }
}
