/// Chillsubs' submission tracker as CSV: its columns, and rows read from
/// a file a writer exported there. The file is untrusted text: parsed in
/// one pass, with bounded rows and fields, every value checked.
public enum ChillsubsCSV {
    public static let columns = ["Title", "Publisher", "Method", "Date Submitted", "Result Date", "Status", "Notes"]
    public static let maxRows = 10_000
    public static let maxField = 4000

    /// One submission a row describes.
    public struct Row: Sendable, Equatable {
        public var line: Int
        public var title: String
        public var publisher: String
        public var sent: SubmissionDay
        public var status: SubmissionStatus
        public var result: SubmissionDay?
        public var note: String?
    }

    /// Why a row, or the whole file, was not imported.
    public enum Problem: Sendable, Equatable {
        case missingColumn(String)
        case tooManyRows(Int)
        case emptyField(String)
        case badDate(String)
        case badStatus(String)
        case fieldTooLong(String)
    }

    /// The rows, and each row left out with why; a file without the
    /// columns it needs is one problem at line 1.
    public static func read(_ text: String) -> (rows: [Row], skipped: [(line: Int, problem: Problem)]) {
        let records = parse(text)
        guard let header = records.first else { return ([], [(1, .missingColumn("Title"))]) }
        let names = header.fields.map { trimmed($0).lowercased() }
        func column(_ name: String) -> Int? { names.firstIndex(of: name.lowercased()) }
        for needed in ["Title", "Publisher", "Date Submitted"] where column(needed) == nil {
            return ([], [(1, .missingColumn(needed))])
        }
        var rows: [Row] = []
        var skipped: [(Int, Problem)] = []
        for record in records.dropFirst() {
            if rows.count + skipped.count >= maxRows {
                skipped.append((record.line, .tooManyRows(maxRows)))
                break
            }
            func value(_ name: String) -> String {
                guard let i = column(name), i < record.fields.count else { return "" }
                return trimmed(record.fields[i])
            }
            if record.fields.allSatisfy({ $0.isEmpty }) { continue }
            if let long = columns.first(where: { value($0).count > maxField }) {
                skipped.append((record.line, .fieldTooLong(long)))
                continue
            }
            let title = value("Title")
            let publisher = value("Publisher")
            guard !title.isEmpty else { skipped.append((record.line, .emptyField("Title"))); continue }
            guard !publisher.isEmpty else { skipped.append((record.line, .emptyField("Publisher"))); continue }
            guard let sent = day(value("Date Submitted")) else {
                skipped.append((record.line, .badDate(value("Date Submitted"))))
                continue
            }
            let resultText = value("Result Date")
            let result = day(resultText)
            if !resultText.isEmpty && result == nil {
                skipped.append((record.line, .badDate(resultText)))
                continue
            }
            guard let status = status(value("Status")) else {
                skipped.append((record.line, .badStatus(value("Status"))))
                continue
            }
            let note = value("Notes")
            rows.append(
                Row(
                    line: record.line, title: title, publisher: publisher, sent: sent, status: status, result: result,
                    note: note.isEmpty ? nil : note))
        }
        return (rows, skipped)
    }

    /// Spaces, tabs and a byte-order mark off both ends.
    static func trimmed(_ s: String) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
        return String(s.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    /// Chillsubs' statuses; an empty one is pending.
    public static func status(_ text: String) -> SubmissionStatus? {
        switch text.lowercased() {
        case "", "pending", "in progress": return .pending
        case "accepted": return .accepted
        case "rejected", "declined": return .rejected
        case "withdrawn": return .withdrawn
        case "never responded", "no response": return .noResponse
        case "shortlisted": return .shortlisted
        default: return nil
        }
    }

    /// What Chillsubs calls a status.
    public static func title(_ status: SubmissionStatus) -> String {
        switch status {
        // Chillsubs knows no shortlist: a shortlisted piece is still pending there.
        case .pending, .shortlisted: return "Pending"
        case .accepted: return "Accepted"
        case .rejected: return "Rejected"
        case .withdrawn: return "Withdrawn"
        case .noResponse: return "Never Responded"
        }
    }

    /// `YYYY-MM-DD`, or `M/D/YYYY` as American spreadsheets write it.
    static func day(_ text: String) -> SubmissionDay? {
        if let d = SubmissionDay(text) { return d }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 4 else { return nil }
        func pad(_ s: Substring) -> String { s.count == 1 ? "0" + s : String(s) }
        return SubmissionDay("\(parts[2])-\(pad(parts[0]))-\(pad(parts[1]))")
    }

    /// RFC 4180: fields split at commas, quoted fields may hold commas,
    /// doubled quotes and line breaks. Each record keeps the line it began on.
    static func parse(_ text: String) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var start = 1
        var chars = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let p = pending { pending = nil; return p }
            return chars.next()
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" { field.append("\"") } else { quoted = false; pending = n }
                    } else {
                        quoted = false
                    }
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    if field.count <= maxField { field.append(c) }
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty: quoted = true
            case ",": fields.append(field); field = ""
            case "\n", "\r\n", "\r":
                fields.append(field)
                records.append((start, fields))
                fields = []
                field = ""
                line += 1
                start = line
                if records.count > maxRows + 1 { return records }
            default: if field.count <= maxField { field.append(c) }
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append((start, fields))
        }
        return records
    }
}
