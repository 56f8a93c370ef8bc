import CarrelJSON
import CarrelModel

/// project.json's JSON and the metadata it holds, both ways. Unknown keys
/// survive: encoding writes over the JSON the file was read from.
///
/// Each setting is an object of its own, `{"changed": ms, "value": v}`,
/// spread over four lines: two machines changing two different settings
/// change lines with unchanged ones between them, which git's three-way
/// merge takes without a conflict, and when both change one setting,
/// `changed` says which change is newer (`ProjectMerge`). Files from before
/// hold the bare value; they are read as never changed (`changed` 0).
extension ProjectFile {
    /// Where each setting sits: its group, then its key.
    static let settingPaths = [
        ("preferences", "confirmDelete"), ("preferences", "defaultExtension"), ("preferences", "linkUpdates"),
        ("sort", "by"), ("sort", "descending"),
    ]

    /// A setting's value, in its own object or bare as older files keep it.
    static func settingValue(_ stored: JSONValue?) -> JSONValue? {
        guard let stored else { return nil }
        if case .object(let o) = stored, let value = o["value"] { return value }
        return stored
    }

    /// When a setting was last changed, in ms; 0 when never, bare, or
    /// stamped by no clock (`SettingStamp.read`).
    static func settingChanged(_ stored: JSONValue?) -> Int64 {
        guard case .object(let o)? = stored, o["value"] != nil else { return 0 }
        return SettingStamp.read(o["changed"])
    }

    public static func decode(_ raw: [String: JSONValue]) throws(Problem) -> ProjectMetadata {
        let version = raw["version"]?.intValue ?? 1
        if version > ProjectMetadata.currentVersion { throw .unsupportedVersion(version) }
        guard let typeName = raw["type"]?.stringValue else { throw .corrupt("no project type") }
        guard let type = ProjectType.named(typeName) else { throw .corrupt("unknown project type “\(typeName)”") }
        var meta = ProjectMetadata(type: type, created: Int64(raw["created"]?.intValue ?? 0))
        meta.version = ProjectMetadata.currentVersion
        // A role is taken only from a name the catalog allows it; anything
        // else leaves the role on the catalog's own folder.
        let folders = raw["folders"]?.objectValue ?? [:]
        for folder in type.directories {
            if let name = folders[folder.role.rawValue]?.stringValue, folder.accepts(name) {
                meta.folders[folder.role] = name
            }
        }
        if let trash = raw["trash"]?.objectValue {
            for (name, record) in trash {
                guard let from = record["from"]?.stringValue else { continue }
                meta.trash[name] = .init(originalPath: from, deleted: Int64(record["deleted"]?.intValue ?? 0))
            }
        }
        if let sort = raw["sort"] {
            if let by = settingValue(sort["by"])?.stringValue, let key = SortKey(rawValue: by) { meta.sort.by = key }
            if let d = settingValue(sort["descending"])?.boolValue { meta.sort.descending = d }
        }
        // A project.json without it comes from before folders had sorts of
        // their own. A folder's sort is a setting like the others; a null
        // value says it was cleared, so a merge does not bring it back.
        meta.folderSorts = [:]
        for (path, stored) in raw["folderSorts"]?.objectValue ?? [:] {
            guard let value = settingValue(stored), let by = value["by"]?.stringValue, let key = SortKey(rawValue: by)
            else { continue }
            meta.folderSorts[path] = SortSetting(by: key, descending: value["descending"]?.boolValue ?? false)
        }
        if let prefs = raw["preferences"] {
            if let c = settingValue(prefs["confirmDelete"])?.boolValue { meta.confirmDelete = c }
            if let ext = settingValue(prefs["defaultExtension"])?.stringValue { meta.defaultExtension = ext }
            if let mode = settingValue(prefs["linkUpdates"])?.stringValue.flatMap(LinkUpdates.init(rawValue:)) {
                meta.linkUpdates = mode
            }
        }
        for (path, stored) in raw["targets"]?.objectValue ?? [:] {
            if let n = settingValue(stored)?.intValue, n > 0, n <= ProjectMetadata.maxTarget { meta.targets[path] = n }
        }
        for (path, stored) in raw["leftOut"]?.objectValue ?? [:] where settingValue(stored)?.boolValue == true {
            meta.leftOut.insert(path)
        }
        if let byline = raw["byline"] {
            if let a = settingValue(byline["author"])?.stringValue, !a.isEmpty { meta.author = String(a.prefix(200)) }
            if case .array(let lines)? = settingValue(byline["contact"]) {
                meta.contact = lines.prefix(10).compactMap { $0.stringValue.map { String($0.prefix(200)) } }
            }
        }
        return meta
    }

