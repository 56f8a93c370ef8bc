import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// `carrel.compile`: the document and its counts, with work-done progress
/// for clients that show it: under the client's own token when the request
/// carries one, else under one the server creates
/// (`window/workDoneProgress/create`) when the client declared
/// `window.workDoneProgress`.
extension Server {
    static let progressMethod = "$/progress"
    static let createProgressMethod = "window/workDoneProgress/create"

    func compile(
        _ id: RequestID, projectUri: String, recipe: String?, format: String?, output: String?, token given: JSONValue?
    ) throws {
        let project = try target(projectUri)
        var outputPath: [UInt8]?
        if let output {
            // The writer names where it goes, inside the library or not:
            // the one write outside the workspace, and only where asked.
            if output.hasPrefix("file:") {
                guard let p = try? FileURI.path(output) else { throw ParamError("output", .invalidValue(output)) }
                outputPath = p
            } else {
                guard output.hasPrefix("/") else { throw ParamError("output", .invalidValue(output)) }
                outputPath = Array(output.utf8)
            }
        }
        var token = given
        if token == nil, workDoneProgress {
            let made = JSONValue.string("carrel-compile-\(nextOutgoingID)")
            request(Self.createProgressMethod, ["token": made]) { _ in }
            token = made
        }
        let language = language
        func progress(_ kind: String, _ step: CompileStep, _ percentage: Int) {
            guard let token else { return }
            var value: [String: JSONValue] = ["kind": .string(kind), "message": .string(step.text(language))]
            if kind == "begin" {
                value["title"] = .string(CompileStep.compiling.text(language))
                value["cancellable"] = false
            }
            if kind != "end" { value["percentage"] = .int(percentage) }
            send(Envelope.notification(Self.progressMethod, ["token": token, "value": .object(value)]))
        }
        progress("begin", .reading, 0)
        let compiled: Workspace.Compiled
        let outcome: Outcome
        do {
            (compiled, outcome) = try workspace.compile(
                project, Workspace.CompileRequest(recipe: recipe, format: format, output: outputPath)
            ) { step, percentage in
                if percentage > 0 && percentage < 100 { progress("report", step, percentage) }
            }
        } catch {
            progress("end", .nothingWritten, 100)
            throw error
        }
        progress("end", .done, 100)
        workspace.expectEvents(of: outcome.changes)
        let result = CompileResult(
            path: compiled.path, recipe: compiled.recipe, format: compiled.format.rawValue,
            words: compiled.counts.words, pieces: compiled.files, submission: compiled.forSubmission,
            lines: compiled.counts.lines,
            poems: compiled.counts.poems.map { CompileResult.Poem(title: $0.title, lines: $0.lines) })
        reply(id, result.json)
        notifyChanges(takeWatched() + outcome.changes + workspace.settle())
        if let report = outcome.report {
            send(
                Envelope.notification(
                    ShowMessageNotification.method, ShowMessageNotification.params(message: report.text(language))))
        }
    }
}

/// `carrel/compileOptions`: the rows of a client's Compile… and what its
/// Set Byline… starts from, read when asked, so a recipe file the writer
/// just added is offered at once.
extension Server {
    func compileOptions(_ id: RequestID, _ params: CompileOptionsRequest.Params) throws(Failure) {
        finishScan()
        let project = try target(params.projectUri)
        let recipes = try workspace.recipes(of: project).map { offer in
            CompileOptionsRequest.Recipe(
                name: offer.name, title: offer.recipe?.title(language) ?? offer.name,
                format: offer.recipe?.format.rawValue)
        }
        let byline = try workspace.byline(of: project)
        reply(id, CompileOptionsRequest.result(recipes: recipes, author: byline.author, contact: byline.contact))
    }
}
