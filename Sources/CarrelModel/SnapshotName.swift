/// The name of one snapshot file: when it was taken (UTC, to the
/// millisecond), by which device, a random part, its words, and the
/// writer's title, then the snapshot's file's own extension:
///
///     2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1234w Before the cut.md
///
/// The device part and the random part make two machines' names differ
/// even at the same millisecond, so sync never has two versions of one
/// snapshot to merge. Everything a listing shows is in the name, so a
/// listing reads no snapshot's text and a writer browsing the folder sees
/// the same. Names are read untrusted: anything that is not exactly this
/// shape is not a snapshot.
public struct SnapshotName: Equatable, Sendable {
    /// Milliseconds since the epoch, within the years 1970 … 9999.
    public var takenMs: Int64
    /// Eight lowercase hex digits naming the device (`StateFiles.deviceID`).
    public var device: String
    /// Eight lowercase hex digits drawn for this snapshot.
    public var random: String
    public var words: Int
    public var title: String?
    /// The snapshot's file's extension with its dot ("" for none), so an
    /// editor opening a snapshot highlights it as the file.
    public var fileExtension: String

    /// The largest word count a name may claim: nine digits.
    public static let maxWords = 999_999_999
    /// A title's most bytes, leaving room in a 255-byte name for the rest.
    public static let maxTitleBytes = 120
    static let stampLength = 24

    public init(takenMs: Int64, device: String, random: String, words: Int, title: String?, fileExtension: String) {
        self.takenMs = takenMs
        self.device = device
        self.random = random
        self.words = max(0, min(words, Self.maxWords))
        self.title = title
        self.fileExtension = fileExtension
    }

    public var fileName: String {
        var name = "\(Self.stamp(takenMs)) \(device)-\(random) \(words)w"
        if let title { name += " " + title }
        return name + fileExtension
    }

    /// "2026-11-28 01:15 UTC": the date a writer reads in a listing.
    public var displayDate: String {
        let s = Self.stamp(takenMs)
        let date = s.prefix(10)
        let time = String(s.dropFirst(11).prefix(5).map { $0 == "-" ? ":" : $0 })
        return "\(date) \(time) UTC"
    }

    /// The extension a snapshot of the file `name` takes: its own, or none.
    public static func fileExtension(of name: String) -> String {
        NameRules.fileExtension(name).map { "." + $0 } ?? ""
    }

    /// Reads a name found in the snapshot folder of a file whose extension
    /// is `ext`: a snapshot taken under that extension, else one taken
    /// before a rename changed it (`Storm.md` to `Storm.txt`), which keeps
    /// the extension it was written with, as snapshots are never changed.
    public static func parse(_ name: String, ofFileWith ext: String) -> SnapshotName? {
        if let found = parse(name, fileExtension: ext) { return found }
        let own = fileExtension(of: name)
        guard !own.isEmpty, own != ext else { return nil }
        return parse(name, fileExtension: own)
    }

    /// Reads a name found in a file's snapshot folder; nil when it is not
    /// a snapshot's name (cut short, forged, another file's extension).
    public static func parse(_ name: String, fileExtension ext: String) -> SnapshotName? {
        guard name.hasSuffix(ext) else { return nil }
        let body = Array(name.utf8.dropLast(ext.utf8.count))
        // stamp, space, 8 hex, dash, 8 hex, space, 1…9 digits, "w"
        guard body.count >= stampLength + 1 + 17 + 1 + 2 else { return nil }
        guard let ms = parseStamp(Array(body[0..<stampLength])), body[stampLength] == 0x20 else { return nil }
        var i = stampLength + 1
        let device = Array(body[i..<i + 8])
        let random = Array(body[i + 9..<i + 17])
        guard device.allSatisfy(isHex), body[i + 8] == UInt8(ascii: "-"), random.allSatisfy(isHex) else { return nil }
        i += 17
        guard body[i] == 0x20 else { return nil }
        i += 1
        var words = 0
        var digits = 0
        while i < body.count, (0x30...0x39).contains(body[i]) {
            guard digits < 9 else { return nil }
            words = words * 10 + Int(body[i] - 0x30)
            digits += 1
            i += 1
        }
        guard digits > 0, i < body.count, body[i] == UInt8(ascii: "w") else { return nil }
        i += 1
        var title: String? = nil
        if i < body.count {
            guard body[i] == 0x20, let t = String(validating: body[(i + 1)...], as: UTF8.self),
                (try? checkTitle(t)) == t
            else { return nil }
            title = t
        }
        return SnapshotName(
            takenMs: ms, device: String(decoding: device, as: UTF8.self),
            random: String(decoding: random, as: UTF8.self), words: words, title: title, fileExtension: ext)
    }

    /// A writer's title as it goes into a name: trimmed; nil when empty.
    /// Refused with a reason when it cannot be part of a file name.
    public static func checkTitle(_ raw: String) throws(Failure) -> String? {
        let t = raw.trimmingWhitespace
        if t.isEmpty { return nil }
        if t.unicodeScalars.contains(where: { $0 == "/" || $0 == "\0" || $0.properties.generalCategory == .control }) {
            throw Failure(.invalidName, .snapshot(.titleUnusable(title: raw)))
        }
        if t.utf8.count > maxTitleBytes {
            throw Failure(.invalidName, .snapshot(.titleTooLong(bytes: t.utf8.count, limit: maxTitleBytes)))
        }
        return t
    }

    private static func isHex(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x61...0x66).contains(b) }

    // MARK: The stamp: YYYY-MM-DDTHH-MM-SS.mmmZ, without colons, which some
    // filesystems a library syncs to refuse.

    static func stamp(_ ms: Int64) -> String {
        let clamped = max(0, min(ms, lastMs))
        let days = clamped / 86_400_000
        var rest = clamped % 86_400_000
        let (y, m, d) = civil(days)
        let hour = rest / 3_600_000
        rest %= 3_600_000
        let minute = rest / 60_000
        rest %= 60_000
        func pad(_ v: Int64, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(hour, 2))-\(pad(minute, 2))-\(pad(rest / 1000, 2))."
            + "\(pad(rest % 1000, 3))Z"
    }

    /// 9999-12-31T23:59:59.999Z.
    static let lastMs: Int64 = 253_402_300_799_999

    static func parseStamp(_ s: [UInt8]) -> Int64? {
        guard s.count == stampLength else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var v: Int64 = 0
            for b in s[range] {
                guard (0x30...0x39).contains(b) else { return nil }
                v = v * 10 + Int64(b - 0x30)
            }
            return v
        }
        let marks: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, "-"), (16, "-"), (19, "."), (23, "Z")]
        guard marks.allSatisfy({ s[$0.0] == $0.1.asciiValue }) else { return nil }
        guard let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10), let h = number(11..<13),
            let mi = number(14..<16), let sec = number(17..<19), let ms = number(20..<23),
            y >= 1970, (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, sec < 60
        else { return nil }
        let days = daysFromCivil(y, mo, d)
        // A day the month does not have (February 30) reads back as another date.
        guard civil(days) == (y, mo, d) else { return nil }
        return ((days * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms
    }

    /// Howard Hinnant's days-from-civil and its inverse, for years 1970 … 9999.
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = y / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
