import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace
import Foundation

/// Deletions are confirmed by the server, so every client asks the same
/// question. While the writer thinks, other requests keep being answered;
/// the deletion itself re-resolves its target when the answer arrives.
extension Server {
    enum Answer { case delete, deleteAndStopAsking, cancel }

    func delete(_ id: RequestID, uri: String, confirmed: Bool) throws(Failure) {
        let now = try target(uri)
        let plan = try workspace.deletePlan(now)
        let run: () throws(Failure) -> Outcome = { [self] () throws(Failure) in
            journaled(.delete, try workspace.delete(try target(uri)))
        }
        switch plan {
        case .toTrash(let ask), .systemTrash(let ask):
            guard ask, !confirmed else { finish(id, journaled(.delete, try workspace.delete(now))); return }
            let name = itemName(now)
            let message: Message
            if case .toTrash = plan {
                message = .confirmDelete(name: name)
            } else {
                message = .confirmSystemTrash(name: name)
            }
            confirm(id, message, offerStopAsking: true) { [self] answer throws(Failure) in
                if answer == .deleteAndStopAsking { workspace.stopAskingBeforeDelete(try target(uri)) }
                return try run()
            }
        case .forever:
            guard !confirmed else { finish(id, journaled(.delete, try workspace.delete(now))); return }
            let question = Message.confirmDeleteForever(name: itemName(now))
            let sent = workspace.sentTextsGoing(with: now)
            confirm(id, question, also: sent, offerStopAsking: false) { _ throws(Failure) in
                try run()
            }
        }
    }

    func emptyTrash(_ id: RequestID, projectUri: String, confirmed: Bool) throws(Failure) {
        let t = try target(projectUri)
        let run: () throws(Failure) -> Outcome = { [self] () throws(Failure) in
            try workspace.emptyTrash(try target(projectUri))
        }
        guard !confirmed, let (project, count) = workspace.trashCount(t) else { finish(id, try run()); return }
        let question = Message.confirmEmptyTrash(project: project, count: count)
        let sent = workspace.sentTextsGoingWithTrash(of: t)
        confirm(id, question, also: sent, offerStopAsking: false) { _ throws(Failure) in
            try run()
        }
    }

    private func itemName(_ target: Workspace.Target) -> String {
        switch target {
        case .entry(let e, let l): return workspace.describe(.entry(e, l), language).title
        case .all(let p, let l): return workspace.describe(.all(p, l), language).title
        }
    }

    /// Asks the client; runs `then` only on a "Delete" answer. The harmless
    /// action comes first: some clients (eglot) pre-select the first, so a
    /// bare Return must not delete. `also` follows the question: what else
    /// the deletion takes.
    private func confirm(
        _ id: RequestID, _ message: Message, also: [Message] = [], offerStopAsking: Bool,
        then: @escaping (Answer) throws(Failure) -> Outcome
    ) {
        var actions: [Message] = [.actionCancel, .actionDelete]
        if offerStopAsking { actions.append(.actionDeleteDontAsk) }
        let params = ShowMessageRequest.params(
            message: ([message] + also).map { $0.text(language) }.joined(separator: " "),
            actions: actions.map { $0.text(language) })
        let question = request(ShowMessageRequest.method, params, avoiding: id) { [self] result in
            guard awaitingAnswer.removeValue(forKey: id) != nil else { return }  // cancelled or timed out meanwhile
            let answer = self.answer(ShowMessageRequest.chosenTitle(result), offerStopAsking: offerStopAsking)
            guard answer != .cancel else {
                reply(id, error: error(Failure(.cancelled, .cancelled)))
                return
            }
            do throws(Failure) { finish(id, try then(answer)) } catch { reply(id, error: self.error(error)) }
        }
        awaitingAnswer[id] = question
        expireUnanswered(id, question)
    }

    /// A client that never answers (ALE has no `window/showMessageRequest`)
    /// must not leave the command pending forever: after the timeout it
    /// fails with `cancelled`, and the client is told the question is void.
    func expireUnanswered(_ id: RequestID, _ question: RequestID) {
        let seconds = confirmationTimeout
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            self.work.async {
                guard self.awaitingAnswer[id] == question else { return }
                self.awaitingAnswer[id] = nil
                self.outgoing[question] = nil
                let withdrawn = CancelRequestNotification.params(question)
                self.send(Envelope.notification(CancelRequestNotification.method, withdrawn))
                self.reply(id, error: self.error(Failure(.cancelled, .confirmationTimedOut(seconds: seconds))))
            }
        }
    }

    private func answer(_ title: String?, offerStopAsking: Bool) -> Answer {
        guard let title else { return .cancel }
        for language in [language, .english] {
            if title == Message.actionDelete.text(language) { return .delete }
            if offerStopAsking && title == Message.actionDeleteDontAsk.text(language) { return .deleteAndStopAsking }
        }
        return .cancel
    }

    /// `$/cancelRequest` for a request waiting on the writer: answer -32800, delete nothing.
    func cancelWaiting(_ id: RequestID) {
        guard awaitingAnswer.removeValue(forKey: id) != nil else { return }
        _ = takeCancellation(id)
        reply(id, error: ResponseError(code: ResponseError.requestCancelled, message: "Request cancelled"))
    }
}
