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
        if let targets = raw["targets"]?.objectValue {
            for (path, value) in targets {
                if let n = value.intValue, n > 0, n <= ProjectMetadata.maxTarget { meta.targets[path] = n }
            }
        }
        return meta
    }

    /// `meta` written over the JSON it was read from, keeping unknown keys.
    /// Trash records are not written here: each has a file of its own
    /// (`TrashRecords`), and "trash", kept by older versions, is left as it
    /// is until those records are moved out of it.
    public static func encode(_ meta: ProjectMetadata, over raw: [String: JSONValue]) -> [String: JSONValue] {
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
        // One key per line (pretty output), so two machines setting targets on different items merge.
        if meta.targets.isEmpty {
            out["targets"] = nil
        } else {
            out["targets"] = .object(meta.targets.mapValues { .int($0) })
        }
        return out
    }
}
