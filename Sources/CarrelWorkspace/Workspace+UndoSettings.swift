import CarrelModel
import CarrelStore

/// Undo and redo of settings: a sort, a folder's binder order, a word
/// target, whether deleting asks first. Each step keeps the setting's
/// values before and after, as short texts by name; undo puts the values
/// before back only while the setting still reads the values after, so a
/// change made since (another machine's, through sync) is never undone.
extension Workspace {
    public enum UndoableSetting: Sendable {
        /// `carrel.setSort`: the project's sorts (its own and its folders'), or the library's.
        case sort
        /// `carrel.reorder`: the folder's order file and its sort, which becomes binder order.
        case order
        /// `carrel.setTarget` with `words`; a daily target is this device's own and not journaled.
        case target
        /// `carrel.setConfirmDelete`.
        case confirmDelete

        var operation: JournalEntry.Operation {
            switch self {
            case .sort: return .sorted
            case .order: return .reordered
            case .target: return .targetSet
            case .confirmDelete: return .askingChanged
            }
        }
    }

    /// Runs a command that changes a setting and journals what it changed.
    public func journalingSetting(
        _ kind: UndoableSetting, _ target: Target, _ command: () throws(Failure) -> Outcome
    ) throws(Failure) -> Outcome {
        let subject = settingSubject(kind, target)
        let before = subject.flatMap { settingState(kind.operation, of: $0.0, $0.1) }
        let outcome = try command()
        guard let (entry, library) = subject, let before,
            let after = settingState(kind.operation, of: entry, library), after != before,
            let path = entry === library.root ? "" : relativePath(entry.path, in: library)
        else { return outcome }
        addStep(JournalEntry(setting: kind.operation, path: path, before: before, after: after), in: library)
        return outcome
    }

    /// The item whose setting a command changes: a reorder's folder, a
    /// project's root for its "All", the project or library deleting asks in.
    private func settingSubject(_ kind: UndoableSetting, _ target: Target) -> (Entry, Library)? {
        switch (kind, target) {
        case (.order, .entry(let e, let l)): return e.parent.map { ($0, l) }
        case (.confirmDelete, .entry(let e, let l)): return (l.project(containing: e)?.root ?? l.root, l)
        case (_, .entry(let e, let l)): return (e, l)
        case (_, .all(let p, let l)): return (p.root, l)
        }
    }

    /// The setting's values now, or nil when they cannot be journaled (a
    /// name the journal cannot hold).
    func settingState(_ operation: JournalEntry.Operation, of subject: Entry, _ library: Library) -> [String: String]? {
        switch operation {
        case .sorted: return sortState(subject, library)
        case .reordered:
            // The order shown, not the file: a folder in binder order with
            // no file yet shows name order, and undo must show that again.
            // Outside binder order the order is not shown, and not kept.
            var state = sortState(subject, library)
            let project = library.project(containing: subject)
            guard library.sort(inside: subject, project).by == .manual else { return state }
            let names = library.displayOrder(of: subject, in: project).map(\.name)
            guard names.allSatisfy({ $0.isValidUTF8 && !$0.string.contains("\n") }) else { return nil }
            if !names.isEmpty { state["order"] = names.map(\.string).joined(separator: "\n") }
            return state
        case .targetSet:
            guard let p = library.project(containing: subject) else { return nil }
            return p.metadata.targets[p.relativePath(of: subject)].map { ["target": String($0)] } ?? [:]
        case .askingChanged:
            let asks = library.project(containing: subject)?.metadata.confirmDelete ?? library.settings.confirmDelete
            return ["confirmDelete": asks ? "yes" : "no"]
        default: return nil
        }
    }

    private func sortState(_ subject: Entry, _ library: Library) -> [String: String] {
        guard let p = library.project(containing: subject) else { return ["sort": Self.text(library.settings.sort)] }
        var state = ["sort": Self.text(p.metadata.sort)]
        for (path, sort) in p.metadata.folderSorts { state["folder:" + path] = Self.text(sort) }
        return state
    }

