import CarrelModel
import CarrelStore
import Glibc

/// Today's writing per project on this device: the project's words when
/// it was first counted today, and the writer's daily target. Kept in the
/// user's state folder (`sessions.json`), never in the library, so two
/// machines never conflict over it. Written when a day starts for a
/// project and when a target changes, never per keystroke.
public struct Sessions {
    typealias Record = SessionRecord

    private var records: [String: Record] = [:]
    private var loaded = false
    /// The day as the device's clock says it; tests set it.
    public var today: () -> String = Sessions.localDay

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

    private mutating func load() {
        guard !loaded else { return }
        loaded = true
        records = SessionFile.load()
    }

    private func save() { SessionFile.save(records) }

    static func key(_ project: Project) -> String { BytePath.display(project.root.path) }

    /// Today's words (the project's words now less at the day's start,
    /// never below 0) and the daily target.
    public mutating func session(of project: Project, words: Int?) -> (words: Int?, target: Int?) {
        load()
        guard let r = records[Self.key(project)] else { return (nil, nil) }
        guard r.day == today() else { return (words == nil ? nil : 0, r.target) }
        guard let start = r.start, let words else { return (nil, r.target) }
        return (max(0, words - start), r.target)
    }

    /// The project is fully counted: the first time today, its words start the day.
    mutating func noteCounted(_ project: Project, words: Int) {
        load()
        let key = Self.key(project)
        let day = today()
        if let r = records[key], r.day == day, r.start != nil { return }
        records[key] = Record(day: day, start: words, target: records[key]?.target)
        save()
    }

    mutating func setTarget(_ project: Project, _ target: Int?, words: Int?) {
        load()
        let key = Self.key(project)
        let day = today()
        var r = records[key] ?? Record(day: day, start: words)
        if r.day != day { r = Record(day: day, start: words) }
        r.target = target
        records[key] = r
        save()
    }
}
