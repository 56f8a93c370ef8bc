import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace
import Foundation

/// The LSP server. Framing lives in the transport; this receives whole
/// bodies, so tests drive it in process. All state is confined to `work`.
public final class Server: @unchecked Sendable {
    /// The `carrel.*` commands `workspace/executeCommand` takes, for texts
    /// that list them.
    public static let commandNames = InitializeRequest.commands

    public static let version = "0.1.0"

    /// The catalog's words that clients show, in `language`.
    public static func vocabulary(_ language: Language) -> InitializeRequest.Vocabulary {
        var v = InitializeRequest.Vocabulary(
            projectTypes: ProjectType.all.map { .init(id: $0.id, title: $0.title(language)) },
            sorts: SortChoice.all.map {
                .init(by: $0.setting.by.rawValue, descending: $0.setting.descending, title: $0.title(language))
            },
            maxNameBytes: NameRules.maxBytes, defaultExtension: ProjectMetadata.standardExtension)
        v.formats = CompileRecipe.Format.allCases.map {
            .init(id: $0.rawValue, title: $0.title(language), pandoc: $0.needsPandoc)
        }
        v.submissionStatuses = SubmissionStatus.allCases.map { .init(id: $0.rawValue, title: $0.title(language)) }
        v.recipes = Dictionary(
            uniqueKeysWithValues: ProjectType.all.map { type in
                (
                    type.id,
                    type.recipes.map { .init(name: $0.name, title: $0.title(language), format: $0.format.rawValue) }
                )
            })
        return v
    }

    enum State { case uninitialized, running, shutDown }

    let sink: MessageSink
    let log: Log
    let work = WorkThread(name: "carrel-work")
    let workspace = Workspace()
    var language = Language.english
    /// What the client understands beyond LSP (`capabilities.experimental.carrel`).
    var extensions = InitializeRequest.Extensions()
    /// Each workspace folder the client gave, by path, with the library it
    /// stands for (`Server+Folders.swift`).
    var workspaceFolders: [[UInt8]: [UInt8]] = [:]
    var state = State.uninitialized
    /// Called with the exit code when `exit` arrives; the stdio transport exits the process.
    let onExit: @Sendable (Int32) -> Void

    /// Requests cancelled before they ran; read and written under `cancelLock`.
    private var cancelled = Set<RequestID>()
    private let cancelLock = NSLock()
    /// Requests waiting for the writer's answer to a confirmation, with the id of our question.
    var awaitingAnswer: [RequestID: RequestID] = [:]
    /// Our own requests to the client, by id, with what to do with the answer.
    var outgoing: [RequestID: (Result<JSONValue, ResponseError>) -> Void] = [:]
    /// Far above the ids clients give their own requests: Vim 9 matches a
    /// message to its pending requests by id alone, so a question numbered
    /// like one of them would be taken for its answer. Vim 9.0 cannot answer
    /// a string id, so the ids stay integers.
    public static let firstOutgoingID = 1_000_000
    var nextOutgoingID = Server.firstOutgoingID
    /// How long a confirmation waits for the writer (`initializationOptions.confirmationTimeout`).
    var confirmationTimeout = InitializeRequest.defaultConfirmationTimeout
    var pollTimer: DispatchSourceTimer?
    /// What the watcher saw and clients were not told yet (`Server+Watching.swift`).
    var watched = WatchedChanges()
    let watchInbox = WatchInbox()
    /// Words: counting begins after the first tree answer; one slice is queued at a time.
    var countingStarted = false
    var countingScheduled = false
    var snapshotSweepQueued = false
    /// Open documents' text by URI (`textDocument/didOpen`…), never written anywhere.
    var documents: [String: OpenDocument] = [:]
    /// Whether the client can be asked to redraw inlay hints.
    var inlayHintRefresh = false
    /// `capabilities.window.workDoneProgress`: the client shows `$/progress`.
    var workDoneProgress = false
    /// The client applies `workspace/applyEdit` (its open buffers' link edits).
    var applyEdit = false
    var inlayHintRefreshPending = false
    /// Results larger than this many bytes are streamed (`reply`): the
    /// server's memory, some 75 MB with a library of 100,000 files, stays
    /// within its 120 MB bound. `CARREL_STREAM_ABOVE` sets it, for the tests.
    let streamAbove = ProcessInfo.processInfo.environment["CARREL_STREAM_ABOVE"].flatMap { Int($0) } ?? 46 << 20
    /// A streamed reply goes out in pieces of this size (smaller only when
    /// the tests set a threshold below it, so their small trees stream too).
    var streamPiece: Int { max(64, min(1 << 20, streamAbove)) }
    /// Per library, built by the first search and rebuilt by the next one
    /// after a change: never ahead, so a writer who never searches holds none.
    var symbolIndexes: [ObjectIdentifier: SymbolIndex] = [:]

