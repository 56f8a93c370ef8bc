import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

extension Server {
    /// Runs on `work`. One explicit switch per message kind, ending in MethodNotFound.
    func handle(_ decoded: Result<Incoming, EnvelopeError>) {
        switch decoded {
        case .failure(let e):
            log.line("bad message: \(e.error.message)")
            reply(e.id, error: e.error)
        case .success(.response(let id, let result)):
            if let then = outgoing.removeValue(forKey: id) { then(result) }
        case .success(.notification(let method, let params)):
            handleNotification(method, params)
        case .success(.request(let id, let method, let params)):
            if takeCancellation(id) {
                reply(id, error: ResponseError(code: ResponseError.requestCancelled, message: "Request cancelled"))
                return
            }
            handleRequest(id, method, params)
        }
    }

    func handleNotification(_ method: String, _ params: JSONValue) {
        switch method {
        case InitializedNotification.method:
            if state == .running { askLeftLinkQuestions() }
        case ExitNotification.method:
            onExit(state == .shutDown ? 0 : 1)
        case DidChangeWorkspaceFoldersNotification.method:
            guard state == .running, let p = try? DidChangeWorkspaceFoldersNotification.Params(json: params) else {
                return
            }
            for uri in p.removed { removeWorkspaceFolder(uri) }
            for uri in p.added { addWorkspaceFolder(uri) }
            // A library added after counting began is counted too.
            if countingStarted {
                workspace.queueUncountedWords()
                scheduleCounting()
            }
        case DidOpenTextDocumentNotification.method:
            guard state == .running, let p = try? DidOpenTextDocumentNotification.Params(json: params) else { return }
            didOpen(p)
        case DidChangeTextDocumentNotification.method:
            guard state == .running, let p = try? DidChangeTextDocumentNotification.Params(json: params) else { return }
            didChange(p)
        case DidCloseTextDocumentNotification.method:
            guard state == .running, let p = try? DidCloseTextDocumentNotification.Params(json: params) else { return }
            didClose(p)
        default:
            break  // Unknown notifications are ignored, as LSP says.
        }
    }

    func handleRequest(_ id: RequestID, _ method: String, _ params: JSONValue) {
        if state == .shutDown {
            reply(
                id,
                error: ResponseError(
                    code: ResponseError.invalidRequest,
                    message: "Invalid request: the server is shut down; only “exit” is accepted"))
            return
        }
        if state == .uninitialized && method != InitializeRequest.method {
            reply(
                id,
                error: ResponseError(
                    code: ResponseError.serverNotInitialized, message: "Server not initialized: send “initialize” first"
                ))
            return
        }
        do {
            switch method {
            case InitializeRequest.method:
                try initialize(id, InitializeRequest.Params(json: params))
            case ShutdownRequest.method:
                // Counts made since the first pass; rare, so not written per file.
                workspace.saveWordCaches()
                state = .shutDown
                reply(id, .null)
            case TreeRequest.method:
                try tree(id, TreeRequest.Params(json: params))
            case WorkspaceSymbolRequest.method:
                try symbols(id, WorkspaceSymbolRequest.Params(json: params))
            case DestinationsRequest.method:
                try destinations(id, DestinationsRequest.Params(json: params))
            case CompileOptionsRequest.method:
                try compileOptions(id, CompileOptionsRequest.Params(json: params))
            case SubmissionsRequest.method:
                try submissions(id, SubmissionsRequest.Params(json: params))
            case MarketRequest.method:
                try market(id, MarketRequest.Params(json: params))
            case ExecuteCommandRequest.method:
                try execute(id, ExecuteCommandRequest.Params(json: params))
            case DocumentSymbolRequest.method:
                try documentSymbols(id, DocumentSymbolRequest.Params(json: params))
            case InlayHintRequest.method:
                try inlayHints(id, InlayHintRequest.Params(json: params))
            case DefinitionRequest.method:
                definition(id, try TextDocumentPosition(json: params))
            case ReferencesRequest.method:
                references(id, try TextDocumentPosition(json: params))
            case DocumentLinkRequest.method:
                documentLinks(id, try DocumentLinkRequest.Params(json: params))
            case CompletionRequest.method:
                completion(id, try TextDocumentPosition(json: params))
            case WillRenameFilesRequest.method:
                willRenameFiles(id, try WillRenameFilesRequest.Params(json: params))
            default:
                reply(
                    id, error: ResponseError(code: ResponseError.methodNotFound, message: "Method not found: \(method)")
                )
            }
        } catch let e as ParamError {
            reply(id, error: error(e))
        } catch let f as Failure {
            reply(id, error: error(f))
        } catch {
            reply(id, error: ResponseError(code: ResponseError.internalError, message: "\(error)"))
        }
    }

    func initialize(_ id: RequestID, _ params: InitializeRequest.Params) throws {
        if state != .uninitialized {
            reply(
                id,
                error: ResponseError(
                    code: ResponseError.invalidRequest, message: "Invalid request: “initialize” was already received"))
            return
        }
        language = Language(locale: params.locale)
        extensions = params.extensions
        confirmationTimeout = params.confirmationTimeout
        startDeepScan()
        inlayHintRefresh = params.inlayHintRefresh
        workDoneProgress = params.workDoneProgress
        applyEdit = params.applyEdit
        for uri in params.folders { addWorkspaceFolder(uri) }
        state = .running
        watchLibraries()
        reply(id, InitializeRequest.result(version: Server.version, vocabulary: Server.vocabulary(language)))
        settleAndPoll()
        startDeepReadingSoon()
        sendNotices()
    }

    /// A URI as a workspace target, or the precise reason it is not one.
    func target(_ uri: String) throws(Failure) -> Workspace.Target {
        let path: [UInt8]
        do { path = try FileURI.path(uri) } catch { throw Failure(.outsideWorkspace, .notAURI(uri: uri)) }
        return try workspace.locate(path, uri: uri)
    }
}
