import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// Submissions tracking over the wire: the commands, the question asked
/// before sending to a market that refuses simultaneous submissions, and
/// the `carrel/submissions` listing.
extension Server {
    func executeSubmission(_ id: RequestID, _ command: CarrelCommand) throws(Failure) {
        switch command {
        case .setMarket(let uri, let fields):
            var typed: [MarketDetails.Field: MarketDetails.Value] = [:]
            for (key, value) in fields {
                guard let f = MarketDetails.Field(rawValue: key) else { continue }
                switch value {
                case .null: typed[f] = .clear
                case .bool(let b): typed[f] = .flag(b)
                case .string(let s): typed[f] = .text(s)
                default:
                    throw Failure(
                        .invalidParams,
                        .submission(.badField(field: key, given: String(decoding: value.encoded(), as: UTF8.self))))
                }
            }
            finish(id, try workspace.setMarket(try target(uri), typed))
        case .submit(let items, let marketUri, let date, let packetUri, let confirmed):
            try submit(id, items: items, marketUri: marketUri, date: date, packetUri: packetUri, confirmed: confirmed)
        case .setSubmissionStatus(let record, let piece, let status, let date, let note, let fee):
            let piece = try pieceName(piece)
            let status = SubmissionStatus(rawValue: status) ?? .pending
            finish(
                id,
                try workspace.setSubmissionStatus(
                    record: record, piece: piece, status, day: try day(date), note: note, fee: fee))
            if status == .accepted { offerPublishing(record: record, piece: piece) }
        case .withdrawOthers(let record, let piece):
            finish(id, try workspace.withdrawOthers(record: record, piece: try pieceName(piece)))
        default: break
        }
    }

    /// A piece named by URI becomes its path in the project; a key or path is kept.
    private func pieceName(_ piece: String?) throws(Failure) -> String? {
        guard let piece, piece.hasPrefix("file:") else { return piece }
        return try workspace.piecePath(try target(piece))
    }

    private func day(_ date: String?) throws(Failure) -> SubmissionDay? {
        guard let date else { return nil }
        guard let day = SubmissionDay(date) else {
            throw Failure(.invalidParams, .submission(.badField(field: "date", given: date)))
        }
        return day
    }

    private func submit(
        _ id: RequestID, items: [String], marketUri: String, date: String?, packetUri: String?, confirmed: Bool
    ) throws(Failure) {
        let sent = try day(date)
        let pieces = try items.map { (uri: String) throws(Failure) in try target(uri) }
        let run: () throws(Failure) -> Void = { [self] () throws(Failure) in
            let (outcome, listed) = try workspace.submit(
                try items.map { (uri: String) throws(Failure) in try target(uri) }, to: try target(marketUri),
                day: sent, packet: try packetUri.map { (uri: String) throws(Failure) in try target(uri) })
            finish(id, outcome, result: json(listed))
        }
        guard !confirmed, let clash = try workspace.simultaneousConflict(pieces, to: try target(marketUri)) else {
            try run()
            return
        }
        let message = Message.submission(
            .confirmSimultaneous(
                market: clash.market, pieces: clash.pieces.joined(separator: "”, “"),
                elsewhere: clash.elsewhere.joined(separator: "”, “")))
        let actions: [Message] = [.actionCancel, .submission(.actionSubmitAnyway)]
        let params = ShowMessageRequest.params(
            message: message.text(language), actions: actions.map { $0.text(language) })
        let question = request(ShowMessageRequest.method, params, avoiding: id) { [self] result in
            guard awaitingAnswer.removeValue(forKey: id) != nil else { return }
            let chosen = ShowMessageRequest.chosenTitle(result)
            let anyway = [language, .english].contains { chosen == Message.submission(.actionSubmitAnyway).text($0) }
            guard anyway else {
                reply(id, error: error(Failure(.cancelled, .cancelled)))
                return
            }
            do throws(Failure) { try run() } catch { reply(id, error: self.error(error)) }
        }
        awaitingAnswer[id] = question
        expireUnanswered(id, question)
    }

    /// As `finish`, answering with `result` rather than a Node.
    func finish(_ id: RequestID, _ outcome: Outcome, result: JSONValue) {
        workspace.expectEvents(of: outcome.changes)
        reply(id, result)
        notifyChanges(takeWatched() + outcome.changes + workspace.settle())
        if let report = outcome.report {
            send(
                Envelope.notification(
                    ShowMessageNotification.method, ShowMessageNotification.params(message: report.text(language))))
        }
    }

    func submissions(_ id: RequestID, _ params: SubmissionsRequest.Params) throws(Failure) {
        finishScan()
        let scope = try params.uri.map { (uri: String) throws(Failure) in try target(uri) }
        let (listed, skipped) = try workspace.submissions(in: scope, pendingOnly: params.pendingOnly)
        reply(
            id,
            [
                "submissions": .array(listed.map { json($0) }),
                "skipped": .array(
                    skipped.map {
                        [
                            "record": .string($0.name), "projectUri": .string(FileURI.uri($0.project.root.path)),
                            "message": .string($0.message.text(language)),
                        ]
                    }),
            ])
    }

    func json(_ listed: Workspace.ListedSubmission) -> JSONValue {
        SubmissionJSON.json(listed, workspace, language)
    }
}

/// A submission as the protocol and `carrel submissions --json` give it.
public enum SubmissionJSON {
    /// A submission on the wire: its market where it is now (or the name it
    /// recorded, when the market is gone), each piece's status and history.
    public static func json(_ listed: Workspace.ListedSubmission, _ workspace: Workspace, _ language: Language)
        -> JSONValue
    {
        let r = listed.record
        let root = listed.project.root.path
        func uri(_ relative: String) -> JSONValue {
            .string(FileURI.uri(root + [UInt8(ascii: "/")] + Array(relative.utf8)))
        }
        var market: [String: JSONValue] = ["name": .string(r.marketName), "path": .string(r.marketPath)]
        if let m = listed.market {
            market["uri"] = .string(FileURI.uri(m.path))
            market["path"] = .string(listed.project.relativePath(of: m))
        }
        let pieces: [JSONValue] = r.pieces.map { p in
            var o: [String: JSONValue] = [
                "key": .string(p.key), "path": .string(p.path), "status": .string(p.status.rawValue),
                "title": .string(p.status.title(language)),
                "history": .array(
                    p.history.map { h in
                        var e: [String: JSONValue] = ["status": .string(h.status.rawValue)]
                        if let d = h.day { e["day"] = .string(d.description) }
                        return .object(e)
                    }),
            ]
            if workspace.entry(atRelative: p.path, in: listed.project) != nil { o["uri"] = uri(p.path) }
            if let d = p.statusDay { o["day"] = .string(d.description) }
            if let n = p.note { o["note"] = .string(n) }
            if let name = p.snapshot {
                o["snapshot"] = .string(name)
                o["copyUri"] = uri(".carrel/snapshots/" + p.path + "/" + name)
            } else if let c = p.copy {
                o["copyUri"] = uri(".carrel/submissions/" + c)
            }
            if let k = p.packet { o["packetUri"] = uri(k) }
            return .object(o)
        }
        var out: [String: JSONValue] = [
            "id": .string(r.id), "projectUri": .string(FileURI.uri(root)), "market": .object(market),
            "sent": .string(r.sent.description), "pending": .bool(r.isPending), "pieces": .array(pieces),
        ]
        if let fee = r.fee { out["fee"] = .string(fee) }
        return .object(out)
    }
}
