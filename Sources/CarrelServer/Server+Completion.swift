import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// Completing `[[` and `](` with the library's files, so a writer links
/// without typing a path; anywhere else, nothing.
extension Server {
    func completion(_ id: RequestID, _ p: TextDocumentPosition) {
        guard let doc = linkDocument(p.uri), let name = doc.file.last, WordCount.Format(fileName: name) != .plain,
            let cursor = TextLines(doc.text).offset(line: p.line, character: p.character)
        else { return reply(id, .array([])) }
        var lineStart = cursor
        while lineStart > 0, doc.text[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        let line = doc.text[lineStart..<cursor]
        guard let context = LinkCompletion.context(line) else { return reply(id, .array([])) }
        finishScan()
        let typed = String(decoding: doc.text[context.start..<cursor], as: UTF8.self)
        let found = LinkCompletion.candidates(
            context.kind, typed: typed, angle: context.angle, from: doc.file,
            files: workspace.linkableFiles(doc.library), names: workspace.wikiNames(doc.library))
        let start = String(decoding: doc.text[lineStart..<context.start], as: UTF8.self).utf16.count
        let end = start + typed.utf16.count
        let items = found.enumerated().map { rank, c in
            CompletionRequest.item(
                label: c.text, detail: c.path.joined(separator: "/"), line: p.line, start: start, end: end, rank: rank)
        }
        reply(id, .array(items))
    }
}
