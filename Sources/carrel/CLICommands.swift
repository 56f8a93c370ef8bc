import CarrelJSON
import CarrelModel
import CarrelServer
import CarrelWorkspace
import Foundation
import Glibc

extension CLI {
    static func initProject(_ options: inout Options, _ language: Language) throws {
        guard let typeName = options.value("--type") else { throw options.wrongArguments }
        guard let type = ProjectType.matching(typeName) else {
            let known = ProjectType.all.map(\.title.en).joined(separator: ", ")
            throw Failure(.invalidParams, .notAProjectType(given: typeName, known: known))
        }
        let ws = try library(options)
        let dir = absolute(options.positional[0])
        report(ws, try placeProject(ws, dir, type), language)
    }

    /// Makes the project `dir`; its folder being a subfolder of a library is
    /// refused with the library named, and the way to another.
    static func placeProject(_ ws: Workspace, _ dir: [UInt8], _ type: ProjectType) throws(Failure) -> Outcome {
        do {
            switch Workspace.kind(of: dir) {
            case .missing:
                return try ws.newProject(in: try target(ws, parent(dir)), name: lastComponent(dir), type: type)
            default:
                // An existing folder becomes a project in place: the Workspace only adds.
                return try ws.makeProject(try target(ws, dir), type: type)
            }
        } catch {
            guard error.message == .projectPlacement else { throw error }
            let library = Workspace.display(ws.libraries[0].path)
            throw Failure(error.reason, .projectNotInLibrary(folder: Workspace.display(parent(dir)), library: library))
        }
    }

    static func tree(_ options: inout Options, _ language: Language) throws {
        var depth = Int.max
        if let d = options.value("--depth") {
            guard let n = Int(d), n >= 0 else { throw options.wrongArguments }
            depth = n
        }
        let ws = try library(options)
        let t: Workspace.Target
        if let arg = options.positional.first {
            t = try folder(try argument(ws, arg, reading: true), Workspace.display(absolute(arg)))
        } else {
            // The current folder when it is in the library, else the whole library.
            if let here = try? target(ws, absolute(".")) {
                t = here
            } else {
                t = try target(ws, ws.libraries[0].path)
            }
        }
        let item = t.item
        // The CLI shows counts at once: it counts now, from the cache where it can.
        ws.queueUncountedWords()
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
        if options.has("--json") {
            var w = JSONWriter()
            w.beginArray()
            NodeRenderer(workspace: ws, language: language).write(item, depth: depth, to: &w)
            w.endArray()
            print(String(decoding: w.bytes, as: UTF8.self))
        } else {
            var out = ""
            let printer = TreePrinter(
                workspace: ws, language: language, icons: options.has("--icons"), color: TreePrinter.wantsColor)
            printer.print(item, depth: depth, into: &out)
            Swift.print(out, terminator: "")
        }
    }

    static func sort(_ options: inout Options, _ language: Language) throws {
        let word = options.positional[1].lowercased()
        guard let key = SortKey(rawValue: word) else {
            throw Failure(.invalidParams, .notASortOrder(given: options.positional[1]))
        }
        let ws = try library(options)
        let path = absolute(options.positional[0])
        let t = try folder(try target(ws, path), Workspace.display(path))
        let outcome = try ws.journalingSetting(.sort, t) { () throws(Failure) -> Outcome in
            try ws.setSort(t, SortSetting(by: key, descending: options.has("--descending")))
        }
        guard case .item(.entry(let sorted, _)) = outcome.result else { return }
        if key == .manual {
            print(Message.inBinderOrder(path: Workspace.display(sorted.path)).text(language))
            return
        }
        let message = Message.sorted(
            path: Workspace.display(sorted.path), key: key.rawValue,
            descending: options.has("--descending"))
        print(message.text(language))
    }

