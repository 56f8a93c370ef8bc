import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// `carrel.snapshot`, `carrel.snapshots`, `carrel.compareSnapshot` and
/// `carrel.rollBack`. A snapshot lives in the project's `.carrel`, which no
/// tree shows, so taking one changes no row; a rollback changes its file's.
extension Server {
    func snapshotCommand(_ id: RequestID, _ command: CarrelCommand) throws {
        switch command {
        case .snapshot(let uri, let title):
            let item = try target(uri)
            let taken = try workspace.takeSnapshot(item, title: title)
            reply(id, ["snapshots": .array(taken.map(Self.json))])
            if case .entry(let e, _) = item {
                tell(.snapshotTaken(name: e.name.string, files: taken.count))
            }
        case .snapshots(let uri):
            let (list, skipped) = try workspace.snapshots(of: try target(uri))
            reply(
                id,
                [
                    "snapshots": .array(list.map(Self.json)),
                    "skipped": .array(
                        skipped.map { s in
                            let why = language == .french ? s.why.words.fr : s.why.words.en
                            return ["name": .string(s.name), "why": .string(why)]
                        }),
                ])
        case .compareSnapshot(let uri, let snapshot, let other):
            let compared = try workspace.compareSnapshot(try target(uri), snapshot: snapshot, other: other)
            var result: [String: JSONValue] = [
                "added": .int(compared.summary.added), "removed": .int(compared.summary.removed),
                "summary": .string(compared.summary.text(language)), "snapshot": Self.json(compared.snapshot),
            ]
            if let o = compared.other { result["other"] = Self.json(o) }
            reply(id, .object(result))
        case .rollBack(let uri, let snapshot):
            let (outcome, _) = try workspace.rollBack(try target(uri), to: snapshot)
            finish(id, outcome)
        default:
            break
        }
    }

    static func json(_ s: SnapshotInfo) -> JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(s.name.fileName), "uri": .string(FileURI.uri(s.path)),
            "path": .string(s.displayPath), "taken": .int(Int(s.name.takenMs)),
            "date": .string(s.name.displayDate), "words": .int(s.name.words),
        ]
        if let t = s.name.title { o["title"] = .string(t) }
        return .object(o)
    }

    private func tell(_ report: Report) {
        send(
            Envelope.notification(
                ShowMessageNotification.method, ShowMessageNotification.params(message: report.text(language))))
    }
}
