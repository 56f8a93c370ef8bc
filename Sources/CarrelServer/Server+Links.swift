import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelWorkspace

/// Links, through standard LSP only, so stock clients use them unchanged:
/// go to a link's file, a file's backlinks, clickable links, and the edits
/// that keep links true when a client renames or moves files.
extension Server {
    /// A document of a library: its library, its library path and its text
    /// (the open buffer's, else the disk's).
    func linkDocument(_ uri: String) -> (library: Library, file: [String], text: [UInt8])? {
        guard let entry = libraryFile(uri), let library = workspace.library(of: entry),
            let file = workspace.libraryPath(of: entry, in: library), let (text, _) = documentText(uri)
        else { return nil }
        return (library, file, text)
    }

    /// The link under the cursor, if any.
    func link(at p: TextDocumentPosition) -> (library: Library, file: [String], link: Link)? {
        guard let doc = linkDocument(p.uri),
            let offset = TextLines(doc.text).offset(line: p.line, character: p.character)
        else { return nil }
        guard let link = Links.parse(doc.text).first(where: { $0.linkStart <= offset && offset < $0.linkEnd }) else {
            return nil
        }
        return (doc.library, doc.file, link)
    }

    /// Where a link leads, when that is an item of its library.
    func destination(of link: Link, from file: [String], in library: Library) -> [String]? {
        let path =
            link.kind.isWiki
            ? workspace.wikiNames(library).resolve(link.target, from: file) : LinkPath.resolve(link.target, from: file)
        guard let path, workspace.entry(at: path, in: library) != nil else { return nil }
        return path
    }

    func uri(_ path: [String], in library: Library) -> String {
        FileURI.uri(workspace.absolutePath(path, in: library))
    }

    func definition(_ id: RequestID, _ p: TextDocumentPosition) {
        guard let (library, file, link) = link(at: p), let target = destination(of: link, from: file, in: library)
        else { return reply(id, .null) }
        reply(id, TextDocumentPosition.location(uri: uri(target, in: library), line: 0, start: 0, end: 0))
    }

    func references(_ id: RequestID, _ p: TextDocumentPosition) {
        var target: (Library, [String])?
        if let (library, file, link) = link(at: p) {
            target = destination(of: link, from: file, in: library).map { (library, $0) }
        } else if let doc = linkDocument(p.uri) {
            target = (doc.library, doc.file)
        }
        guard let (library, path) = target else { return reply(id, .array([])) }
        let locations = workspace.backlinks(to: path, in: library).map { b in
            TextDocumentPosition.location(
                uri: uri(b.file, in: library), line: Int(b.link.line), start: Int(b.link.startCharacter),
                end: Int(b.link.endCharacter))
        }
        reply(id, .array(locations))
    }

    func documentLinks(_ id: RequestID, _ p: DocumentLinkRequest.Params) {
        guard let doc = linkDocument(p.uri) else { return reply(id, .array([])) }
        let lines = TextLines(doc.text)
        var out: [JSONValue] = []
        for link in Links.parse(doc.text) {
            guard let target = destination(of: link, from: doc.file, in: doc.library) else { continue }
            let a = lines.position(link.start)
            let b = lines.position(link.end)
            out.append([
                "range": TextDocumentPosition.range(line: a.line, start: a.character, end: b.character),
                "target": .string(uri(target, in: doc.library)),
            ])
        }
        reply(id, .array(out))
    }