    public init(sink: MessageSink, log: Log, onExit: @escaping @Sendable (Int32) -> Void) {
        self.sink = sink
        self.log = log
        self.onExit = onExit
        workspace.log = { [log] in log.line($0) }
    }

    /// The exit code if input ends now: 0 only after `shutdown`.
    public var exitCode: Int32 {
        var code: Int32 = 1
        let done = DispatchSemaphore(value: 0)
        work.async {
            code = self.state == .shutDown ? 0 : 1; done.signal()
        }
        done.wait()
        return code
    }

    /// Stops watching the disk, after the work already queued: an owner that
    /// makes many servers in one process (the tests) gives each one's inotify
    /// instance back instead of running out of them. It waits for nothing,
    /// so it may be called from any thread, the work thread included.
    public func stopWatching() {
        work.async { self.workspace.stopWatching() }
    }

    /// stdin closed: let queued work finish first.
    public func inputClosed() {
        let done = DispatchSemaphore(value: 0)
        work.async { done.signal() }
        done.wait()
    }

    /// One framed body from the client. Cancellations are noted at once, so
    /// they overtake queued work; everything else runs in order.
    ///
    /// `mayRunHere`: the caller's thread has a stack of `workStackSize` and
    /// holds no further message yet, so an idle server may run this one on
    /// it (see `WorkThread.runHereIfIdle`).
    public func receive(_ body: [UInt8], mayRunHere: Bool = false) {
        let decoded = Envelope.decode(body)
        if case .success(.notification(let method, let params)) = decoded, method == CancelRequestNotification.method {
            if let id = CancelRequestNotification.Params(json: params).id {
                cancelLock.lock()
                cancelled.insert(id)
                cancelLock.unlock()
                work.async { self.cancelWaiting(id) }
            }
            return
        }
        if mayRunHere {
            work.runHereIfIdle { self.handle(decoded) }
        } else {
            work.async { self.handle(decoded) }
        }
    }

    /// The stack the work runs on: node building recurses once per folder level.
    static let workStackSize = WorkThread.stackSize

    func takeCancellation(_ id: RequestID) -> Bool {
        cancelLock.lock()
        defer { cancelLock.unlock() }
        return cancelled.remove(id) != nil
    }

    // MARK: Sending

    func send(_ message: JSONValue) { sink.send(message.encoded()) }

    func reply(_ id: RequestID?, _ result: JSONValue) {
        send(Envelope.response(id: id, result: result))
    }

    func reply(_ id: RequestID?, error: ResponseError) {
        send(Envelope.error(id: id, error))
    }

    /// Writes a result straight from a writer (the tree), skipping `JSONValue`.
    /// A result of more than one piece is sent in pieces, each let go once
    /// written. One larger than `streamAbove` is not even held whole: a
    /// first writing keeps that many bytes and measures the rest, then the
    /// header, the kept bytes and a second writing of the rest go to the
    /// client, the second skipping the rows the kept bytes hold. A full tree
    /// of 100,000 files is some 55 MB, which would otherwise nearly double
    /// the server's memory while it is sent.
    func reply(_ id: RequestID?, capacity: Int = 4096, writing body: (inout JSONWriter) -> Void) {
        func envelope(_ w: inout JSONWriter) {
            w.beginObject()
            w.key("id")
            w.value(id?.json ?? .null)
            w.key("jsonrpc")
            w.string("2.0")
            w.key("result")
            body(&w)
            w.endObject()
        }
        // Both writings must see the same day and the same sessions, or today's words could differ.
        let clock = workspace.sessions.today
        let day = clock()
        workspace.sessions.today = { day }
        workspace.sessions.refresh()
        workspace.sessions.rereads = false
        defer {
            workspace.sessions.today = clock
            workspace.sessions.rereads = true
        }
        // The kept bytes are pieces, so that each is let go once written.
        var kept: [[UInt8]] = []
        var keptCount = 0
        var keeping = true
        let keepAtMost = streamAbove
        let pieceSize = streamPiece
        var first = JSONWriter(piece: pieceSize, capacity: min(capacity, pieceSize)) { piece in
            guard keeping else { return }
            kept.append(piece)
            keptCount += piece.count
            keeping = keptCount < keepAtMost
        }
        first.recordSpans()
        envelope(&first)
        guard !kept.isEmpty, let spans = first.spanLog else { return sink.send(first.bytes) }
        sink.send(length: first.count) { piece in
            while !kept.isEmpty { piece(kept.removeFirst()) }
            // Everything was kept: the rest is what the writer still holds.
            if keeping { return piece(first.bytes) }
            withoutActuallyEscaping(piece) { piece in
                var w = JSONWriter(
                    replaying: spans, after: keptCount, piece: pieceSize, capacity: pieceSize, drain: piece)
                envelope(&w)
                w.finish()
            }
        }
    }

