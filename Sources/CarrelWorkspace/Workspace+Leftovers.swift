import CarrelModel
import CarrelStore

/// Carrel's own leftovers in a project's `.carrel`, removed at open: a
/// snapshot's hidden temporary this device noted (`finishSnapshotWrites`)
/// and a record's. Only names Carrel gives, only of processes that are
/// gone; never followed.
extension Workspace {
    func removeStateLeftovers(_ project: Project) {
        let rootPath = project.root.path
        finishSnapshotWrites(project)
        guard let carrelDir = try? ProjectFile.carrelFolder(rootPath) else { return }
        guard let records = try? SubmissionRecords.folder(in: carrelDir, create: false) else { return }
        // The lock only when there is something to remove, so an open never waits for nothing.
        guard Leftovers.hasRecordTemporaries(in: records) else { return }
        _ = try? ProjectFile.locked(rootPath) { lock throws(ProjectFile.Problem) in
            guard let dir = try? SubmissionRecords.folder(in: lock.carrelDir, create: false) else { return }
            let temporaries = Leftovers.removeRecordTemporaries(in: dir)
            if temporaries > 0 {
                log("repair: removed \(temporaries) record temporary file(s) in \(BytePath.display(dir.path))")
            }
            dir.sync()
        }
    }
}