    /// The edits, never made here: the client applies them before it renames.
    func willRenameFiles(_ id: RequestID, _ p: WillRenameFilesRequest.Params) {
        finishScan()
        catchUpWithDisk()
        var moves: [ObjectIdentifier: (library: Library, moves: [LinkMove])] = [:]
        for (oldUri, newUri) in p.files {
            guard let (library, move) = linkMove(from: oldUri, to: newUri) else { continue }
            moves[ObjectIdentifier(library), default: (library, [])].moves.append(move)
        }
        var changes: [(uri: String, edits: [WillRenameFilesRequest.TextEdit])] = []
        var size = 64
        for (library, list) in moves.values {
            let open = openDocuments(in: library)
            for fix in workspace.linkEdits(for: LinkMove(list), in: library, text: { open[$0]?.text }) {
                let edits = fix.ranges.map { r in
                    WillRenameFilesRequest.TextEdit(
                        startLine: r.startLine, startCharacter: r.startCharacter, endLine: r.endLine,
                        endCharacter: r.endCharacter, newText: r.newText)
                }
                let fileURI = open[fix.file]?.uri ?? uri(fix.file, in: library)
                size += fileURI.utf8.count + edits.reduce(0) { $0 + 96 + $1.newText.utf8.count }
                changes.append((fileURI, edits))
            }
        }
        // Written straight to bytes: a rename's answer holds an object of four for each link.
        reply(id, capacity: size) { WillRenameFilesRequest.write(changes, to: &$0) }
    }

    /// A rename or move from one URI to another of the same library, as library paths.
    func linkMove(from oldUri: String, to newUri: String) -> (Library, LinkMove)? {
        guard let old = try? target(oldUri), case .entry(let entry, let library) = old,
            let from = workspace.libraryPath(of: entry, in: library), !from.isEmpty,
            var newPath = try? FileURI.path(newUri)
        else { return nil }
        while newPath.count > 1, newPath.last == UInt8(ascii: "/") { newPath.removeLast() }
        guard let slash = newPath.lastIndex(of: UInt8(ascii: "/")), slash + 1 < newPath.count else { return nil }
        let name = EntryName(bytes: newPath[(slash + 1)...]).string
        let parentPath = slash == 0 ? [UInt8(ascii: "/")] : Array(newPath[..<slash])
        guard let parent = try? workspace.locate(parentPath, uri: newUri), case .entry(let folder, let lib) = parent,
            lib === library, folder.isDirectory, let to = workspace.libraryPath(of: folder, in: library)
        else { return nil }
        return (library, LinkMove(from: from, to: to + [name]))
    }

    /// The open buffers of `library`, by library path, with the URI the client uses.
    func openDocuments(in library: Library) -> [[String]: (uri: String, text: [UInt8])] {
        var out: [[String]: (uri: String, text: [UInt8])] = [:]
        for (uri, doc) in documents {
            guard let e = libraryFile(uri), workspace.library(of: e) === library,
                let path = workspace.libraryPath(of: e, in: library)
            else { continue }
            out[path] = (uri, doc.text)
        }
        return out
    }
}

/// Broken links as diagnostics, for open buffers: sent on open and on each
/// change, cleared on close. Only links into the library are checked.
extension Server {
    func publishLinkDiagnostics(_ uri: String) {
        guard let name = libraryFile(uri)?.name.string, WordCount.Format(fileName: name) != .plain,
            let doc = linkDocument(uri)
        else { return }
        let lines = TextLines(doc.text)
        let wiki = workspace.wikiNames(doc.library)
        var diagnostics: [JSONValue] = []
        for link in Links.parse(doc.text) {
            let path =
                link.kind.isWiki
                ? wiki.resolve(link.target, from: doc.file) : LinkPath.resolve(link.target, from: doc.file)
            if link.kind.isWiki ? path != nil : path.map({ workspace.entry(at: $0, in: doc.library) != nil }) ?? true {
                continue
            }
            let a = lines.position(link.start)
            let b = lines.position(link.end)
            diagnostics.append([
                "range": TextDocumentPosition.range(line: a.line, start: a.character, end: b.character),
                "severity": 2, "source": "carrel",
                "message": .string(Message.brokenLink(target: link.target).text(language)),
            ])
        }
        sendDiagnostics(uri, diagnostics)
    }

    func sendDiagnostics(_ uri: String, _ diagnostics: [JSONValue]) {
        send(
            Envelope.notification(
                "textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": .array(diagnostics)]))
    }
}