    /// Sends our own request. Its id also differs from `clientID` and from
    /// every client request waiting on a question, whatever ids the client uses.
    @discardableResult
    func request(
        _ method: String, _ params: JSONValue = .null, avoiding clientID: RequestID? = nil,
        then: @escaping (Result<JSONValue, ResponseError>) -> Void
    ) -> RequestID {
        var id = RequestID.int(nextOutgoingID)
        while id == clientID || awaitingAnswer[id] != nil || outgoing[id] != nil {
            nextOutgoingID += 1
            id = .int(nextOutgoingID)
        }
        nextOutgoingID += 1
        outgoing[id] = then
        send(Envelope.request(id: id, method, params))
        return id
    }

    func notifyChanges(_ changes: [Change]) {
        defer { sendNotices() }
        guard !changes.isEmpty, state != .uninitialized else { return }
        // A few changed files are counted before the rows go out, so clients
        // get the new words with the change rather than a blank between.
        workspace.recountWords(after: changes)
        workspace.noteLinkChanges(changes)
        var counted: [Entry] = []
        if workspace.wordsToCount <= Server.inlineCountLimit { counted = workspace.countQueuedWords() }
        if extensions.didChange {
            let wire = changes.map { c in
                DidChangeNotification.Change(
                    type: c.kind.rawValue, uri: FileURI.uri(c.path),
                    oldUri: c.oldPath.map(FileURI.uri), inTrash: c.inTrash)
            }
            let renderer = NodeRenderer(workspace: workspace, language: language)
            let updated = workspace.updatedRows(changes).map(renderer.node)
            let placed = workspace.placedRows(changes)?.map(renderer.placed)
            sendDidChange(DidChangeNotification.params(wire, updated: updated, placed: placed))
        }
        scheduleCounting()
        if !counted.isEmpty { refreshInlayHints() }
    }

    /// `carrel/didChange`, to a client that declared it understands it: a
    /// stock client would warn of each one (lsp-mode) or drop it unread.
    func sendDidChange(_ params: JSONValue) {
        guard extensions.didChange else { return }
        send(Envelope.notification(DidChangeNotification.method, params))
    }

    /// Tells the writer, once each, what the workspace merged on its own.
    func sendNotices() {
        guard state != .uninitialized, !workspace.notices.isEmpty else { return }
        for notice in workspace.notices {
            send(
                Envelope.notification(
                    ShowMessageNotification.method, ShowMessageNotification.params(message: notice.text(language))))
        }
        workspace.notices.removeAll()
    }

    /// More files than this after a change are left to the background slices.
    static let inlineCountLimit = 64

    // MARK: Errors

    func error(_ failure: Failure) -> ResponseError {
        if failure.reason == .invalidParams {
            return ResponseError(code: ResponseError.invalidParams, message: failure.message.text(language))
        }
        return ResponseError(
            code: ResponseError.requestFailed, message: failure.message.text(language),
            data: ["reason": .string(failure.reason.rawValue)])
    }

    func error(_ p: ParamError) -> ResponseError {
        let message: Message
        switch p.problem {
        case .missing: message = .missingParam(field: p.field)
        case .wrongType(let expected, let found):
            message = .invalidParam(field: p.field, expected: expected, found: found)
        case .invalidValue(let text): message = .invalidParam(field: p.field, expected: "valid", found: text)
        }
        return ResponseError(
            code: ResponseError.invalidParams, message: message.text(language), data: ["field": .string(p.field)])
    }
}
