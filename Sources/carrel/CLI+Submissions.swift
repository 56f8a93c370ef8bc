import CarrelJSON
import CarrelModel
import CarrelServer
import CarrelWorkspace
import Glibc

/// `carrel market`, `carrel submit`, `carrel submission-status`,
/// `carrel withdraw-others` and `carrel submissions`: submissions tracking
/// from a shell, with the server's rules and words.
extension CLI {
    static let marketOptions: [(flag: String, field: MarketDetails.Field)] = [
        ("--name", .name), ("--url", .url), ("--deadline", .deadline), ("--reading-period", .readingPeriod),
        ("--fee", .fee), ("--simultaneous", .simultaneous), ("--notes", .notes),
    ]

    static func market(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let market = try target(ws, absolute(options.positional[0]))
        var fields: [MarketDetails.Field: MarketDetails.Value] = [:]
        for (flag, field) in marketOptions {
            guard let given = options.value(flag) else { continue }
            if given.isEmpty || given == "none" {
                fields[field] = .clear
            } else if field == .simultaneous {
                let word = given.lowercased()
                guard ["yes", "no"].contains(word) else { throw Failure(.invalidParams, .notYesOrNo(given: given)) }
                fields[field] = .flag(word == "yes")
            } else {
                fields[field] = .text(given)
            }
        }
        if !fields.isEmpty {
            let outcome = try ws.setMarket(market, fields)
            if let report = outcome.report { writeError(report.text(language) + "\n") }
        }
        let details = try ws.marketDetails(market)
        for (flag, field) in marketOptions {
            if let text = details.text(field) { print("\(flag.dropFirst(2))\t\(text)") }
        }
    }

    static func submit(_ options: inout Options, _ language: Language) throws {
        guard let to = options.value("--to") else { throw Usage(.missingValue(option: "--to")) }
        let ws = try library(options)
        let pieces = try options.positional.map { (p: String) throws(Failure) in try target(ws, absolute(p)) }
        let market = try target(ws, absolute(to))
        var day: SubmissionDay?
        if let date = options.value("--date") {
            guard let d = SubmissionDay(date) else {
                throw Failure(.invalidParams, .submission(.badField(field: "date", given: date)))
            }
            day = d
        }
        if let clash = try ws.simultaneousConflict(pieces, to: market) {
            let question = Message.submission(
                .confirmSimultaneous(
                    market: clash.market, pieces: clash.pieces.joined(separator: "”, “"),
                    elsewhere: clash.elsewhere.joined(separator: "”, “")))
            do { try confirm(question.text(language), options, language) } catch {
                if error.message == .noAnswer { throw Failure(.cancelled, .submission(.noAnswerToSubmit)) }
                throw error
            }
        }
        let (outcome, listed) = try ws.submit(pieces, to: market, day: day)
        if let report = outcome.report { writeError(report.text(language) + "\n") }
        print(listed.record.id)
    }

    static func submissionStatus(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        guard let status = SubmissionStatus(rawValue: options.positional[1]) else {
            throw Failure(
                .invalidParams,
                .submission(.badField(field: "status", given: options.positional[1])))
        }
        var day: SubmissionDay?
        if let date = options.value("--date") {
            guard let d = SubmissionDay(date) else {
                throw Failure(.invalidParams, .submission(.badField(field: "date", given: date)))
            }
            day = d
        }
        let record = options.positional[0]
        let piece = try piece(ws, options)
        let outcome = try ws.setSubmissionStatus(
            record: record, piece: piece, status, day: day, note: options.value("--note"), fee: options.value("--fee"))
        let offer = status == .accepted ? ws.publishOffer(record: record, piece: piece) : nil
        guard let offer, options.has("--move-to-published") else {
            if let report = outcome.report { print(report.text(language)) }
            if let offer {
                print(Message.submissionOffer(.moveToPublishedHint(count: offer.pieces.count)).text(language))
            }
            return
        }
        // Moved now, so the report's "once it is published" is left out.
        if case .submissionStatusSet(let p, let market, let status, let stillOut, _)? = outcome.report {
            print(
                Report.submissionStatusSet(piece: p, market: market, status: status, stillOut: stillOut, published: nil)
                    .text(language))
        }
        try moveToPublished(ws, offer, language)
    }

