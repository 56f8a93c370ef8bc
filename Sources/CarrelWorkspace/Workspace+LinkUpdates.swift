import CarrelModel
import CarrelStore

/// Whether a rename or move through Carrel updates the links it would
/// break: a project keeps it in project.json, so it follows the project to
/// the writer's other machines and merges as every setting there does; a
/// library's folders outside projects keep it on this device, as their
/// other settings.
extension Workspace {
    /// The mode in force for a move of `entry`: its project's, else its library's.
    public func linkUpdates(of entry: Entry, in library: Library) -> LinkUpdates {
        library.project(containing: entry)?.metadata.linkUpdates ?? library.settings.linkUpdates
    }

    /// Sets the mode for the project holding `target`, or for its library
    /// outside projects. Setting what is already set writes nothing, and
    /// still says so: the writer asked and deserves an answer.
    public func setLinkUpdates(_ target: Target, _ mode: LinkUpdates) throws(Failure) -> Outcome {
        let (entry, library): (Entry, Library)
        switch target {
        case .all(let p, let l): (entry, library) = (p.root, l)
        case .entry(let e, let l): (entry, library) = (e, l)
        }
        let owner = library.project(containing: entry)?.root ?? library.root
        let report = Report.linkUpdates(in: title(of: owner, in: library), mode: mode)
        guard linkUpdates(of: entry, in: library) != mode else {
            try checkUnlocked(entry, library)
            return Outcome(result: .item(.entry(owner, library)), changes: [], report: report)
        }
        var outcome = try changeSettings(
            of: target, project: { $0.linkUpdates = mode }, library: { $0.linkUpdates = mode })
        outcome.report = report
        return outcome
    }
}
