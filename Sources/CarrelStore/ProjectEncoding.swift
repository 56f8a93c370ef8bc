import CarrelJSON
import CarrelModel

/// project.json's JSON and the metadata it holds, both ways. Unknown keys
/// survive: encoding writes over the JSON the file was read from.
extension ProjectFile {
    public static func decode(_ raw: [String: JSONValue]) throws(Problem) -> ProjectMetadata {
        let version = raw["version"]?.intValue ?? 1
        if version > ProjectMetadata.currentVersion { throw .unsupportedVersion(version) }
        guard let typeName = raw["type"]?.stringValue else { throw .corrupt("no project type") }
        guard let type = ProjectType.named(typeName) else { throw .corrupt("unknown project type “\(typeName)”") }
        var meta = ProjectMetadata(type: type, created: Int64(raw["created"]?.intValue ?? 0))
        meta.version = ProjectMetadata.currentVersion
        if let folders = raw["folders"]?.objectValue {
            for (role, path) in folders {
                if let p = path.stringValue, !p.isEmpty { meta.folders[FolderRole(rawValue: role)] = p }
            }
        }
        if let trash = raw["trash"]?.objectValue {
            for (name, record) in trash {
                guard let from = record["from"]?.stringValue else { continue }
                meta.trash[name] = .init(originalPath: from, deleted: Int64(record["deleted"]?.intValue ?? 0))
            }
        }
        if let sort = raw["sort"] {
            if let by = sort["by"]?.stringValue, let key = SortKey(rawValue: by) { meta.sort.by = key }
            if let d = sort["descending"]?.boolValue { meta.sort.descending = d }
        }
        if let prefs = raw["preferences"] {
            if let c = prefs["confirmDelete"]?.boolValue { meta.confirmDelete = c }
            if let ext = prefs["defaultExtension"]?.stringValue { meta.defaultExtension = ext }
        }
        return meta
    }

    /// `meta` written over the JSON it was read from, keeping unknown keys.
    /// `was`, the metadata `raw` decodes to, lets the Trash records be
    /// compared as values rather than as JSON.
    public static func encode(_ meta: ProjectMetadata, over raw: [String: JSONValue], was: ProjectMetadata? = nil)
        -> [String: JSONValue]
    {
        encodeTracking(meta, over: raw, was: was, touched: nil).json
    }

    /// `encode`, and which Trash records it changed when `was` let it tell.
    /// `touched`: the only Trash records that may differ from `was`.
    /// `raw` is consumed: when the caller holds no other reference to it,
    /// its Trash records are changed in place, not copied.
    /// `rawIsEncoded`: `raw` is this encoding of `was`, so with `touched`
    /// only "trash" can change and every other key is left as it is.
    static func encodeTracking(
        _ meta: ProjectMetadata, over raw: consuming [String: JSONValue], was: ProjectMetadata?,
        touched: [String]?, rawIsEncoded: Bool = false
    ) -> (json: [String: JSONValue], trashChanges: Rendering.Changes?) {
        var out = consume raw
        var trash: [String: JSONValue] = [:]
        if case .object(let records)? = out.removeValue(forKey: "trash") { trash = records }
        let changes = encodeTrash(meta.trash, into: &trash, was: was?.trash, touched: touched)
        out["trash"] = .object(trash)
        if rawIsEncoded, touched != nil {
            assert(out == encodeOthers(meta, over: out), "raw was not this encoding of the metadata")
            return (out, changes)
        }
        return (encodeOthers(meta, over: out), changes)
    }

    /// Every key but "trash".
    private static func encodeOthers(_ meta: ProjectMetadata, over raw: [String: JSONValue]) -> [String: JSONValue] {
        var out = raw
        out["version"] = .int(meta.version)
        out["type"] = .string(meta.type.id)
        out["created"] = .int(Int(meta.created))
        var folders: [String: JSONValue] = [:]
        for (role, path) in meta.folders { folders[role.rawValue] = .string(path) }
        out["folders"] = .object(folders)
        var sort = out["sort"]?.objectValue ?? [:]
        sort["by"] = .string(meta.sort.by.rawValue)
        sort["descending"] = .bool(meta.sort.descending)
        out["sort"] = .object(sort)
        var prefs = out["preferences"]?.objectValue ?? [:]
        prefs["confirmDelete"] = .bool(meta.confirmDelete)
        prefs["defaultExtension"] = .string(meta.defaultExtension)
        out["preferences"] = .object(prefs)
        return out
    }

    /// Records are rebuilt only where they changed: a delete touches one of
    /// possibly hundreds, and unknown keys in the others stay as they are.
    /// Records `decode` skipped (no "from") are dropped. The changes are
    /// nil when they were not tracked.
    static func encodeTrash(
        _ records: [String: ProjectMetadata.TrashRecord], into trash: inout [String: JSONValue],
        was: [String: ProjectMetadata.TrashRecord]?, touched: [String]?
    ) -> Rendering.Changes? {
        func record(_ r: ProjectMetadata.TrashRecord, over old: JSONValue?) -> JSONValue {
            var record = old?.objectValue ?? [:]
            record["from"] = .string(r.originalPath)
            record["deleted"] = .int(Int(r.deleted))
            return .object(record)
        }
        guard let was, was.count == trash.count else {
            let before = trash
            trash = before.filter { records[$0.key] != nil }
            for (name, r) in records {
                if let old = before[name], old["from"] == .string(r.originalPath),
                    old["deleted"] == .int(Int(r.deleted))
                {
                    continue
                }
                trash[name] = record(r, over: before[name])
            }
            return nil
        }
        var changes = Rendering.Changes()
        if let touched {
            for name in touched where records[name] != was[name] {
                if let r = records[name] {
                    let value = record(r, over: trash[name])
                    trash[name] = value
                    changes.set.append((name, value))
                } else {
                    trash[name] = nil
                    changes.removed.append(name)
                }
            }
            return changes
        }
        var kept = 0
        for (name, r) in records {
            let old = was[name]
            if old != nil { kept += 1 }
            guard old != r else { continue }
            let value = record(r, over: trash[name])
            trash[name] = value
            changes.set.append((name, value))
        }
        if kept < was.count {
            for name in was.keys where records[name] == nil {
                trash[name] = nil
                changes.removed.append(name)
            }
        }
        return changes
    }
}