    /// `meta` written over the JSON it was read from, keeping unknown keys.
    /// Trash records are not written here: each has a file of its own
    /// (`TrashRecords`), and "trash", kept by older versions, is left as it
    /// is until those records are moved out of it. A setting whose value
    /// changed is stamped `now`, or just after its old stamp when that is
    /// later (`SettingStamp.change`); the others keep their stamp.
    public static func encode(_ meta: ProjectMetadata, over raw: [String: JSONValue], now: Int64 = Clock.nowMs())
        -> [String: JSONValue]
    {
        var out = raw
        out["version"] = .int(meta.version)
        out["type"] = .string(meta.type.id)
        out["created"] = .int(Int(meta.created))
        // Roles this type lacks (another type's, a newer Carrel's) are kept as read.
        var folders = raw["folders"]?.objectValue ?? [:]
        for (role, path) in meta.folders { folders[role.rawValue] = .string(path) }
        out["folders"] = .object(folders)
        let values: [String: JSONValue] = [
            "confirmDelete": .bool(meta.confirmDelete), "defaultExtension": .string(meta.defaultExtension),
            "linkUpdates": .string(meta.linkUpdates.rawValue), "by": .string(meta.sort.by.rawValue),
            "descending": .bool(meta.sort.descending),
        ]
        // A setting the file does not hold yet reads as its default: still
        // at it, it was never changed, and must not outweigh another
        // machine's change when the two are merged.
        let standard = ProjectMetadata(type: meta.type, created: 0)
        let defaults: [String: JSONValue] = [
            "confirmDelete": .bool(standard.confirmDelete), "defaultExtension": .string(standard.defaultExtension),
            "linkUpdates": .string(standard.linkUpdates.rawValue), "by": .string(standard.sort.by.rawValue),
            "descending": .bool(standard.sort.descending),
        ]
        for (group, key) in settingPaths {
            var object = out[group]?.objectValue ?? [:]
            let value = values[key]!
            let stored = object[key]
            let old = settingChanged(stored)
            let changed =
                (settingValue(stored) ?? defaults[key]) == value ? old : SettingStamp.change(after: old, now: now)
            object[key] = .object(["changed": .int(Int(changed)), "value": value])
            out[group] = .object(object)
        }
        out["folderSorts"] = Self.encodeSettings(
            meta.folderSorts.mapValues {
                .object(["by": .string($0.by.rawValue), "descending": .bool($0.descending)])
            },
            over: out["folderSorts"]?.objectValue ?? [:], now: now)
        // Targets, like folders' sorts, are settings keyed by the item's path,
        // so two machines setting targets on different items merge.
        out["targets"] = Self.encodeSettings(
            meta.targets.mapValues { JSONValue.int($0) }, over: out["targets"]?.objectValue ?? [:], now: now)
        // Leaving out of compile is a setting per item, kept and merged as targets are.
        out["leftOut"] = Self.encodeSettings(
            Dictionary(uniqueKeysWithValues: meta.leftOut.map { ($0, JSONValue.bool(true)) }),
            over: out["leftOut"]?.objectValue ?? [:], now: now)
        // The author and contact lines are one setting each, like the preferences.
        var byline: [String: JSONValue] = [:]
        if let author = meta.author { byline["author"] = .string(author) }
        if !meta.contact.isEmpty { byline["contact"] = .array(meta.contact.map { .string($0) }) }
        out["byline"] = Self.encodeSettings(byline, over: out["byline"]?.objectValue ?? [:], now: now)
        return out
    }

    /// Settings keyed by path (folders' sorts, targets), each stamped like
    /// the others, written over what the file held. A cleared one is kept
    /// with a null value, stamped just after the value it clears rather than
    /// with the clock: a merge does not bring it back, two machines clearing
    /// it write the same lines (which git takes without a conflict), and a
    /// value set anew on another machine meanwhile still wins. Nil when
    /// there is nothing to keep.
    static func encodeSettings(_ values: [String: JSONValue], over stored: [String: JSONValue], now: Int64)
        -> JSONValue?
    {
        var out = stored
        for (path, old) in stored where values[path] == nil && settingValue(old) != .null {
            out[path] = .object(["changed": .int(Int(SettingStamp.justAfter(settingChanged(old)))), "value": .null])
        }
        for (path, value) in values {
            let old = stored[path]
            let before = settingChanged(old)
            let changed = settingValue(old) == value ? before : SettingStamp.change(after: before, now: now)
            out[path] = .object(["changed": .int(Int(changed)), "value": value])
        }
        return out.isEmpty ? nil : .object(out)
    }
}
