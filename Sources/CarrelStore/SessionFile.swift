import CCarrelSys
import CarrelJSON
import CarrelModel
import Glibc

/// One project's day on this device: the day, its words when the day
/// started, and the daily target, each stamped with when it was set
/// (milliseconds since the epoch), so that two processes' records merge.
public struct SessionRecord: Equatable, Sendable {
    public var day: String
    public var start: Int?
    /// When `start` was noted.
    public var started: Int64?
    public var target: Int?
    /// When `target` was last set or cleared.
    public var targetChanged: Int64?

    public init(day: String, start: Int? = nil, started: Int64? = nil, target: Int? = nil, targetChanged: Int64? = nil)
    {
        self.day = day
        self.start = start
        self.started = started
        self.target = target
        self.targetChanged = targetChanged
    }

    /// This record (what the file holds) with `other` (what a process
    /// writes) folded in. The later day wins; within one day the start
    /// noted first wins, so a project's day starts at the earliest count
    /// any process made; the target set last wins, a clearing too. A
    /// record without a stamp (an older Carrel's) counts as the oldest.
    public func merged(with other: SessionRecord) -> SessionRecord {
        var out = self
        if other.day > day {
            out.day = other.day
            out.start = other.start
            out.started = other.started
        } else if other.day == day, other.start != nil,
            start == nil || (other.started ?? .min) < (started ?? .min)
        {
            out.start = other.start
            out.started = other.started
        }
        if (other.targetChanged ?? .min) >= (targetChanged ?? .min) {
            out.target = other.target
            out.targetChanged = other.targetChanged
        }
        return out
    }
}

/// `sessions.json` in the user's state folder, keyed by project path. Untrusted
/// when read: anything but the expected shapes is dropped. Every process on
/// the device (the server, the CLI, a second editor) keeps its own copy and
/// writes through `update`, which merges with the file under a lock, so no
/// process's day or target is lost to another's write.
public enum SessionFile {
    static let name = "sessions.json"
    static let lockName = Array("sessions.lock".utf8)

    public static func load() -> [String: SessionRecord] {
        guard case .object(let all)? = StateFiles.readJSON(name) else { return [:] }
        var records: [String: SessionRecord] = [:]
        for (key, value) in all {
            guard let day = value["day"]?.stringValue, day.utf8.count <= 10 else { continue }
            let start = value["start"]?.intValue.flatMap { $0 >= 0 ? $0 : nil }
            records[key] = SessionRecord(
                day: day, start: start, started: start == nil ? nil : value["started"]?.intValue.map(Int64.init),
                target: value["target"]?.intValue.flatMap { $0 > 0 && $0 <= ProjectMetadata.maxTarget ? $0 : nil },
                targetChanged: value["targetChanged"]?.intValue.map(Int64.init))
        }
        return records
    }

    /// Which `sessions.json` is there now: another process's write gives a
    /// new file (it is renamed into place). Nil when there is none.
    public struct Stamp: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: UInt64
        let modifiedNs: Int64
    }

    public static func stamp() -> Stamp? {
        guard let dir = StateFiles.directory() else { return nil }
        var st = carrel_stat_t()
        let r = BytePath.withCString(BytePath.join(dir, Array(name.utf8))) { carrel_lstat_at(AT_FDCWD, $0, &st) }
        guard r == 0 else { return nil }
        return Stamp(device: st.device, inode: st.inode, size: st.size, modifiedNs: st.change_ns)
    }

    /// Folds `mine` into what the file holds and writes the result whole,
    /// holding the state folder's `sessions.lock` so that no other Carrel
    /// reads or writes in between. Returns every record the file now holds
    /// and its stamp.
    public static func update(_ mine: [String: SessionRecord]) -> ([String: SessionRecord], Stamp?) {
        let lock = takeLock()
        defer { if let lock { close(lock) } }
        var all = load()
        for (key, record) in mine { all[key] = all[key].map { $0.merged(with: record) } ?? record }
        save(all)
        return (all, stamp())
    }

    /// The lock is held for one read and one write; one held longer than
    /// this was not taken by a Carrel writing its day, and is not waited for.
    static let lockWaitMs = 2000

    /// The fd holding the lock, or nil when the state folder or the lock
    /// cannot be had: the write then goes ahead unlocked, best effort.
    static func takeLock() -> Int32? {
        guard let dir = StateFiles.directory(), StateFiles.makeFolders(dir), let d = try? Directory.open(dir),
            let fd = try? d.openPlainFile(lockName, O_RDONLY, create: true)
        else { return nil }
        for _ in 0..<(lockWaitMs / 5) {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
            guard errno == EWOULDBLOCK || errno == EINTR else { break }
            usleep(5000)
        }
        close(fd)
        return nil
    }

    static func save(_ records: [String: SessionRecord]) {
        var all: [String: JSONValue] = [:]
        for (key, r) in records {
            var o: [String: JSONValue] = ["day": .string(r.day)]
            if let start = r.start { o["start"] = .int(start) }
            if let started = r.started { o["started"] = .int(Int(started)) }
            if let target = r.target { o["target"] = .int(target) }
            if let changed = r.targetChanged { o["targetChanged"] = .int(Int(changed)) }
            all[key] = .object(o)
        }
        StateFiles.writeJSON(.object(all), to: name)
    }
}
