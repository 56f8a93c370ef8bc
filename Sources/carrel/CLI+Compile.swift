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
        let (compiled, outcome) = try ws.compile(
            project,
            Workspace.CompileRequest(recipe: options.value("--recipe"), format: options.value("--to"), output: output))
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
