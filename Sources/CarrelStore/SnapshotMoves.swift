import CarrelJSON
import Glibc

/// Snapshots follow their file in two steps: the file moves, then its
/// snapshots. What a crash between them would lose (where the file went)
/// is written first to the device's state folder, `snapshot-moves/`, one
/// small file per move, and removed once the snapshots followed; the next
/// open finishes what is left (`Workspace.finishSnapshotMoves`). It is
/// device-local: the crash, and so the repair, belong to this machine.
public enum SnapshotMoves {
    public struct Move: Equatable {
        public var fromProject: [UInt8]
        public var from: [String]
        public var toProject: [UInt8]
        public var to: [String]
        public init(fromProject: [UInt8], from: [String], toProject: [UInt8], to: [String]) {
            self.fromProject = fromProject
            self.from = from
            self.toProject = toProject
            self.to = to
        }
    }

    static let folderName: [UInt8] = Array("snapshot-moves".utf8)

    static func folder(create: Bool) -> Directory? {
        guard let state = StateFiles.directory() else { return nil }
        if create { guard StateFiles.makeFolders(BytePath.join(state, folderName)) else { return nil } }
        return try? Directory.open(state).realSubdirectory(folderName)
    }

    /// Writes the move down durably; the name to pass to `done`, or nil
    /// when there is no state folder (the move then has no crash repair).
    public static func begin(_ move: Move, pid: Int32 = getpid()) -> [UInt8]? {
        guard let dir = folder(create: true) else { return nil }
        let value: JSONValue = [
            "fromProject": .string(BytePath.display(move.fromProject)), "from": .array(move.from.map { .string($0) }),
            "toProject": .string(BytePath.display(move.toProject)), "to": .array(move.to.map { .string($0) }),
        ]
        let name = Array("\(Clock.nowMs())-\(pid)-\(UInt32.random(in: 0...UInt32.max)).json".utf8)
        let fd = BytePath.withCString(name) {
            openat(dir.fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { return nil }
        let ok = FileDescriptor.writeAll(fd, value.encoded()) == 0 && fsync(fd) == 0
        close(fd)
        guard ok else {
            try? dir.unlinkFile(name)
            return nil
        }
        dir.sync()
        return name
    }

    public static func done(_ name: [UInt8]) {
        guard let dir = folder(create: false) else { return }
        try? dir.unlinkFile(name)
    }

    /// Every move a crash left unfinished, read untrusted (a file that is
    /// not one is listed with nil, to be removed). A note of a process
    /// still running is its move under way, not a crash's: it is left to it.
    public static func pending() -> [(name: [UInt8], move: Move?)] {
        guard let dir = folder(create: false), let names = try? dir.list() else { return [] }
        return names.filter { $0.name.first != UInt8(ascii: ".") && !ofARunningProcess($0.name) }.map { entry in
            guard let bytes = try? dir.readPlainFile(entry.name, limit: 64 << 10),
                let json = try? JSONParser.parse(bytes),
                let fromProject = json["fromProject"]?.stringValue, fromProject.hasPrefix("/"),
                let toProject = json["toProject"]?.stringValue, toProject.hasPrefix("/"),
                let from = json["from"]?.arrayValue?.compactMap(\.stringValue),
                let to = json["to"]?.arrayValue?.compactMap(\.stringValue),
                !from.isEmpty, !to.isEmpty
            else { return (entry.name, nil) }
            return (
                entry.name,
                Move(fromProject: Array(fromProject.utf8), from: from, toProject: Array(toProject.utf8), to: to)
            )
        }
    }

    /// The pid in `<ms>-<pid>-<random>.json`, when that process runs.
    static func ofARunningProcess(_ name: [UInt8]) -> Bool {
        let parts = name.split(separator: UInt8(ascii: "-"))
        guard parts.count == 3, let pid = Int32(String(decoding: parts[1], as: UTF8.self)), pid > 0 else {
            return false
        }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
