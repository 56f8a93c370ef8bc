import CarrelModel
import CarrelWorkspace
import Glibc

/// Links from a shell: the setting that says whether renames and moves
/// update them, and `mv` and `rename` following it, or showing with
/// `--dry-run` what they would change.
extension CLI {
    static func links(_ options: inout Options, _ language: Language) throws {
        guard let mode = LinkUpdates(word: options.positional[1]) else {
            throw Failure(.invalidParams, .links(.notAMode(given: options.positional[1])))
        }
        let ws = try library(options)
        let path = absolute(options.positional[0])
        let outcome = try ws.setLinkUpdates(try target(ws, path), mode)
        guard case .item(.entry(let owner, _)) = outcome.result else { return }
        print(Message.links(.modeSet(path: Workspace.display(owner.path), mode: mode)).text(language))
    }

    /// `rename` and `mv`: the move, then the links it broke, per the setting
    /// of the project (or library) the item leaves.
    static func moveUpdatingLinks(_ sub: String, _ options: inout Options, _ language: Language) throws {
        let p = options.positional
        let ws = try library(options)
        let item = try argument(ws, p[0])
        let plan =
            sub == "rename" ? try ws.planRename(item, to: p[1]) : try ws.planMove(item, to: try argument(ws, p[1]))
        let move = LinkMove(from: plan.from, to: plan.to)
        if options.has("--dry-run") { return dryRun(ws, plan, move, language) }
        try moveFollowingLinks(ws, plan, sub == "rename" ? .rename : .move, language) { () throws in
            sub == "rename" ? try ws.rename(item, to: p[1]) : try ws.move(item, to: try argument(ws, p[1]))
        }
    }

    /// Runs a planned rename or move, journaled as `command`, then offers
    /// the links it broke their update, as the setting says.
    static func moveFollowingLinks(
        _ ws: Workspace, _ plan: Workspace.MovePlan, _ command: Workspace.Undoable, _ language: Language,
        _ run: () throws -> Outcome
    ) throws {
        let move = LinkMove(from: plan.from, to: plan.to)
        let mode = ws.linkUpdates(of: plan.entry, in: plan.library)
        let snapshot = mode == .never ? nil : ws.linkSnapshot(plan.library)
        // Recorded before the move and dropped on every way out but a stop
        // (a kill, the terminal closed at the prompt): the editor's next
        // server then asks the question this run could not.
        let question = mode == .never ? nil : ws.recordLinkQuestion(plan)
        defer { question?.remove() }
        let outcome = try run()
        ws.noteForUndo(command, outcome)
        report(ws, outcome, language)
        guard let snapshot, plan.from != plan.to,
            outcome.changes.contains(where: { $0.kind == .moved && !$0.inTrash })
        else { return }
        let fixes = ws.linkEdits(after: move, in: plan.library, since: snapshot)
        guard !fixes.isEmpty else { return }
        let links = fixes.reduce(0) { $0 + $1.edits.count }
        let name = plan.from.last ?? ""
        if mode == .ask {
            guard isatty(0) == 1 else {
                writeError(
                    Message.links(.leftAlone(links: links, files: fixes.count, name: name)).text(language) + "\n")
                return
            }
            writeError(
                Message.confirmLinkUpdate(links: links, files: fixes.count, name: name).text(language) + " [y/N] ")
            let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            guard ["y", "yes", "o", "oui"].contains(answer) else { return }
        }
        let (_, refused, unrecorded) = ws.writeLinkEdits(fixes, in: plan.library, answering: question)
        let updated = fixes.filter { !refused.contains($0.newFile) }
        ws.journalLinkEdits(updated, after: move, in: plan.library, rewrittenOnDisk: Set(updated.map(\.newFile)))
        if !updated.isEmpty {
            let count = updated.reduce(0) { $0 + $1.edits.count }
            writeError(Message.linksUpdated(links: count, files: updated.count).text(language) + "\n")
        }
        let changed = refused.filter { !unrecorded.contains($0) }
        if !changed.isEmpty {
            let names = changed.compactMap(\.last).map { "“\($0)”" }.joined(separator: ", ")
            writeError(Message.linksNotUpdated(names: names).text(language) + "\n")
        }
        if !unrecorded.isEmpty {
            let names = unrecorded.compactMap(\.last).map { "“\($0)”" }.joined(separator: ", ")
            writeError(Message.linksNotRecorded(names: names).text(language) + "\n")
        }
    }

    /// What the move would do, each link edit with its file and line; nothing is written.
    static func dryRun(_ ws: Workspace, _ plan: Workspace.MovePlan, _ move: LinkMove, _ language: Language) {
        let from = Workspace.display(plan.oldPath)
        print(Message.links(.wouldMove(from: from, to: Workspace.display(plan.newPath))).text(language))
        let fixes = plan.from == plan.to || plan.intoTrash ? [] : ws.linkEdits(for: move, in: plan.library)
        guard !fixes.isEmpty else {
            print(Message.links(.noLinkChanges).text(language))
            return
        }
        let links = fixes.reduce(0) { $0 + $1.edits.count }
        print(Message.links(.willChange(links: links, files: fixes.count)).text(language))
        for fix in fixes {
            print("  " + fix.file.joined(separator: "/"))
            let lines = TextLines(fix.text)
            for edit in fix.edits.sorted(by: { $0.start < $1.start }) {
                guard 0 <= edit.start, edit.start <= edit.end, edit.end <= fix.text.count else { continue }
                let old = String(decoding: fix.text[edit.start..<edit.end], as: UTF8.self)
                print("    \(lines.position(edit.start).line + 1): \(old) → \(edit.newText)")
            }
        }
    }
}
