import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace
import Foundation

/// An acceptance offers the accepted pieces a move to their project's
/// Published folder. Asked after the status change is answered, so the
/// change never waits on the writer; a client that never answers moves
/// nothing.
extension Server {
    func offerPublishing(record: String, piece: String?) {
        guard let offer = workspace.publishOffer(record: record, piece: piece) else { return }
        let move = Message.submissionOffer(.actionMoveToPublished)
        let params = ShowMessageRequest.params(
            message: offer.question.text(language),
            actions: [Message.submissionOffer(.actionNotNow), move].map { $0.text(language) })
        let question = request(ShowMessageRequest.method, params) { [self] result in
            let title = ShowMessageRequest.chosenTitle(result)
            guard title == move.text(language) || title == move.text(.english) else { return }
            moveToPublished(offer)
        }
        withdrawUnanswered(question)
    }

    /// Each piece through the ordinary move, as `carrel.moveTo` makes it:
    /// journaled for undo, its records, snapshots and links following. The
    /// pieces are looked up again, since the writer may have moved them
    /// while the question waited; one that is gone or refused is said.
    private func moveToPublished(_ offer: Workspace.PublishOffer) {
        finishScan()
        for piece in offer.pieces {
            do throws(Failure) {
                let source = try target(FileURI.uri(piece))
                let destination = try target(FileURI.uri(offer.published))
                let links = linksBeforeMove(source) { () throws(Failure) in
                    try workspace.planMove(source, to: destination)
                }
                let outcome = try settlingOnRefusal(links) { () throws(Failure) in
                    try journaledMove(source, to: destination, at: nil)
                }
                workspace.expectEvents(of: outcome.changes)
                notifyChanges(takeWatched() + outcome.changes + workspace.settle())
                offerLinkUpdates(links, outcome)
            } catch {
                send(
                    Envelope.notification(
                        ShowMessageNotification.method,
                        ShowMessageNotification.params(message: error.message.text(language))))
            }
        }
    }

    /// A question that waits on no request of the client's: after the
    /// confirmation timeout it is withdrawn, and an answer after that is ignored.
    private func withdrawUnanswered(_ question: RequestID) {
        DispatchQueue.global().asyncAfter(deadline: .now() + confirmationTimeout) { [weak self] in
            guard let self else { return }
            self.work.async {
                guard self.outgoing.removeValue(forKey: question) != nil else { return }
                self.send(
                    Envelope.notification(
                        CancelRequestNotification.method, CancelRequestNotification.params(question)))
            }
        }
    }
}
