import CarrelJSON
import CarrelModel

/// One project's day on this device: the day, its words when the day
/// started, and the daily target.
public struct SessionRecord: Equatable, Sendable {
    public var day: String
    public var start: Int?
    public var target: Int?
    public init(day: String, start: Int? = nil, target: Int? = nil) {
        self.day = day
        self.start = start
        self.target = target
    }
}

/// `sessions.json` in the user's state folder, keyed by project path. Untrusted
/// when read: anything but the expected shapes is dropped.
public enum SessionFile {
    static let name = "sessions.json"

    public static func load() -> [String: SessionRecord] {
        guard case .object(let all)? = StateFiles.readJSON(name) else { return [:] }
        var records: [String: SessionRecord] = [:]
        for (key, value) in all {
            guard let day = value["day"]?.stringValue, day.utf8.count <= 10 else { continue }
            records[key] = SessionRecord(
                day: day, start: value["start"]?.intValue.flatMap { $0 >= 0 ? $0 : nil },
                target: value["target"]?.intValue.flatMap { $0 > 0 && $0 <= ProjectMetadata.maxTarget ? $0 : nil })
        }
        return records
    }

    public static func save(_ records: [String: SessionRecord]) {
        var all: [String: JSONValue] = [:]
        for (key, r) in records {
            var o: [String: JSONValue] = ["day": .string(r.day)]
            if let start = r.start { o["start"] = .int(start) }
            if let target = r.target { o["target"] = .int(target) }
            all[key] = .object(o)
        }
        StateFiles.writeJSON(.object(all), to: name)
    }
}
