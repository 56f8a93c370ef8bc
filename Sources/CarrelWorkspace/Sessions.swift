import CarrelModel
import CarrelStore
import Glibc

/// Today's writing per project on this device: the project's words when
/// it was first counted today, and the writer's daily target. Kept in the
/// user's state folder (`sessions.json`), never in the library, so two
/// machines never conflict over it. Written when a day starts for a
/// project and when a target changes, never per keystroke. Other processes
/// on the device (the CLI, another editor's server) keep it too: every
/// write merges with theirs (`SessionFile.update`), and the file is read
/// again whenever another process replaced it, so all tell one story.
public struct Sessions {
    typealias Record = SessionRecord

    private var records: [String: Record] = [:]
    private var loaded = false
    /// The file as last read or written, to see another process's write.
    private var seen: SessionFile.Stamp?
    /// The day as the device's clock says it; tests set it.
    public var today: () -> String = Sessions.localDay
    /// False while one reply is written twice: both writings must see the
    /// same records, whatever another process writes meanwhile.
    public var rereads = true

    public init() {}

    /// `YYYY-MM-DD` in local time.
    public static func localDay() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        let m = parts.tm_mon + 1
        let d = parts.tm_mday
        return "\(parts.tm_year + 1900)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }

    /// Reads the file the first time, and again whenever another process
    /// replaced it since. What this process holds is kept through the
    /// merge, so a write of its own that failed is not forgotten.
    public mutating func refresh() {
        if loaded && !rereads { return }
        let now = SessionFile.stamp()
        if loaded && now == seen { return }
        loaded = true
        seen = now
        var merged = SessionFile.load()
        for (key, record) in records { merged[key] = merged[key].map { $0.merged(with: record) } ?? record }
        records = merged
    }

    private mutating func save() { (records, seen) = SessionFile.update(records) }

    static func key(_ project: Project) -> String { BytePath.display(project.root.path) }

    /// Today's words (the project's words now less at the day's start,
    /// never below 0) and the daily target.
    public mutating func session(of project: Project, words: Int?) -> (words: Int?, target: Int?) {
        refresh()
        guard let r = records[Self.key(project)] else { return (nil, nil) }
        guard r.day == today() else { return (words == nil ? nil : 0, r.target) }
        guard let start = r.start, let words else { return (nil, r.target) }
        return (max(0, words - start), r.target)
    }

    /// The project is fully counted: the first time today, its words start the day.
    mutating func noteCounted(_ project: Project, words: Int) {
        refresh()
        let key = Self.key(project)
        let day = today()
        if let r = records[key], r.day == day, r.start != nil { return }
        var r = records[key] ?? Record(day: day)
        r.day = day
        r.start = words
        r.started = Clock.nowMs()
        records[key] = r
        save()
    }

    mutating func setTarget(_ project: Project, _ target: Int?, words: Int?) {
        refresh()
        let key = Self.key(project)
        let day = today()
        var r = records[key] ?? Record(day: day, start: words, started: words == nil ? nil : Clock.nowMs())
        if r.day != day {
            r.day = day
            r.start = words
            r.started = words == nil ? nil : Clock.nowMs()
        }
        r.target = target
        r.targetChanged = Clock.nowMs()
        records[key] = r
        save()
    }
}
