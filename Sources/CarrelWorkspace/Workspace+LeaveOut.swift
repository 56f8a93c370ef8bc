import CarrelModel
import CarrelStore

/// Leaving an item out of compiling: a setting of its project, keyed by
/// the item's path (project.json's `leftOut`), carried through Carrel's
/// renames and moves as word targets are (`ProjectMetadata.moveTargets`).
extension Workspace {
    public func setCompileIncluded(_ target: Target, _ included: Bool) throws(Failure) -> Outcome {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard let project = library.project(containing: entry), entry !== project.root else {
            throw Failure(.notInProject, .compile(.outsideProject(name: title(of: entry, in: library))))
        }
        let key = project.relativePath(of: entry)
        if project.metadata.leftOut.contains(key) == included {
            try updateMetadataOrFail(project) { meta in
                if included { meta.leftOut.remove(key) } else { meta.leftOut.insert(key) }
            }
        }
        return Outcome(result: .item(.entry(entry, library)), changes: [Change(.changed, entry.path)])
    }
}
