import CarrelJSON
import CarrelModel
import Glibc

/// One file per submission in `.carrel/submissions`, named
/// `<ms>-<64 random bits>.json` so two machines never write the same file.
/// The text of each piece sent is a snapshot of the piece, named in the
/// record (`snapshot`); an older Carrel kept a copy beside the record, in a
/// folder of its name (`copy`), still read. A record changes only when a piece's status, note or fee
/// does, and each of those is a setting stamped like project.json's: two
/// machines' changes to one record merge field by field, the latest
/// winning, and every status change is kept in `history`, keyed by when
/// and what, so a union keeps both machines' (`ProjectMerge`). Everything
/// in the folder is untrusted: a record that is not a plain file, is too
/// large, is not a record, or names a piece outside its project is skipped
/// with its reason, never followed.
public enum SubmissionRecords {
    public static let folderName = Array("submissions".utf8)
    static let suffix = ".json"
    static let tempPrefix = Array(".tmp-".utf8)
    /// A record is a few hundred bytes a piece; anything larger is not one.
    public static let sizeLimit = 256 << 10
    /// The most pieces one submission holds.
    public static let pieceLimit = 200

    /// What the folder holds: the readable records, and every other file
    /// that looked like one, with why it was skipped.
    public struct Scan: Sendable {
        public var records: [Submission] = []
        public var skipped: [(name: String, why: SkipReason)] = []
        public init() {}
    }

    public enum SkipReason: Error, Sendable, Equatable {
        case file(SmallFileProblem)
        case notARecord(String)
        case pieceOutside(String)
    }

    /// `.carrel/submissions`, or nil when missing and not `create`. A link
    /// or anything but a real folder is refused.
    public static func folder(in carrelDir: Directory, create: Bool) throws(SysError) -> Directory? {
        if carrelDir.kind(of: folderName) == nil {
            guard create else { return nil }
            do { try carrelDir.makeDirectory(folderName) } catch {
                if error.code != EEXIST { throw error }
            }
            carrelDir.sync()
        }
        return try carrelDir.realSubdirectory(folderName)
    }