    /// Puts a setting's values before back, after checking it still reads
    /// the values after and that every value read back is one Carrel writes.
    func putBack(_ step: JournalEntry, _ library: Library) throws(Failure) -> Outcome {
        let parts = step.path.isEmpty ? [] : try components(step.path)
        guard let subject = entry(at: parts, in: library) else {
            throw Failure(.notFound, .undoItemGone(path: step.path))
        }
        let shown = step.path.isEmpty ? library.displayName : step.path
        guard let before = step.before, let after = step.after,
            settingState(step.operation, of: subject, library) == after
        else { throw Failure(.conflict, .undoSettingChanged(path: shown)) }
        try checkUnlocked(subject, library)
        let unusable = Failure(.conflict, .undoStepUnusable(path: shown))
        let project = library.project(containing: subject)
        switch step.operation {
        case .sorted:
            let sorts = try parseSorts(before, unusable)
            try applySorts(sorts, subject, library)
        case .reordered:
            let sorts = try parseSorts(before, unusable)
            let names = (before["order"] ?? "").split(separator: "\n").map(String.init)
            guard subject.kind == .directory, !names.contains(where: { $0.contains("/") || $0.contains("\0") })
            else { throw unusable }
            // No order kept: the folder was not in binder order, and its order file is not read.
            if !names.isEmpty { try writeOrder(BinderOrder(names.map { EntryName($0) }), of: subject, library) }
            try applySorts(sorts, subject, library)
            subject.binderOrderChanged()
        case .targetSet:
            let value = before["target"].map { Int($0) }
            guard let p = project, value.map({ $0.map { $0 > 0 && $0 <= ProjectMetadata.maxTarget } ?? false }) ?? true
            else { throw unusable }
            let key = p.relativePath(of: subject)
            try updateMetadataOrFail(p) { $0.targets[key] = value ?? nil }
        case .askingChanged:
            guard let said = before["confirmDelete"], said == "yes" || said == "no" else { throw unusable }
            if let p = project {
                try updateMetadataOrFail(p) { $0.confirmDelete = said == "yes" }
            } else {
                library.settings.confirmDelete = said == "yes"
                StateFiles.save(library.settings, for: library.path)
            }
        default: throw unusable
        }
        return Outcome(result: .item(.entry(subject, library)), changes: [Change(.changed, subject.path)])
    }

    private typealias Sorts = (sort: SortSetting, folders: [String: SortSetting])

    /// A step's sorts, all read before anything is written.
    private func parseSorts(_ values: [String: String], _ unusable: Failure) throws(Failure) -> Sorts {
        guard let sort = values["sort"].flatMap(Self.sortSetting) else { throw unusable }
        var folders: [String: SortSetting] = [:]
        for (key, value) in values where key.hasPrefix("folder:") {
            let path = String(key.dropFirst("folder:".count))
            guard let s = Self.sortSetting(value), path.isEmpty || (try? components(path)) != nil else {
                throw unusable
            }
            folders[path] = s
        }
        return (sort, folders)
    }

    private func applySorts(_ sorts: Sorts, _ subject: Entry, _ library: Library) throws(Failure) {
        guard let p = library.project(containing: subject) else {
            guard library.settings.sort != sorts.sort else { return }
            library.settings.sort = sorts.sort
            StateFiles.save(library.settings, for: library.path)
            library.root.binderOrderChanged()
            return
        }
        guard p.metadata.sort != sorts.sort || p.metadata.folderSorts != sorts.folders else { return }
        let touched = Set(p.metadata.folderSorts.keys).union(sorts.folders.keys)
        try updateMetadataOrFail(p) {
            $0.sort = sorts.sort
            $0.folderSorts = sorts.folders
        }
        let base = p.root.components(below: library.root)?.map(\.string) ?? []
        for path in touched {
            let names = path.split(separator: "/").map(String.init)
            entry(at: base + names, in: library)?.binderOrderChanged()
        }
    }

    func settingReport(_ step: JournalEntry, redoing: Bool, _ outcome: Outcome, _ library: Library) -> Report? {
        guard case .item(.entry(let subject, _)) = outcome.result else { return nil }
        let name = title(of: subject, in: library)
        switch step.operation {
        case .sorted: return redoing ? .sortedAgain(name: name) : .sortedAsBefore(name: name)
        case .reordered: return redoing ? .reorderedAgain(name: name) : .orderPutBack(name: name)
        case .targetSet: return redoing ? .targetSetAgain(name: name) : .targetPutBack(name: name)
        case .askingChanged:
            return step.before?["confirmDelete"] == "yes"
                ? .askingBeforeDeleting(in: name) : .notAskingBeforeDeleting(in: name)
        default: return nil
        }
    }

    static func text(_ sort: SortSetting) -> String { sort.by.rawValue + (sort.descending ? " descending" : "") }

    static func sortSetting(_ text: String) -> SortSetting? {
        let parts = text.split(separator: " ")
        guard let first = parts.first, let by = SortKey(rawValue: String(first)), parts.count <= 2 else { return nil }
        if parts.count == 2 { return parts[1] == "descending" ? SortSetting(by: by, descending: true) : nil }
        return SortSetting(by: by)
    }
}