    /// Each piece through the ordinary move, as `carrel mv` makes it.
    private static func moveToPublished(_ ws: Workspace, _ offer: Workspace.PublishOffer, _ language: Language) throws {
        for path in offer.pieces {
            let item = try target(ws, path)
            let published = try target(ws, offer.published)
            let plan = try ws.planMove(item, to: published)
            try moveFollowingLinks(ws, plan, .move, language) { () throws in try ws.move(item, to: published) }
        }
    }

    static func withdrawOthers(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let outcome = try ws.withdrawOthers(record: options.positional[0], piece: try piece(ws, options))
        if let report = outcome.report { print(report.text(language)) }
    }

    /// `--piece`: a key of the record, or a path, made the piece's path in its project.
    private static func piece(_ ws: Workspace, _ options: Options) throws -> String? {
        guard let given = options.value("--piece") else { return nil }
        if given.allSatisfy(\.isNumber) { return given }
        return try ws.piecePath(try target(ws, absolute(given)))
    }

    static func submissions(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let scope = try options.positional.first.map { (p: String) throws(Failure) in try target(ws, absolute(p)) }
        let (listed, skipped) = try ws.submissions(in: scope, pendingOnly: options.has("--pending"))
        for s in skipped { writeError("carrel: " + s.message.text(language) + "\n") }
        if options.has("--json") {
            print(JSONValue.array(listed.map { SubmissionJSON.json($0, ws, language) }).text())
            return
        }
        if options.has("--csv") {
            print(chillsubsCSV(listed), terminator: "")
            return
        }
        for l in listed {
            let market = l.market.map { l.project.relativePath(of: $0) } ?? l.record.marketName
            for p in l.record.pieces {
                let day = p.statusDay.map { " \($0)" } ?? ""
                print("\(l.record.sent)\t\(market)\t\(p.path)\t\(p.status.title(language))\(day)\t\(l.record.id)")
            }
        }
    }

    /// The columns of Chillsubs' submission tracker, so a writer can carry
    /// their history there: one row per piece.
    static func chillsubsCSV(_ listed: [Workspace.ListedSubmission]) -> String {
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        var out = ChillsubsCSV.columns.joined(separator: ",") + "\r\n"
        for l in listed {
            for p in l.record.pieces {
                let name = String(p.path.split(separator: "/").last ?? "")
                let title = name.contains(".") ? String(name[..<name.lastIndex(of: ".")!]) : name
                let status = ChillsubsCSV.title(p.status)
                let result = p.status.isOut ? "" : p.statusDay?.description ?? ""
                let row = [
                    title, l.record.marketName, "", l.record.sent.description, result, status, p.note ?? "",
                ]
                out += row.map(field).joined(separator: ",") + "\r\n"
            }
        }
        return out
    }

    /// `carrel import-submissions FILE PROJECT`: Chillsubs' CSV recorded as
    /// the project's submissions; each row left out is said on stderr.
    static func importSubmissions(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let project = try target(ws, absolute(options.positional[1]))
        let text = try readCSV(options.positional[0])
        let (rows, problems) = ChillsubsCSV.read(text)
        let (imported, skipped) = try ws.importSubmissions(rows, into: project)
        let all = problems.map { ($0.line, SubmissionMessage.ImportSkip.csv($0.problem)) } + skipped
        for (line, why) in all.sorted(by: { $0.0 < $1.0 }) {
            writeError("carrel: " + Message.submission(.importRowSkipped(line: line, why: why)).text(language) + "\n")
        }
        print(Message.submission(.imported(count: imported)).text(language))
    }

    /// The writer's CSV: a plain file (no link followed, no pipe waited on) of at most 4 MiB, UTF-8.
    private static func readCSV(_ path: String) throws -> String {
        let limit = 4 << 20
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(.io, .io(path: path, detail: String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(.io, .unusableEntry(path: path, found: .pipe, expected: .file))
        }
        guard Int(st.st_size) <= limit else { throw Failure(.io, .fileTooLarge(path: path, limit: limit)) }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes[count...].withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        guard count <= limit, let text = String(validating: bytes[..<count], as: UTF8.self) else {
            throw Failure(.io, .io(path: path, detail: "not UTF-8 text"))
        }
        return text
    }
}
