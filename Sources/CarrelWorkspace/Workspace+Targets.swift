import CarrelModel
import CarrelStore

/// Word targets. An item's target lives in its project's project.json,
/// under "targets", keyed by the item's path in the project ("." for the
/// project): one key per line, so two machines setting targets on
/// different items merge. A project's daily session target is this
/// device's alone (`Sessions`, in the state folder).
extension Workspace {
    public enum TargetKind: Sendable { case words, session }

    /// Sets (or, with nil, clears) a target. Checks everything first.
    public func setTarget(_ target: Target, _ kind: TargetKind, _ value: Int?) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        if entry.kind == .symlink { throw Failure(.outsideWorkspace, .isLink(name: entry.name.string)) }
        if let value, value <= 0 || value > ProjectMetadata.maxTarget {
            throw Failure(.invalidParams, .targetOutOfRange(given: value, max: ProjectMetadata.maxTarget))
        }
        guard let project = library.project(containing: entry) else {
            throw Failure(.notInProject, .targetOutsideProject(name: title(of: entry, in: library)))
        }
        switch kind {
        case .words:
            let key = project.relativePath(of: entry)
            if project.metadata.targets[key] != value {
                try updateMetadataOrFail(project) { $0.targets[key] = value }
            }
        case .session:
            guard project.root === entry else {
                throw Failure(.notAProject, .sessionTargetOnProject(name: title(of: entry, in: library)))
            }
            var words = WordSum()
            words.add(project.root)
            words.subtract(project.trash)
            words.subtract(project.compiled)
            sessions.setTarget(project, value, words: words.value)
        }
        return Outcome(result: .item(.entry(entry, library)), changes: [Change(.changed, entry.path)])
    }

    /// The targets at and below `entry`, by path in its project, before a
    /// rename or move: `carryTargets` needs them after.
    func targetsBelow(_ entry: Entry, _ library: Library) -> (Project, String)? {
        guard let p = library.project(containing: entry) else { return nil }
        let old = p.relativePath(of: entry)
        // Left-out items follow the same way (`ProjectMetadata.moveTargets` moves both).
        let any =
            p.metadata.targets.keys.contains { $0 == old || $0.hasPrefix(old + "/") }
            || p.metadata.leftOut.contains { $0 == old || $0.hasPrefix(old + "/") }
        return any ? (p, old) : nil
    }

    /// Targets follow an item Carrel renamed or moved. Bookkeeping after the
    /// files moved: a project.json that cannot be written leaves the old keys.
    func carryTargets(_ entry: Entry, from before: (Project, String)?, _ library: Library) {
        guard let (source, old) = before else { return }
        let moved = source.metadata.targets.filter { $0.key == old || $0.key.hasPrefix(old + "/") }
        let dest = library.project(containing: entry)
        if dest === source {
            let new = source.relativePath(of: entry)
            updateMetadata(source) { $0.moveTargets(from: old, to: new) }
            return
        }
        updateMetadata(source) { $0.moveTargets(from: old, to: nil) }
        guard let dest else { return }
        let new = dest.relativePath(of: entry)
        let movedOut = source.metadata.leftOut.filter { $0 == old || $0.hasPrefix(old + "/") }
        updateMetadata(dest) { meta in
            for (key, value) in moved { meta.targets[new + key.dropFirst(old.count)] = value }
            for key in movedOut { meta.leftOut.insert(new + key.dropFirst(old.count)) }
        }
    }
}
