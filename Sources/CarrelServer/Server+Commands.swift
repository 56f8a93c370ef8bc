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
        // A command sees every folder, as if the library were read whole,
        // and every change the disk has reported.
        finishScan()
        catchUpWithDisk()
        switch command {
        case .newProject(let parentUri, let name, let typeName):
            guard let type = ProjectType.named(typeName) else {
                throw Failure(
                    .invalidParams, .unknownProjectType(given: typeName, known: ProjectType.ids.joined(separator: ", "))
                )
            }
            finish(id, try workspace.newProject(in: try target(parentUri), name: name, type: type))
        case .newFolder(let parentUri, let name):
            finish(id, journaled(.newItem, try workspace.newFolder(in: try target(parentUri), name: name)))
        case .newFile(let parentUri, let name):
            finish(id, journaled(.newItem, try workspace.newFile(in: try target(parentUri), name: name)))
        case .rename(let uri, let newName):
            let item = try target(uri)
            let links = linksBeforeMove(item) { () throws(Failure) in try workspace.planRename(item, to: newName) }
            let outcome = try settlingOnRefusal(links) { () throws(Failure) in
                journaled(.rename, try workspace.rename(item, to: newName))
            }
            finish(id, outcome)
            offerLinkUpdates(links, outcome)
        case .moveTo(let uri, let destinationUri, let before, let after):
            let source = try target(uri)
            let destination = try target(destinationUri)
            let place = try position(before: before, after: after, required: false)
            let links = linksBeforeMove(source) { () throws(Failure) in try workspace.planMove(source, to: destination)
            }
            let outcome = try settlingOnRefusal(links) { () throws(Failure) in
                try journaledMove(source, to: destination, at: place)
            }
            finish(id, outcome)
            offerLinkUpdates(links, outcome)
        case .reorder(let uri, let before, let after):
            let item = try target(uri)
            guard let (anchor, isAfter) = try anchor(before: before, after: after, required: true) else { return }
            finish(
                id,
                try workspace.journalingSetting(.order, item) { () throws(Failure) -> Outcome in
                    try workspace.reorder(item, relativeTo: anchor, after: isAfter)
                })
        case .delete(let uri, let confirmed):
            try delete(id, uri: uri, confirmed: confirmed)
        case .restore(let uri):
            finish(id, journaled(.restore, try workspace.restore(try target(uri))))
        case .emptyTrash(let projectUri, let confirmed):
            try emptyTrash(id, projectUri: projectUri, confirmed: confirmed)
        case .setSort(let uri, let by, let descending):
            guard let key = SortKey(rawValue: by) else { throw Failure(.invalidParams, .unknownSort(given: by)) }
            let t = try target(uri)
            finish(
                id,
                try workspace.journalingSetting(.sort, t) { () throws(Failure) -> Outcome in
                    try workspace.setSort(t, SortSetting(by: key, descending: descending))
                })
        case .setConfirmDelete(let uri, let confirm):
            let t = try target(uri)
            finish(
                id,
                try workspace.journalingSetting(.confirmDelete, t) { () throws(Failure) -> Outcome in
                    try workspace.setConfirmDelete(t, confirm)
                })
        case .setLinkUpdates(let uri, let mode):
            finish(id, try setLinkUpdates(try target(uri), mode))
        case .setTarget(let uri, let kind, let value):
            let t = try target(uri)
            // A daily target is this device's own, in the state folder: not journaled.
            let set = { [self] () throws(Failure) -> Outcome in
                try workspace.setTarget(t, kind == .words ? .words : .session, value)
            }
            finish(id, kind == .words ? try workspace.journalingSetting(.target, t, set) : try set())
        case .duplicate(let uri):
            finish(id, journaled(.duplicate, try workspace.duplicate(try target(uri))))
        case .setCompileIncluded(let uri, let included):
            finish(id, try workspace.setCompileIncluded(try target(uri), included))
        case .setByline(let projectUri, let author, let contact):
            finish(id, try workspace.setByline(try target(projectUri), author: author, contact: contact))
        case .snapshot, .snapshots, .compareSnapshot, .rollBack:
            try snapshotCommand(id, command)
        case .setMarket, .submit, .setSubmissionStatus, .withdrawOthers:
            try executeSubmission(id, command)
        case .compile(let projectUri, let recipe, let format, let output):
            try compile(
                id, projectUri: projectUri, recipe: recipe, format: format, output: output, token: params.workDoneToken)
        case .undo(let uri):
            try takeBack(id, uri, redoing: false)
        case .redo(let uri):
            try takeBack(id, uri, redoing: true)
        }
    }

    /// The sibling named by `before` or `after` (exactly one of them, or
    /// neither when not `required`), and whether the item goes after it.
    private func anchor(before: String?, after: String?, required: Bool) throws -> (Workspace.Target, Bool)? {
        switch (before, after) {
        case (let b?, nil): return (try target(b), false)
        case (nil, let a?): return (try target(a), true)
        case (nil, nil) where !required: return nil
        default: throw Failure(.invalidParams, .reorderPosition)
        }
    }

    private func position(before: String?, after: String?, required: Bool) throws -> Workspace.Position? {
        guard let (anchor, isAfter) = try anchor(before: before, after: after, required: required) else { return nil }
        guard case .entry(let e, _) = anchor else {
            throw Failure(.permanentFolder, .reorderPermanent(name: "All"))
        }
        return (e, isAfter)
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
        notifyChanges(takeWatched() + outcome.changes + workspace.settle())
        if let report = outcome.report {
            send(
                Envelope.notification(
                    ShowMessageNotification.method, ShowMessageNotification.params(message: report.text(language))))
        }
    }
}
