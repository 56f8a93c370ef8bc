import CarrelModel
import CarrelWorkspace

/// The question about the links a rename or move through Carrel breaks
/// outlives a stop: it is recorded before the move and dropped once
/// answered, so a crash (or the editor closed on it) leaves the question,
/// which the next server asks again once a client is there to answer.
extension Server {
    /// `linksBeforeMove`, with the question `plan` will raise recorded
    /// first when the setting may ask or update.
    func linksBeforeMove(_ item: Workspace.Target, plan: () throws(Failure) -> Workspace.MovePlan)
        -> LinksBeforeMove?
    {
        guard var before = linksBeforeMove(item) else { return nil }
        guard before.mode != .never, let planned = try? plan(), planned.library === before.library,
            let record = workspace.recordLinkQuestion(planned)
        else { return before }
        before.question = record
        return before
    }

    /// Runs a move; a refused one raises no question, so its record goes.
    func settlingOnRefusal(_ before: LinksBeforeMove?, _ move: () throws(Failure) -> Outcome) throws(Failure)
        -> Outcome
    {
        do {
            return try move()
        } catch {
            before?.settle()
            throw error
        }
    }

    /// Asks again each question a stopped Carrel left, where its move
    /// still stands and its links still point to the old place; any other
    /// is dropped unasked.
    func askLeftLinkQuestions() {
        guard state == .running, !workspace.leftLinkQuestions.isEmpty else { return }
        finishScan()
        let questions = workspace.leftLinkQuestions
        workspace.leftLinkQuestions = []
        for q in questions {
            guard workspace.stillMoved(q), let pair = q.move.pairs.first,
                let entry = workspace.entry(at: pair.to, in: q.library)
            else {
                q.settle()
                continue
            }
            let before = LinksBeforeMove(
                library: q.library, snapshot: workspace.linkSnapshot(q.library, reverting: q.move),
                open: openDocuments(in: q.library), mode: workspace.linkUpdates(of: entry, in: q.library),
                question: q.record, journaled: true, reasked: true)
            offerLinkUpdates(before, q.move) { links, files in
                .confirmLinkUpdate(links: links, files: files, name: pair.from.last ?? "")
            }
        }
    }
}
