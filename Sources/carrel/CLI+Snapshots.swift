import CarrelJSON
import CarrelModel
import CarrelWorkspace

/// `carrel snapshot`, `snapshots`, `compare` and `rollback`: the server's
/// snapshots from a shell. A snapshot is named by its file name, as
/// `carrel snapshots` prints it; a path to it is taken by its last part,
/// which is only ever looked up among the file's own snapshots.
extension CLI {
    static func snapshot(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let taken = try ws.takeSnapshot(try argument(ws, options.positional[0]), title: options.value("--title"))
        for s in taken { print(s.displayPath) }
    }

    static func snapshots(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let (list, skipped) = try ws.snapshots(of: try argument(ws, options.positional[0], reading: true))
        for s in skipped {
            let why = language == .french ? s.why.words.fr : s.why.words.en
            writeError(Message.snapshot(.skipped(snapshot: s.name, why: why)).text(language) + "\n")
        }
        if options.has("--json") {
            let rows = list.map { s -> JSONValue in
                var o: [String: JSONValue] = [
                    "name": .string(s.name.fileName), "path": .string(s.displayPath),
                    "taken": .int(Int(s.name.takenMs)), "words": .int(s.name.words),
                ]
                if let t = s.name.title { o["title"] = .string(t) }
                return .object(o)
            }
            print(JSONValue.array(rows).text())
            return
        }
        for s in list {
            let words = Message.snapshot(.words(s.name.words)).text(language)
            print([s.name.displayDate, words, s.name.title ?? "", s.name.fileName].joined(separator: "\t"))
        }
    }

    static func compare(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let compared = try ws.compareSnapshot(
            try argument(ws, options.positional[0], reading: true), snapshot: snapshotName(options.positional[1]),
            other: nil)
        print(compared.summary.text(language))
        print(compared.snapshot.displayPath)
    }

    static func rollback(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let (outcome, _) = try ws.rollBack(
            try argument(ws, options.positional[0]), to: snapshotName(options.positional[1]))
        if let said = outcome.report?.text(language) { writeError("carrel: \(said)\n") }
        report(ws, outcome, language)
    }

    /// A snapshot's name, given as it is or as a path to it.
    static func snapshotName(_ given: String) -> String {
        given.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? given
    }
}