    /// Places PATH before or after SIBLING, as the editors' move up and move
    /// down do. A SIBLING without "/" is a name in PATH's folder.
    static func reorder(_ options: inout Options, _ language: Language) throws {
        let before = options.value("--before")
        let after = options.value("--after")
        guard (before == nil) != (after == nil), let sibling = before ?? after else { throw options.wrongArguments }
        let ws = try library(options)
        let path = absolute(options.positional[0])
        var siblingPath = absolute(sibling)
        if !sibling.contains("/"), let slash = path.lastIndex(of: UInt8(ascii: "/")) {
            siblingPath = Array(path[...slash]) + Array(sibling.utf8)
        }
        let item = try target(ws, path)
        let anchor = try target(ws, siblingPath)
        let outcome = try ws.journalingSetting(.order, item) { () throws(Failure) -> Outcome in
            try ws.reorder(item, relativeTo: anchor, after: after != nil)
        }
        report(ws, outcome, language)
    }

    /// Sets or clears a word target, as the editors' "Set Word Target" does;
    /// with --daily, a project's daily target on this computer.
    static func target(_ options: inout Options, _ language: Language) throws {
        let word = options.positional[1]
        let value: Int?
        if ["none", "aucun", "0"].contains(word.lowercased()) {
            value = nil
        } else {
            let digits = word.filter { $0 != "," && $0 != "_" && $0 != " " && $0 != "\u{202F}" }
            guard let n = Int(digits), n > 0, n <= ProjectMetadata.maxTarget else {
                throw Failure(.invalidParams, .notATarget(given: word, max: ProjectMetadata.maxTarget))
            }
            value = n
        }
        let ws = try library(options)
        let path = absolute(options.positional[0])
        let daily = options.has("--daily")
        let t = try target(ws, path)
        let set = { () throws(Failure) -> Outcome in try ws.setTarget(t, daily ? .session : .words, value) }
        // A daily target is this device's own, in the state folder: not journaled.
        let outcome = daily ? try set() : try ws.journalingSetting(.target, t, set)
        guard case .item(let item) = outcome.result else { return }
        let info = ws.describe(item, language)
        let shown = info.path.map(Workspace.display) ?? info.title
        print(Message.targetSet(path: shown, target: value, daily: daily).text(language))
    }

    /// Turns the question before deleting back on (or off), as the editors'
    /// "Ask before deleting" does, for the project PATH is in or the library.
    static func askBeforeDeleting(_ options: inout Options, _ language: Language) throws {
        let word = options.positional[1].lowercased()
        guard ["yes", "no", "on", "off"].contains(word) else {
            throw Failure(.invalidParams, .notYesOrNo(given: options.positional[1]))
        }
        let asks = word == "yes" || word == "on"
        let ws = try library(options)
        let path = absolute(options.positional[0])
        let t = try target(ws, path)
        let outcome = try ws.journalingSetting(.confirmDelete, t) { () throws(Failure) -> Outcome in
            try ws.setConfirmDelete(t, asks)
        }
        guard case .item(.entry(let owner, _)) = outcome.result else { return }
        print(Message.asksBeforeDeleting(path: Workspace.display(owner.path), asks: asks).text(language))
    }

    static func remove(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let path = absolute(options.positional[0])
        let display = Workspace.display(path)
        let t = try target(ws, path)
        switch try ws.deletePlan(t) {
        case .forever:
            let question = [Message.confirmDeleteForever(name: display)] + ws.sentTextsGoing(with: t)
            try confirm(question.map { $0.text(language) }.joined(separator: " "), options, language)
        case .systemTrash:
            // Outside projects the only way is the system trash, outside the
            // library: only when the writer names it.
            guard options.has("--system-trash") else {
                if case .entry(let e, let l) = t, l.project(at: e) != nil {
                    throw Failure(.cancelled, .projectToSystemTrashNotNamed(path: display))
                }
                throw Failure(.cancelled, .systemTrashNotNamed(path: display))
            }
        case .toTrash:
            break  // the project's Trash gives it back: no question
        }
        let outcome = try ws.delete(t)
        ws.noteForUndo(.delete, outcome)
        switch outcome.result {
        case .deleted: print(Message.deletedForever(path: display).text(language))
        case .systemTrash: print(Message.movedToSystemTrash(path: display).text(language))
        case .item: report(ws, outcome, language)
        }
    }

