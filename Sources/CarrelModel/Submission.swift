/// Submissions: which piece went to which market, when, and what became of
/// it. Pure rules only; the files live in `CarrelStore` (`MarketFile`,
/// `SubmissionRecords`) and the operations in `CarrelWorkspace`.

/// Where a piece stands at one market.
public enum SubmissionStatus: String, Sendable, CaseIterable, Comparable {
    case pending, shortlisted, accepted, rejected, withdrawn
    case noResponse = "noResponse"

    /// Still waiting for an answer: the piece is out.
    public var isOut: Bool { self == .pending || self == .shortlisted }

    public func title(_ language: Language) -> String {
        switch (self, language) {
        case (.pending, .english): return "pending"
        case (.pending, .french): return "en attente"
        case (.shortlisted, .english): return "shortlisted"
        case (.shortlisted, .french): return "présélectionné"
        case (.accepted, .english): return "accepted"
        case (.accepted, .french): return "accepté"
        case (.rejected, .english): return "rejected"
        case (.rejected, .french): return "refusé"
        case (.withdrawn, .english): return "withdrawn"
        case (.withdrawn, .french): return "retiré"
        case (.noResponse, .english): return "no response"
        case (.noResponse, .french): return "sans réponse"
        }
    }

    /// Listing order: what is out first, then what was answered.
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// A calendar day written `YYYY-MM-DD`, as a writer types it and as
/// Chillsubs exports it. Checked digit by digit: a date read from disk or
/// the wire never reaches arithmetic that could trap.
public struct SubmissionDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int, month: Int, day: Int

    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func number(_ r: Range<Int>) -> Int? {
            var n = 0
            for i in r {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10), y >= 1, (1...12).contains(m),
            d >= 1, d <= Self.daysIn(month: m, year: y)
        else { return nil }
        (year, month, day) = (y, m, d)
    }

    /// The day `ms` after the epoch falls on, in UTC.
    public init(epochMs ms: Int64) {
        let days = Int(max(0, min(ms, 253_402_300_799_999)) / 86_400_000)
        // Howard Hinnant's civil-from-days, for days since 1970-01-01.
        let z = days + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        (year, month, day) = (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before it); years are at most 9999.
    public var ordinal: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (a: Self, b: Self) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}

/// A market's details, kept in a small file in its folder (`MarketFile`).
public struct MarketDetails: Sendable, Equatable {
    /// The fields a writer sets, by their key in the file and on the wire.
    public enum Field: String, Sendable, CaseIterable {
        case name, url, deadline, readingPeriod, fee, simultaneous, notes

        /// The longest text a field keeps; longer is refused.
        public var maxLength: Int { self == .notes ? 4000 : 500 }
    }

    /// A value a writer gives a field: text (a date is text), yes or no, or nothing, to clear it.
    public enum Value: Sendable, Equatable {
        case text(String)
        case flag(Bool)
        case clear
    }

    public var name: String?
    public var url: String?
    public var deadline: SubmissionDay?
    public var readingPeriod: String?
    public var fee: String?
    /// Whether the market takes work that is under consideration elsewhere; nil when not said.
    public var simultaneous: Bool?
    public var notes: String?

    public init() {}

    /// One field's value as text, nil when unset.
    public func text(_ field: Field) -> String? {
        switch field {
        case .name: return name
        case .url: return url
        case .deadline: return deadline?.description
        case .readingPeriod: return readingPeriod
        case .fee: return fee
        case .simultaneous: return simultaneous.map { $0 ? "yes" : "no" }
        case .notes: return notes
        }
    }
}

/// One piece of one submission, as its record holds it.
public struct SubmittedPiece: Sendable, Equatable {
    /// The piece's key in its record ("1", "2"…).
    public var key: String
    /// The piece's path in the project, "/"-separated, as it was sent.
    public var path: String
    /// Where an older Carrel kept the text sent, relative to the submissions folder.
    public var copy: String?
    /// The name of the piece's snapshot holding the text sent, in the
    /// piece's snapshot folder, wherever the piece is now.
    public var snapshot: String?
    /// The compiled packet the piece went out in, relative to the project.
    public var packet: String?
    public var status: SubmissionStatus
    /// The day of the status's last change.
    public var statusDay: SubmissionDay?
    public var note: String?
    /// Every change of status, oldest first.
    public var history: [(status: SubmissionStatus, day: SubmissionDay?)]

    public init(key: String, path: String, status: SubmissionStatus = .pending) {
        self.key = key
        self.path = path
        self.status = status
        self.history = []
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.key == b.key && a.path == b.path && a.copy == b.copy && a.snapshot == b.snapshot
            && a.packet == b.packet && a.status == b.status
            && a.statusDay == b.statusDay && a.note == b.note
            && a.history.map { "\($0.status)\($0.day?.description ?? "")" }
                == b.history.map { "\($0.status)\($0.day?.description ?? "")" }
    }
}

/// One submission: pieces sent together to one market on one day.
public struct Submission: Sendable, Equatable {
    /// The record's file name without `.json`: when and on which machine.
    public var id: String
    /// The market's path in the project when last known, and the name it had.
    public var marketPath: String
    public var marketName: String
    /// The market file's own id, so a market moved or renamed is still found.
    public var marketID: String?
    public var sent: SubmissionDay
    public var fee: String?
    public var pieces: [SubmittedPiece]

    public init(id: String, marketPath: String, marketName: String, sent: SubmissionDay, pieces: [SubmittedPiece]) {
        self.id = id
        self.marketPath = marketPath
        self.marketName = marketName
        self.sent = sent
        self.pieces = pieces
    }

    /// Whether any piece is still out.
    public var isPending: Bool { pieces.contains { $0.status.isOut } }

    /// Listing order: submissions with a piece still out first, then by the day sent, newest first; ids break ties.
    public static func listingOrder(_ a: Submission, _ b: Submission) -> Bool {
        if a.isPending != b.isPending { return a.isPending }
        if a.sent != b.sent { return a.sent > b.sent }
        return a.id > b.id
    }
}

/// How many submissions of a piece, or to a market, stand at each status:
/// what a row's summary says ("out at 2 · 1 rejected").
public struct SubmissionTally: Sendable, Equatable {
    public var counts: [SubmissionStatus: Int] = [:]
    public init() {}

    public mutating func add(_ status: SubmissionStatus) { counts[status, default: 0] += 1 }
    public var isEmpty: Bool { counts.values.allSatisfy { $0 == 0 } }
    public var out: Int { (counts[.pending] ?? 0) + (counts[.shortlisted] ?? 0) }

    /// For a piece, "out at 2 · 1 accepted · 1 rejected"; for a market,
    /// "2 pending · 1 accepted" (what it holds of the writer's, not where
    /// the writer's piece is). Nil when there is nothing.
    public func text(forMarket: Bool, _ language: Language) -> String? {
        var parts: [String] = []
        let fr = language == .french
        if forMarket {
            if out > 0 { parts.append("\(CountWords.number(out, language)) \(fr ? "en attente" : "pending")") }
        } else if out > 0 {
            parts.append((fr ? "soumis à " : "out at ") + CountWords.number(out, language))
        }
        for status in [SubmissionStatus.accepted, .rejected, .withdrawn, .noResponse] {
            guard let n = counts[status], n > 0 else { continue }
            var word = status.title(language)
            // French agrees in number: "2 refusés", "2 sans réponse".
            if fr && n > 1 && status != .noResponse { word += "s" }
            parts.append("\(CountWords.number(n, language)) \(word)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

extension FoundKind {
    /// What was found, as an English sentence names it ("a symbolic link").
    public var englishWords: String { words.en }
}
