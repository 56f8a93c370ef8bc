import CarrelJSON
import CarrelModel

/// Two machines changed project.json at once and a sync engine kept both:
/// git as conflict markers inside the file, Syncthing and Dropbox as a copy
/// beside it (`ConflictCopy`). Every version is merged by one rule, the
/// same on every machine whichever version it holds as its own:
///
/// - a setting (`{"changed": ms, "value": v}`) takes the value changed
///   last, by the clock of the machine that changed it; a bare value of an
///   older file counts as changed at 0;
/// - objects are merged key by key, and a key only one side has is kept
///   (Trash records an older version kept in `trash` are a union);
/// - any other value that differs takes the one whose JSON sorts last, an
///   arbitrary rule that both machines nevertheless apply alike;
/// - except `folders`, which roles' folders are: the file keeps its own
///   (`Lock.resolveConflicts`).
enum ProjectMerge {
    static func merge(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        if a == b { return a }
        if isSetting(a) || isSetting(b) {
            let (ta, tb) = (ProjectFile.settingChanged(a), ProjectFile.settingChanged(b))
            return ta != tb ? (ta > tb ? a : b) : last(a, b)
        }
        if case .object(let oa) = a, case .object(let ob) = b {
            var out = oa
            for (key, vb) in ob { out[key] = oa[key].map { merge($0, vb) } ?? vb }
            return .object(out)
        }
        return last(a, b)
    }

    static func isSetting(_ v: JSONValue) -> Bool {
        if case .object(let o) = v { return o["value"] != nil && o["changed"] != nil }
        return false
    }

    private static func last(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        a.encoded().lexicographicallyPrecedes(b.encoded()) ? b : a
    }

    /// The two versions git wrote into one file between `<<<<<<<`,
    /// `=======` and `>>>>>>>` (the common base after `|||||||`, in the
    /// diff3 style, is left out), or nil when the file has no markers or
    /// they do not pair up.
    static func sides(ofConflict bytes: [UInt8]) -> (ours: [UInt8], theirs: [UInt8])? {
        enum Part { case both, ours, base, theirs }
        var part = Part.both
        var ours: [UInt8] = []
        var theirs: [UInt8] = []
        var found = false
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            func marks(_ c: Character) -> Bool {
                line.count >= 7 && line.prefix(7).allSatisfy { $0 == c.asciiValue! }
                    && (line.count == 7 || line[line.startIndex + 7] == UInt8(ascii: " "))
            }
            switch part {
            case .both where marks("<"): part = .ours; found = true; continue
            case .ours where marks("|"): part = .base; continue
            case .ours where marks("="), .base where marks("="): part = .theirs; continue
            case .theirs where marks(">"): part = .both; continue
            default: break
            }
            if part == .both || part == .ours { ours += line + [0x0A] }
            if part == .both || part == .theirs { theirs += line + [0x0A] }
        }
        return found && part == .both ? (ours, theirs) : nil
    }
}

extension ProjectFile.Lock {
    /// Merges every version of project.json that sync left (conflict
    /// markers in it, conflict copies beside it) into one, written
    /// atomically and durably before any copy is removed: a crash at any
    /// point leaves each version either still there or inside a durable
    /// merged file, and merging again gives the same file. A version that
    /// does not parse, or that is newer than this Carrel, stops the merge
    /// and everything is left as it is. Returns how many versions were
    /// merged into the file, 0 when there was nothing to do.
    public func resolveConflicts() -> Int {
        guard let bytes = try? carrelDir.readPlainFile(ProjectFile.fileName) else { return 0 }
        var versions: [JSONValue] = []
        if let (ours, theirs) = ProjectMerge.sides(ofConflict: bytes) {
            versions = [ours, theirs].compactMap { try? JSONParser.parse($0) }
            guard versions.count == 2 else { return 0 }
        } else {
            guard let json = try? JSONParser.parse(bytes) else { return 0 }
            versions = [json]
        }
        let markers = versions.count == 2
        let copies = ProjectFile.conflictCopies(in: carrelDir)
        for name in copies {
            guard let copy = try? carrelDir.readPlainFile(name), let json = try? JSONParser.parse(copy) else {
                return 0
            }
            versions.append(json)
        }
        guard versions.count > 1 else { return 0 }
        var merged = versions.dropFirst().reduce(versions[0], ProjectMerge.merge)
        // Which folder plays which role is no setting two machines change:
        // a copy's `folders` would only move a role, the Trash included,
        // onto another folder. The file keeps its own.
        if case .object(var fields) = merged, case .object(let own) = versions[0] {
            fields["folders"] = own["folders"]
            merged = .object(fields)
        }
        for version in versions + [merged] {
            guard case .object(let raw) = version, (try? ProjectFile.decode(raw)) != nil else { return 0 }
        }
        guard case .object(let raw) = merged else { return 0 }
        do { try ProjectFile.write(raw, in: carrelDir) } catch { return 0 }
        for name in copies where carrelDir.kind(of: name) == .file { try? carrelDir.unlinkFile(name) }
        if !copies.isEmpty { carrelDir.sync() }
        return copies.count + (markers ? 2 : 1)
    }
}

extension ProjectFile {
    /// Conflict copies of project.json in `.carrel` that are plain files.
    static func conflictCopies(in carrelDir: Directory) -> [[UInt8]] {
        guard let items = try? carrelDir.list() else { return [] }
        return items.compactMap { item in
            guard let name = String(validating: item.name, as: UTF8.self),
                ConflictCopy.original(of: name) == "project.json", carrelDir.kind(of: item.name) == .file
            else { return nil }
            return item.name
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether project.json holds conflict markers or has conflict copies
    /// beside it. Read without the lock, so a clean project costs a list
    /// of `.carrel` and one small read.
    public static func hasConflicts(_ projectPath: [UInt8]) -> Bool {
        guard let dir = try? carrelFolder(projectPath) else { return false }
        if !conflictCopies(in: dir).isEmpty { return true }
        guard let bytes = try? dir.readPlainFile(fileName) else { return false }
        return ProjectMerge.sides(ofConflict: bytes) != nil
    }
}
