import Glibc

/// A submit under way on this device: an empty file in the state folder,
/// `submits/project-<hash of the project's real path>-<pid>-<id>`, made
/// before the folder of copies and removed once the record is written. A
/// folder of copies with no record beside it is removed at open only when
/// this device's note says a submit of its own made it and stopped: one
/// that arrived by sync, its record still on the way, is never touched.
public struct SubmitNote: Sendable {
    static let folderName = Array("submits".utf8)
    public let id: String
    public let pid: Int32
    let name: [UInt8]

    /// `project-<hex>` for the project, as its lock file is named.
    static func projectPrefix(_ projectPath: [UInt8]) -> [UInt8] {
        Array(ProjectLock.fileName(projectPath).dropLast(".lock".utf8.count))
    }

    static func folder(create: Bool) -> Directory? {
        guard let state = StateFiles.directory() else { return nil }
        let path = BytePath.join(state, folderName)
        if let d = try? Directory.open(path) { return d }
        guard create, StateFiles.makeFolders(path) else { return nil }
        return try? Directory.open(path)
    }

    /// Notes the submit `id` of this process, durably; nil when the state
    /// folder cannot hold it (the submit goes on, and a crash then leaves
    /// its folder of copies until removed by hand).
    public static func write(project projectPath: [UInt8], id: String) -> SubmitNote? {
        guard let dir = folder(create: true) else { return nil }
        let name = projectPrefix(projectPath) + Array("-\(getpid())-\(id)".utf8)
        guard let fd = try? dir.openPlainFile(name, O_WRONLY, create: true) else { return nil }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced else {
            try? dir.unlinkFile(name)
            return nil
        }
        dir.sync()
        return SubmitNote(id: id, pid: getpid(), name: name)
    }

    public func remove() {
        guard let dir = Self.folder(create: false) else { return }
        try? dir.unlinkFile(name)
    }

    /// The notes of the project's submits whose process is gone.
    public static func stopped(project projectPath: [UInt8]) -> [SubmitNote] {
        guard let dir = folder(create: false) else { return [] }
        let prefix = projectPrefix(projectPath) + [UInt8(ascii: "-")]
        return ((try? dir.list()) ?? []).compactMap { entry in
            guard entry.name.starts(with: prefix), dir.kind(of: entry.name) == .file else { return nil }
            let rest = String(decoding: entry.name.dropFirst(prefix.count), as: UTF8.self)
            let parts = rest.split(separator: "-", maxSplits: 1)
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, Leftovers.isGone(pid),
                SubmissionRecords.isID(String(parts[1]))
            else { return nil }
            return SubmitNote(id: String(parts[1]), pid: pid, name: entry.name)
        }
    }
}
