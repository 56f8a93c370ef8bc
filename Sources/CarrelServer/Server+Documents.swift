import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// An editor's open buffer: its text as last sent (full sync). Kept in
/// memory only, for counts and outlines; never written anywhere.
struct OpenDocument {
    var text: [UInt8]
    var version: Int
}

/// The standard LSP a stock client uses unchanged: open buffers' words,
/// the outline of a file (`textDocument/documentSymbol`) and words after
/// each heading (`textDocument/inlayHint`).
extension Server {
    func didOpen(_ p: DidOpenTextDocumentNotification.Params) {
        guard let entry = libraryFile(p.uri) else { return }
        let text = Array(p.text.utf8)
        documents[p.uri] = OpenDocument(text: text, version: p.version)
        workspace.indexBuffer(entry, text: text)
        publishLinkDiagnostics(p.uri)
        if workspace.showBuffer(entry, text: text) { notifyWords([entry]) }
    }

    func didChange(_ p: DidChangeTextDocumentNotification.Params) {
        guard let text = p.text, documents[p.uri] != nil, let entry = libraryFile(p.uri) else { return }
        let bytes = Array(text.utf8)
        documents[p.uri] = OpenDocument(text: bytes, version: p.version)
        workspace.indexBuffer(entry, text: bytes)
        publishLinkDiagnostics(p.uri)
        if workspace.showBuffer(entry, text: bytes) { notifyWords([entry]) }
    }

    func didClose(_ p: DidCloseTextDocumentNotification.Params) {
        guard documents.removeValue(forKey: p.uri) != nil, let entry = libraryFile(p.uri) else { return }
        workspace.indexBuffer(entry, text: nil)
        sendDiagnostics(p.uri, [])
        if workspace.closeBuffer(entry) { notifyWords([entry]) }
    }

    /// The file of a library at `uri`, or nil for anything else (outside
    /// every library, a folder, a link).
    func libraryFile(_ uri: String) -> Entry? {
        guard let t = try? target(uri), case .entry(let e, _) = t, e.kind == .file else { return nil }
        return e
    }

    /// The open buffer's text, else the file's, for a file of a library.
    func documentText(_ uri: String) -> ([UInt8], WordCount.Format)? {
        guard let entry = libraryFile(uri) else { return nil }
        let format = WordCount.Format(fileName: entry.name.string)
        if let open = documents[uri] { return (open.text, format) }
        guard let bytes = workspace.savedText(of: entry) else { return nil }
        return (bytes, format)
    }

    func documentSymbols(_ id: RequestID, _ p: DocumentSymbolRequest.Params) {
        guard let (text, format) = documentText(p.uri) else { return reply(id, .array([])) }
        let headings = Outline.headings(text, format)
        let lastLine = lastLineEnd(text)
        let language = self.language
        func symbol(_ h: Outline.Heading) -> DocumentSymbolRequest.Symbol {
            let (endLine, endCharacter) =
                h.endLine > lastLine.line ? (lastLine.line, lastLine.character) : (h.endLine, 0)
            return DocumentSymbolRequest.Symbol(
                name: h.title, detail: CountWords.wordsLabel(h.words, language), kind: h.isScene ? .event : .string,
                startLine: h.line, endLine: endLine, endCharacter: endCharacter, headingLength: h.lineLength,
                children: h.children.map(symbol))
        }
        let symbols = headings.map(symbol)
        reply(id) { w in
            w.beginArray()
            for s in symbols { s.write(to: &w) }
            w.endArray()
        }
    }

    func inlayHints(_ id: RequestID, _ p: InlayHintRequest.Params) {
        guard let (text, format) = documentText(p.uri) else { return reply(id, .array([])) }
        var hints: [JSONValue] = []
        var stack = Outline.headings(text, format)
        while let h = stack.popLast() {
            stack.append(contentsOf: h.children)
            guard h.line >= p.firstLine, h.line <= p.lastLine else { continue }
            let label = CountWords.wordsLabel(h.words, language)
            hints.append(InlayHintRequest.Hint(line: h.line, character: h.lineLength, label: label).json)
        }
        hints.sort { ($0["position"]?["line"]?.intValue ?? 0) < ($1["position"]?["line"]?.intValue ?? 0) }
        reply(id, .array(hints))
    }

    /// Asks the client to fetch inlay hints again, if it can be asked and
    /// is not being asked already.
    func refreshInlayHints() {
        guard inlayHintRefresh, !inlayHintRefreshPending, state == .running else { return }
        inlayHintRefreshPending = true
        request(InlayHintRefreshRequest.method) { [weak self] _ in self?.inlayHintRefreshPending = false }
    }

    private func lastLineEnd(_ text: [UInt8]) -> (line: Int, character: Int) {
        var line = 0
        var lastStart = 0
        for (i, c) in text.enumerated() where c == 0x0A {
            line += 1
            lastStart = i + 1
        }
        return (line, String(decoding: text[lastStart...], as: UTF8.self).utf16.count)
    }
}
