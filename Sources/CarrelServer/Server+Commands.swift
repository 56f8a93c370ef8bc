import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

extension Server {
    func execute(_ id: RequestID, _ params: ExecuteCommandRequest.Params) throws {
        guard let name = CarrelCommand.Name(rawValue: params.command) else {
            throw ParamError("command", .invalidValue(params.command))
        }
        let command = try CarrelCommand(name, params.argument)
        switch command {
        case .newProject(let parentUri, let name, let typeName):
            guard let type = ProjectType.named(typeName) else {
                throw Failure(
                    .invalidParams, .unknownProjectType(given: typeName, known: ProjectType.ids.joined(separator: ", "))
                )
            }
            finish(id, try workspace.newProject(in: try target(parentUri), name: name, type: type))
        case .newFolder(let parentUri, let name):
            finish(id, try workspace.newFolder(in: try target(parentUri), name: name))
        case .newFile(let parentUri, let name):
            finish(id, try workspace.newFile(in: try target(parentUri), name: name))
        case .rename(let uri, let newName):
            finish(id, try workspace.rename(try target(uri), to: newName))
        case .moveTo(let uri, let destinationUri):
            let source = try target(uri)
            finish(id, try workspace.move(source, to: try target(destinationUri)))
        case .delete(let uri, let confirmed):
            try delete(id, uri: uri, confirmed: confirmed)
        case .restore(let uri):
            finish(id, try workspace.restore(try target(uri)))
        case .emptyTrash(let projectUri, let confirmed):
            try emptyTrash(id, projectUri: projectUri, confirmed: confirmed)
        case .setSort(let uri, let by, let descending):
            guard let key = SortKey(rawValue: by) else { throw Failure(.invalidParams, .unknownSort(given: by)) }
            finish(id, try workspace.setSort(try target(uri), SortSetting(by: key, descending: descending)))
        case .setConfirmDelete(let uri, let confirm):
            finish(id, try workspace.setConfirmDelete(try target(uri), confirm))
        case .setTarget(let uri, let kind, let value):
            finish(id, try workspace.setTarget(try target(uri), kind == .words ? .words : .session, value))
        }
    }

    /// Answers with the command's result, then tells every client what
    /// changed, then the writer what was done, where the outcome says.
    func finish(_ id: RequestID, _ outcome: Outcome) {
        workspace.expectEvents(of: outcome.changes)
        switch outcome.result {
        case .item(let item): reply(id) { w in node(item).write(to: &w, children: nil) }
        case .deleted(let n): reply(id, ["deleted": .int(n)])
        case .systemTrash: reply(id, ["systemTrash": true])
        }
        notifyChanges(outcome.changes + workspace.settle())
        if let report = outcome.report {
            send(
                Envelope.notification(
                    ShowMessageNotification.method, ShowMessageNotification.params(message: report.text(language))))
        }
    }
}
