import CarrelJSON
import CarrelModel
import CarrelWorkspace

/// `carrel compile`, `carrel include` and `carrel byline`: what the
/// editors' "Compile…", "Leave out of compile" and the title page's
/// details do, from a shell.
extension CLI {
    static func compile(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let project = try target(ws, absolute(options.positional[0]))
        // A relative -o is the writer's own path, from where they stand.
        let output = options.value("-o").map { absolute($0) }
        // The market and the day are checked before anything is written.
        let market = try options.value("--submit-to").map { (path: String) throws -> Workspace.Target in
            let market = try target(ws, absolute(path))
            try ws.checkMarket(market)
            return market
        }
        var day: SubmissionDay?
        if let date = options.value("--date") {
            guard let d = SubmissionDay(date) else {
                throw Failure(.invalidParams, .submission(.badField(field: "date", given: date)))
            }
            day = d
        }
        let (compiled, outcome) = try ws.compile(
            project,
            Workspace.CompileRequest(
                recipe: options.value("--recipe"), format: options.value("--to"), output: output,
                forSubmission: market != nil))
        if options.has("--json") {
            var result: [String: JSONValue] = [
                "path": .string(Workspace.display(compiled.path)), "recipe": .string(compiled.recipe),
                "format": .string(compiled.format.rawValue), "words": .int(compiled.counts.words),
                "pieces": .int(compiled.counts.pieces),
            ]
            if let lines = compiled.counts.lines { result["lines"] = .int(lines) }
            print(String(decoding: JSONValue.object(result).encoded(pretty: true), as: UTF8.self))
        } else if let report = outcome.report {
            print(report.text(language))
        }
        if let market { try submitPacket(ws, compiled, to: market, day: day, options, language) }
    }

    /// The compiled pieces, with the document as their packet when it is in
    /// the library, recorded as `carrel submit` does, asking as it does.
    private static func submitPacket(
        _ ws: Workspace, _ compiled: Workspace.Compiled, to market: Workspace.Target, day: SubmissionDay?,
        _ options: Options, _ language: Language
    ) throws {
        let pieces = try compiled.files.map { (path: [UInt8]) throws(Failure) in try target(ws, path) }
        let packet = try? target(ws, compiled.path)
        if let clash = try ws.simultaneousConflict(pieces, to: market) {
            let question = Message.submission(
                .confirmSimultaneous(
                    market: clash.market, pieces: clash.pieces.joined(separator: "”, “"),
                    elsewhere: clash.elsewhere.joined(separator: "”, “")))
            try confirm(question.text(language), options, language)
        }
        let (outcome, listed) = try ws.submit(pieces, to: market, day: day, packet: packet)
        if let report = outcome.report { writeError(report.text(language) + "\n") }
        print(listed.record.id)
    }

    static func include(_ options: inout Options, _ language: Language) throws {
        let word = options.positional[1].lowercased()
        guard ["yes", "no", "on", "off"].contains(word) else {
            throw Failure(.invalidParams, .notYesOrNo(given: options.positional[1]))
        }
        let included = word == "yes" || word == "on"
        let ws = try library(options)
        let path = absolute(options.positional[0])
        _ = try ws.setCompileIncluded(try target(ws, path), included)
        print(Message.compile(.leftOut(path: Workspace.display(path), leftOut: !included)).text(language))
    }

    static func byline(_ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let path = absolute(options.positional[0])
        let contact = options.value("--contact").map {
            $0.split(separator: "|").map { String($0.trimmingPrefix(" ").reversed().drop { $0 == " " }.reversed()) }
        }
        let outcome = try ws.setByline(try target(ws, path), author: options.value("--author"), contact: contact)
        if let report = outcome.report { print(report.text(language)) }
    }
}