    static func emptyTrash(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let path = absolute(options.positional[0])
        let display = Workspace.display(path)
        let t = try target(ws, path)
        let project: Project
        switch t {
        case .all(let p, _):
            project = p
        case .entry(let e, let l):
            if e.kind == .symlink { throw Failure(.outsideWorkspace, .isLink(name: display)) }
            guard e.kind == .directory else { throw Failure(.notFound, .emptyTrashOfFile(path: display)) }
            guard let p = l.project(containing: e) else { throw Failure(.notInTrash, .noProjectAt(path: display)) }
            project = p
        }
        let projectPath = Workspace.display(project.root.path)
        let count = project.trash?.children.count ?? 0
        if count == 0 {
            print(Message.trashAlreadyEmpty(project: projectPath).text(language))
            return
        }
        let question =
            [Message.confirmEmptyTrash(project: projectPath, count: count)]
            + ws.sentTextsGoingWithTrash(of: t)
        try confirm(question.map { $0.text(language) }.joined(separator: " "), options, language)
        let outcome = try ws.emptyTrash(t)
        guard case .deleted(let n) = outcome.result else { return }
        print(Message.deletedFromTrash(count: n, project: projectPath).text(language))
    }

    static func mutate(_ sub: String, _ options: inout Options, _ language: Language) throws {
        let p = options.positional
        let ws = try library(options)
        let outcome: Outcome
        let command: Workspace.Undoable
        switch sub {
        case "new-folder": (outcome, command) = (try ws.newFolder(in: try argument(ws, p[0]), name: p[1]), .newItem)
        case "new-file": (outcome, command) = (try ws.newFile(in: try argument(ws, p[0]), name: p[1]), .newItem)
        case "restore": (outcome, command) = (try ws.restore(try argument(ws, p[0])), .restore)
        case "duplicate": (outcome, command) = (try ws.duplicate(try argument(ws, p[0])), .duplicate)
        default: throw Usage(.unknownSubcommand(name: sub))
        }
        ws.noteForUndo(command, outcome)
        report(ws, outcome, language)
    }

    /// Prints the path a command acted on, as it is now, and on stderr what
    /// the server would report to an editor where it says more than the
    /// path: a restore that went by a guess, what a duplicate left out.
    static func report(_ ws: Workspace, _ outcome: Outcome, _ language: Language) {
        // What the command left undone on its own (a merge rule not written) goes beside the output.
        for notice in ws.notices { writeError(notice.text(language) + "\n") }
        ws.notices.removeAll()
        if case .restoredByGuess = outcome.report, let report = outcome.report {
            writeError(report.text(language) + "\n")
        }
        if case .duplicatedLeavingOut? = outcome.report, let said = outcome.report?.text(language) {
            writeError("carrel: \(said)\n")
        }
        guard case .item(let item) = outcome.result else { return }
        let info = ws.describe(item, language)
        print(info.path.map(Workspace.display) ?? info.title)
    }

    /// Asks on stderr and reads the answer from stdin, a terminal or not;
    /// no answer at all (stdin closed or empty) is a refusal that names --yes.
    static func confirm(_ question: String, _ options: Options, _ language: Language) throws(Failure) {
        if options.has("--yes") { return }
        writeError("\(question) [y/N] ")
        guard let line = readLine() else {
            writeError("\n")
            throw Failure(.cancelled, .noAnswer)
        }
        if isatty(0) == 0 { writeError("\(line)\n") }
        let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
        guard ["y", "yes", "o", "oui"].contains(answer) else { throw Failure(.cancelled, .cancelled) }
    }
}
