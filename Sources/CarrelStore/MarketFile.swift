import CarrelJSON
import CarrelModel

/// A market's details, `.carrel-market` in its folder: hidden, so the
/// binder never shows or counts it, and it travels with the folder when
/// the writer renames or moves it. Each field is a setting of its own,
/// `{"changed": ms, "value": v}`, one key per line, as in project.json: two
/// machines editing different fields merge in git, and versions sync kept
/// (git's markers, Syncthing's or Dropbox's conflict copies) merge field by
/// field, the latest change winning (`ProjectMerge`). The file is
/// untrusted: read no-follow, at most `sizeLimit` bytes, each field checked
/// for its type and length, a field that fails read as unset.
public enum MarketFile {
    public static let name = Array(".carrel-market".utf8)
    /// Beginning with the order file's temporary prefix, so the scan that
    /// removes a crashed reorder's temporary removes this one too.
    static let tempPrefix = Array(".carrel-order.tmp-market-".utf8)
    public static let sizeLimit = 64 << 10

    /// What a market folder's file holds.
    public struct Found: Sendable {
        public var details = MarketDetails()
        /// The market's own id, written once: records find a market by it after a rename or move.
        public var id: String?
        /// Why the file (or a version of it) was not read; nil when it was, or there is none.
        public var problem: SmallFileProblem?
        public var exists = false
        var raw: [String: JSONValue] = [:]
        var copies: [[UInt8]] = []
    }

    /// Reads the file in `dir`, merged with any conflict copies beside it.
    public static func read(in dir: Directory) -> Found {
        var found = Found()
        found.copies = conflictCopies(in: dir)
        var versions: [[String: JSONValue]] = []
        if dir.kind(of: name) != nil {
            found.exists = true
            do { versions += try dir.readSmallJSON(name, limit: sizeLimit) } catch { found.problem = error }
        }
        for copy in found.copies {
            if let v = try? dir.readSmallJSON(copy, limit: sizeLimit) { versions += v }
        }
        guard let first = versions.first else { return found }
        let merged = versions.dropFirst().reduce(JSONValue.object(first)) { ProjectMerge.merge($0, .object($1)) }
        guard case .object(let raw) = merged else { return found }
        found.raw = raw
        found.id = raw["id"]?.stringValue.flatMap { isID($0) ? $0 : nil }
        found.details = decode(raw["fields"]?.objectValue ?? [:])
        return found
    }

    /// Sets `changes` (nil clears a field), stamping each changed field, and
    /// writes the file, merging in and then removing sync's copies. Gives
    /// the market an id when it has none. Refused, with nothing written,
    /// when the file is there but unreadable (a link, a pipe, too large, not
    /// JSON): it is not Carrel's to replace.
    @discardableResult
    public static func write(
        _ changes: [MarketDetails.Field: MarketDetails.Value], in dir: Directory, now: Int64 = Clock.nowMs()
    ) throws(SysError) -> Found {
        let found = read(in: dir)
        if let problem = found.problem {
            let display = BytePath.display(BytePath.join(dir.path, name))
            switch problem {
            case .notAFile(let kind): throw SysError("open", display, refusal: .wrongKind(found: kind, expected: .file))
            case .tooLarge(let limit): throw SysError("read", display, refusal: .tooLarge(limit: limit))
            case .notJSON, .unreadable: throw SysError("read", display, code: 5)
            }
        }
        var raw = found.raw
        if found.id == nil { raw["id"] = .string(newID()) }
        var fields = raw["fields"]?.objectValue ?? [:]
        for (field, given) in changes {
            let value: JSONValue
            switch given {
            case .text(let t): value = .string(t)
            case .flag(let b): value = .bool(b)
            case .clear: value = .null
            }
            let old = fields[field.rawValue]
            let before = ProjectFile.settingChanged(old)
            if ProjectFile.settingValue(old) ?? .null == value { continue }
            let stamp = SettingStamp.change(after: before, now: now)
            fields[field.rawValue] = .object(["changed": .int(Int(stamp)), "value": value])
        }
        raw["fields"] = .object(fields)
        try dir.writeSmallJSON(raw, as: name, tempPrefix: tempPrefix)
        for copy in found.copies where dir.kind(of: copy) == .file { try? dir.unlinkFile(copy) }
        if !found.copies.isEmpty { dir.sync() }
        return read(in: dir)
    }

    /// Each field checked for its type and length; one that fails is unset.
    static func decode(_ fields: [String: JSONValue]) -> MarketDetails {
        var d = MarketDetails()
        func text(_ f: MarketDetails.Field) -> String? {
            guard let s = ProjectFile.settingValue(fields[f.rawValue])?.stringValue, !s.isEmpty,
                s.utf8.count <= f.maxLength * 4, s.count <= f.maxLength
            else { return nil }
            return s
        }
        d.name = text(.name)
        d.url = text(.url)
        d.deadline = text(.deadline).flatMap(SubmissionDay.init)
        d.readingPeriod = text(.readingPeriod)
        d.fee = text(.fee)
        d.simultaneous = ProjectFile.settingValue(fields[MarketDetails.Field.simultaneous.rawValue])?.boolValue
        d.notes = text(.notes)
        return d
    }

    /// An id this Carrel could have written: 16 to 64 letters, digits and dashes.
    static func isID(_ s: String) -> Bool {
        (16...64).contains(s.utf8.count)
            && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
    }

    static func newID() -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "\(Clock.nowMs())-\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }

    static func conflictCopies(in dir: Directory) -> [[UInt8]] {
        guard let items = try? dir.list() else { return [] }
        return items.compactMap { item in
            guard item.name.count > name.count, item.name.starts(with: name),
                let s = String(validating: item.name, as: UTF8.self), ConflictCopy.original(of: s) == ".carrel-market",
                dir.kind(of: item.name) == .file
            else { return nil }
            return item.name
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
