import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// After a rename or move made through Carrel, the links it broke: the
/// writer is asked, then closed files are rewritten on disk (atomically,
/// only when unchanged since read) and open buffers are edited through the
/// client (`workspace/applyEdit`), never on disk.
extension Server {
    struct LinksBeforeMove {
        let library: Library
        /// Nil for Carrel's own move: rebuilt after it, once clients were told.
        let snapshot: Workspace.LinkSnapshot?
        /// Open buffers by library path before the move, with the client's URI.
        let open: [[String]: (uri: String, text: [UInt8])]
        /// The setting of the project (or library) the item left.
        let mode: LinkUpdates
        /// The question's record (`Server+LinkQuestions.swift`): the edits'
        /// record names it, and it goes once that one is durable.
        var question: LinkQuestionFile? = nil
        /// Drops the question's record once it is answered or needs no answer.
        func settle() { question?.remove() }
        /// Carrel's own move, journaled: the edits join its step, so undo
        /// takes them back. Another program's move is not journaled.
        var journaled = false
        /// A question a stopped Carrel left, asked again: its update may
        /// have been made already (`Workspace.withoutEditsAlreadyMade`).
        var reasked = false
    }

    /// What a move will need to find its edits, taken before it.
    func linksBeforeMove(_ item: Workspace.Target) -> LinksBeforeMove? {
        guard case .entry(let e, let library) = item, e !== library.root else { return nil }
        return LinksBeforeMove(
            library: library, snapshot: nil, open: openDocuments(in: library),
            mode: workspace.linkUpdates(of: e, in: library), journaled: true)
    }

    func offerLinkUpdates(_ before: LinksBeforeMove?, _ outcome: Outcome) {
        guard let before, let moved = outcome.changes.first(where: { $0.kind == .moved }), !moved.inTrash,
            let old = moved.oldPath, let from = workspace.libraryPath(ofAbsolute: old, in: before.library),
            let to = workspace.libraryPath(ofAbsolute: moved.path, in: before.library), from != to
        else { return before?.settle() ?? () }
        offerLinkUpdates(before, LinkMove(from: from, to: to)) { links, files in
            .confirmLinkUpdate(links: links, files: files, name: from.last ?? "")
        }
    }

    /// Finds the edits `move` makes, then asks with `question` (links,
    /// files), updates at once, or does nothing, as the setting says.
    func offerLinkUpdates(_ before: LinksBeforeMove, _ move: LinkMove, question: (Int, Int) -> Message) {
        guard before.mode != .never else { return before.settle() }
        let snapshot = before.snapshot ?? workspace.linkSnapshot(before.library, afterMaking: move)
        let found = workspace.linkEdits(
            after: move, in: before.library, since: snapshot, text: { before.open[$0]?.text })
        let fixes = before.reasked ? workspace.withoutEditsAlreadyMade(found, in: before.library) : found
        guard !fixes.isEmpty else { return before.settle() }
        if before.mode == .always {
            updateLinks(fixes, before, move)
            return before.settle()
        }
        let links = fixes.reduce(0) { $0 + $1.edits.count }
        let update = Message.actionUpdateLinks
        let params = ShowMessageRequest.params(
            message: question(links, fixes.count).text(language),
            actions: [Message.actionKeepLinks, update].map { $0.text(language) })
        request(ShowMessageRequest.method, params) { [self] result in
            // Dropped as the edits' own record is written, which names it,
            // so a stop leaves the question or that record, never neither.
            defer { before.settle() }
            let title = ShowMessageRequest.chosenTitle(result)
            guard title == update.text(language) || title == update.text(.english) else { return }
            updateLinks(fixes, before, move)
        }
    }

    private func updateLinks(_ fixes: [LinkFileEdit], _ before: LinksBeforeMove, _ move: LinkMove) {
        let closed = fixes.filter { before.open[$0.file] == nil }
        let (_, refused, unrecorded) = workspace.writeLinkEdits(
            closed, in: before.library, answering: before.question)
        var notUpdated = refused.filter { !unrecorded.contains($0) }.compactMap(\.last)
        var updated = closed.filter { !refused.contains($0.newFile) }
        let onDisk = Set(updated.map(\.newFile))
        let journal = { [self] (done: [LinkFileEdit]) in
            guard before.journaled else { return }
            workspace.journalLinkEdits(done, after: move, in: before.library, rewrittenOnDisk: onDisk)
        }
        // An open buffer gets its edits only if it still holds the text they were made on.
        var open: [(fix: LinkFileEdit, uri: String)] = []
        for fix in fixes {
            guard let o = before.open[fix.file] else { continue }
            if applyEdit, documents[o.uri]?.text == fix.text {
                open.append((fix, o.uri))
            } else {
                notUpdated.append(fix.newFile.last ?? "")
            }
        }
        let unrecordedNames = unrecorded.compactMap(\.last)
        guard !open.isEmpty else {
            journal(updated)
            return reportLinkUpdates(updated, notUpdated, unrecorded: unrecordedNames)
        }
        let edit = WillRenameFilesRequest.edit(open.map { ($0.uri, Self.textEdits($0.fix)) })
        let label = Message.actionUpdateLinks.text(language)
        request(ApplyEditRequest.method, ApplyEditRequest.params(label: label, edit: edit)) { [self] result in
            if ApplyEditRequest.applied(result) {
                updated += open.map(\.fix)
            } else {
                notUpdated += open.map { $0.fix.newFile.last ?? "" }
            }
            journal(updated)
            reportLinkUpdates(updated, notUpdated, unrecorded: unrecordedNames)
        }
    }

    static func textEdits(_ fix: LinkFileEdit) -> [JSONValue] {
        fix.ranges.map { r in
            WillRenameFilesRequest.textEdit(
                startLine: r.startLine, startCharacter: r.startCharacter, endLine: r.endLine,
                endCharacter: r.endCharacter, newText: r.newText)
        }
    }

    private func reportLinkUpdates(_ updated: [LinkFileEdit], _ notUpdated: [String], unrecorded: [String]) {
        var messages: [Message] = []
        if !updated.isEmpty {
            messages.append(.linksUpdated(links: updated.reduce(0) { $0 + $1.edits.count }, files: updated.count))
        }
        if !notUpdated.isEmpty {
            messages.append(.linksNotUpdated(names: notUpdated.map { "“\($0)”" }.joined(separator: ", ")))
        }
        if !unrecorded.isEmpty {
            messages.append(.linksNotRecorded(names: unrecorded.map { "“\($0)”" }.joined(separator: ", ")))
        }
        for m in messages {
            send(
                Envelope.notification(
                    ShowMessageNotification.method, ShowMessageNotification.params(message: m.text(language))))
        }
    }
}