    /// Every record, each merged with the versions sync kept of it.
    public static func scan(_ dir: Directory) -> Scan {
        var out = Scan()
        guard let items = try? dir.list() else { return out }
        var copies: [String: [[UInt8]]] = [:]
        var names: [[UInt8]] = []
        for item in items {
            guard let s = String(validating: item.name, as: UTF8.self), !s.hasPrefix(".") else { continue }
            if let original = ConflictCopy.original(of: s), original.hasSuffix(suffix), ConflictCopy.isCopy(s) {
                copies[original, default: []].append(item.name)
            } else if s.hasSuffix(suffix) {
                names.append(item.name)
            }
        }
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let id = String(decoding: name.dropLast(suffix.utf8.count), as: UTF8.self)
            switch read(name, copies: copies[id + suffix] ?? [], in: dir) {
            case .success(let (record, _)): out.records.append(record)
            case .failure(let why): out.skipped.append((id + suffix, why))
            }
        }
        return out
    }

    /// One record, merged with its conflict copies (and git's markers), as
    /// the submission and the JSON to write changes over.
    public static func read(_ name: [UInt8], copies: [[UInt8]], in dir: Directory)
        -> Result<(Submission, [String: JSONValue]), SkipReason>
    {
        let id = String(decoding: name.dropLast(suffix.utf8.count), as: UTF8.self)
        var versions: [[String: JSONValue]]
        do { versions = try dir.readSmallJSON(name, limit: sizeLimit) } catch { return .failure(.file(error)) }
        for copy in copies.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            if let v = try? dir.readSmallJSON(copy, limit: sizeLimit) { versions += v }
        }
        let merged = versions.dropFirst().reduce(JSONValue.object(versions[0])) { ProjectMerge.merge($0, .object($1)) }
        guard case .object(let raw) = merged else { return .failure(.notARecord("not an object")) }
        return decode(raw, id: id).map { ($0, raw) }
    }

    /// A record checked field by field. Pieces' paths must stay inside the
    /// project, a copy inside the record's own folder, and a snapshot is a
    /// single name.
    static func decode(_ raw: [String: JSONValue], id: String) -> Result<Submission, SkipReason> {
        guard raw["id"]?.stringValue == id else { return .failure(.notARecord("its id is not its file’s name")) }
        guard let sentText = raw["sent"]?.stringValue, let sent = SubmissionDay(sentText) else {
            return .failure(.notARecord("no day sent"))
        }
        guard let market = ProjectFile.settingValue(raw["market"])?.objectValue,
            let marketPath = market["path"]?.stringValue, isInsideProject(marketPath),
            let marketName = market["name"]?.stringValue, !marketName.isEmpty, marketName.utf8.count <= 1024
        else { return .failure(.notARecord("no market, or a market outside the project")) }
        guard let pieceTable = raw["pieces"]?.objectValue, !pieceTable.isEmpty, pieceTable.count <= pieceLimit else {
            return .failure(.notARecord("no pieces"))
        }
        var pieces: [SubmittedPiece] = []
        for (key, value) in pieceTable {
            guard let p = value.objectValue, let path = p["path"]?.stringValue else {
                return .failure(.notARecord("a piece without a path"))
            }
            guard isInsideProject(path) else { return .failure(.pieceOutside(path)) }
            var piece = SubmittedPiece(key: key, path: path)
            if let copy = p["copy"]?.stringValue {
                let parts = copy.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0] == id, isName(String(parts[1])) else {
                    return .failure(.pieceOutside(copy))
                }
                piece.copy = copy
            }
            if let snapshot = p["snapshot"]?.stringValue {
                // A name in the piece's own snapshot folder, never a path out of it.
                guard isName(snapshot) else { return .failure(.pieceOutside(snapshot)) }
                piece.snapshot = snapshot
            }
            if let packet = p["packet"]?.stringValue {
                guard isInsideProject(packet) else { return .failure(.pieceOutside(packet)) }
                piece.packet = packet
            }
            let status = ProjectFile.settingValue(p["status"])?.objectValue
            piece.status = status?["status"]?.stringValue.flatMap(SubmissionStatus.init(rawValue:)) ?? .pending
            piece.statusDay = status?["day"]?.stringValue.flatMap(SubmissionDay.init)
            piece.note = ProjectFile.settingValue(p["note"])?.stringValue.map { String($0.prefix(4000)) }
            var history: [(Int64, String, SubmissionStatus, SubmissionDay?)] = []
            for (hkey, h) in (p["history"]?.objectValue ?? [:]).prefix(1000) {
                guard let s = h["status"]?.stringValue.flatMap(SubmissionStatus.init(rawValue:)) else { continue }
                history.append(
                    (SettingStamp.read(h["changed"]), hkey, s, h["day"]?.stringValue.flatMap(SubmissionDay.init)))
            }
            piece.history = history.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { ($0.2, $0.3) }
            pieces.append(piece)
        }
        pieces.sort { ($0.key.count, $0.key) < ($1.key.count, $1.key) }
        var record = Submission(id: id, marketPath: marketPath, marketName: marketName, sent: sent, pieces: pieces)
        record.marketID = market["id"]?.stringValue.flatMap { MarketFile.isID($0) ? $0 : nil }
        record.fee = ProjectFile.settingValue(raw["fee"])?.stringValue.map { String($0.prefix(500)) }
        return .success(record)
    }

    /// A "/"-separated relative path of names: never absolute, never `.`,
    /// `..` or empty, never NUL. So no record can point out of its project.
    public static func isInsideProject(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 4096 else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { isName(String($0)) }
    }

    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s != "." && s != ".." && !s.contains("/") && !s.contains("\0") && s.utf8.count <= 255
    }

    /// A name no other submission uses, here or on another machine.
    public static func newID(now: Int64 = Clock.nowMs()) -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "\(now)-\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }

    /// What a new record says; pieces are `(path, snapshot, packet)`.
    public struct NewRecord: Sendable {
        public var id: String
        public var marketPath: String, marketName: String, marketID: String?
        public var sent: SubmissionDay
        public var pieces: [(path: String, snapshot: String?, packet: String?)]
        public init(
            id: String, marketPath: String, marketName: String, marketID: String?, sent: SubmissionDay,
            pieces: [(path: String, snapshot: String?, packet: String?)]
        ) {
            (self.id, self.marketPath, self.marketName, self.marketID) = (id, marketPath, marketName, marketID)
            self.sent = sent
            self.pieces = pieces
        }
    }

    /// Writes a new record, never over a file. The caller holds the project's lock.
    public static func create(_ new: NewRecord, in dir: Directory, now: Int64 = Clock.nowMs()) throws(SysError) {
        var market: [String: JSONValue] = ["path": .string(new.marketPath), "name": .string(new.marketName)]
        if let id = new.marketID { market["id"] = .string(id) }
        var pieces: [String: JSONValue] = [:]
        for (i, p) in new.pieces.enumerated() {
            var piece: [String: JSONValue] = [
                "path": .string(p.path),
                "status": setting(["status": .string("pending"), "day": .string(new.sent.description)], now),
                "history": .object([
                    "\(now)-pending": .object([
                        "changed": .int(Int(now)), "status": .string("pending"), "day": .string(new.sent.description),
                    ])
                ]),
            ]
            if let name = p.snapshot { piece["snapshot"] = .string(name) }
            if let k = p.packet { piece["packet"] = .string(k) }
            pieces[String(i + 1)] = .object(piece)
        }
        let raw: [String: JSONValue] = [
            "id": .string(new.id), "sent": .string(new.sent.description), "created": .int(Int(now)),
            "market": setting(.object(market), now), "pieces": .object(pieces),
        ]
        let name = Array((new.id + suffix).utf8)
        if dir.kind(of: name) != nil {
            throw SysError("create", BytePath.display(BytePath.join(dir.path, name)), code: EEXIST)
        }
        try dir.writeSmallJSON(raw, as: name, tempPrefix: tempPrefix)
    }

    static func setting(_ value: JSONValue, _ now: Int64) -> JSONValue {
        .object(["changed": .int(Int(now)), "value": value])
    }

    /// What a status change sets on one piece; nil leaves a field as it is.
    public struct StatusChange: Sendable {
        public var status: SubmissionStatus
        public var day: SubmissionDay
        public var note: String?
        public init(status: SubmissionStatus, day: SubmissionDay, note: String? = nil) {
            self.status = status
            self.day = day
            self.note = note
        }
    }

    /// Changes pieces of record `id` and writes it whole, merging in and then
    /// removing sync's copies of it. The caller holds the project's lock.
    /// Returns the record as written.
    public static func update(
        _ id: String, pieces keys: [String], _ change: StatusChange, fee: String? = nil, in dir: Directory,
        now: Int64 = Clock.nowMs()
    ) throws(UpdateProblem) -> Submission {
        dir.removeTemporaries(tempPrefix)
        let name = Array((id + suffix).utf8)
        let copies = scanCopies(of: id, in: dir)
        guard dir.kind(of: name) != nil else { throw .noRecord }
        var raw: [String: JSONValue]
        switch read(name, copies: copies, in: dir) {
        case .success(let (_, r)): raw = r
        case .failure(let why): throw .unreadable(why)
        }
        var pieces = raw["pieces"]?.objectValue ?? [:]
        for key in keys {
            guard var piece = pieces[key]?.objectValue else { continue }
            let status: JSONValue = .object([
                "status": .string(change.status.rawValue), "day": .string(change.day.description),
            ])
            let before = ProjectFile.settingChanged(piece["status"])
            let stamp = SettingStamp.change(after: before, now: now)
            if ProjectFile.settingValue(piece["status"]) != status {
                piece["status"] = setting(status, stamp)
                var history = piece["history"]?.objectValue ?? [:]
                history["\(stamp)-\(change.status.rawValue)"] = .object([
                    "changed": .int(Int(stamp)), "status": .string(change.status.rawValue),
                    "day": .string(change.day.description),
                ])
                piece["history"] = .object(history)
            }
            if let note = change.note, ProjectFile.settingValue(piece["note"])?.stringValue != note {
                piece["note"] = setting(
                    .string(note), SettingStamp.change(after: ProjectFile.settingChanged(piece["note"]), now: now))
            }
            pieces[key] = .object(piece)
        }
        raw["pieces"] = .object(pieces)
        if let fee, ProjectFile.settingValue(raw["fee"])?.stringValue != fee {
            raw["fee"] = setting(
                .string(fee), SettingStamp.change(after: ProjectFile.settingChanged(raw["fee"]), now: now))
        }
        guard case .success(let record) = decode(raw, id: id) else {
            throw .unreadable(.notARecord("after the change"))
        }
        do { try dir.writeSmallJSON(raw, as: name, tempPrefix: tempPrefix) } catch { throw .sys(error) }
        for copy in copies where dir.kind(of: copy) == .file { try? dir.unlinkFile(copy) }
        if !copies.isEmpty { dir.sync() }
        return record
    }

    /// Pieces at `old` (a file's path, or a folder's and everything
    /// below it) now at `new`, after Carrel renamed or moved them: written
    /// as `update` writes. Returns whether the record named any.
    @discardableResult
    public static func movePieces(_ id: String, from old: String, to new: String, in dir: Directory)
        throws(UpdateProblem) -> Bool
    {
        dir.removeTemporaries(tempPrefix)
        let name = Array((id + suffix).utf8)
        let copies = scanCopies(of: id, in: dir)
        guard dir.kind(of: name) != nil else { throw .noRecord }
        var raw: [String: JSONValue]
        switch read(name, copies: copies, in: dir) {
        case .success(let (_, r)): raw = r
        case .failure(let why): throw .unreadable(why)
        }
        guard isInsideProject(new) else { return false }
        var pieces = raw["pieces"]?.objectValue ?? [:]
        var moved = false
        for (key, value) in pieces {
            guard var piece = value.objectValue, let path = piece["path"]?.stringValue else { continue }
            if path == old || path.hasPrefix(old + "/") {
                piece["path"] = .string(new + path.dropFirst(old.count))
                pieces[key] = .object(piece)
                moved = true
            }
        }
        guard moved else { return false }
        raw["pieces"] = .object(pieces)
        do { try dir.writeSmallJSON(raw, as: name, tempPrefix: tempPrefix) } catch { throw .sys(error) }
        for copy in copies where dir.kind(of: copy) == .file { try? dir.unlinkFile(copy) }
        if !copies.isEmpty { dir.sync() }
        return true
    }

    public enum UpdateProblem: Error, Sendable {
        case noRecord
        case unreadable(SkipReason)
        case sys(SysError)
    }

    /// Sync's copies of record `id`.
    static func scanCopies(of id: String, in dir: Directory) -> [[UInt8]] {
        guard let items = try? dir.list() else { return [] }
        return items.compactMap { item in
            guard let s = String(validating: item.name, as: UTF8.self), ConflictCopy.isCopy(s),
                ConflictCopy.original(of: s) == id + suffix
            else { return nil }
            return item.name
        }
    }
}
