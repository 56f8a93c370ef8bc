import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// Undo and redo of a rename or move that updated links take the links
/// back too: closed files are rewritten by the workspace, and the buffers
/// open in the editor get theirs through it (`workspace/applyEdit`), after
/// the move's `carrel/didChange`, as the update itself did.
extension Server {
    func takeBack(_ id: RequestID, _ uri: String?, redoing: Bool) throws(Failure) {
        var open: [[String]: (uri: String, text: [UInt8])] = [:]
        let (outcome, edits) = try workspace.takeBack(
            in: try uri.map(library(of:)), redoing: redoing,
            buffers: { [self] library in
                open = openDocuments(in: library)
                return open.mapValues(\.text)
            }, canEditBuffers: applyEdit)
        finish(id, outcome)
        sendNotices()
        let sent = edits.compactMap { fix in open[fix.file].map { (fix, $0.uri) } }
        guard !sent.isEmpty else { return }
        let edit = WillRenameFilesRequest.edit(sent.map { ($0.1, Self.textEdits($0.0)) })
        let label = outcome.report?.text(language) ?? Message.actionUpdateLinks.text(language)
        request(ApplyEditRequest.method, ApplyEditRequest.params(label: label, edit: edit)) { [self] result in
            guard !ApplyEditRequest.applied(result) else { return }
            let names = sent.compactMap { $0.0.newFile.last }.map { "“\($0)”" }.joined(separator: ", ")
            send(
                Envelope.notification(
                    ShowMessageNotification.method,
                    ShowMessageNotification.params(message: Message.undoLinksLeft(names: names).text(language))))
        }
    }
}
