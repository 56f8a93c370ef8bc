import CarrelClient
import CarrelJSON
import Foundation
import Glibc

/// Files that link each other, and renames and moves answered "Update
/// Links". A file's text is its content line, then one Markdown link per
/// line, `[#N](path)`, naming the content it leads to, so a link can be
/// checked against the disk alone: it resolves when its path, from its
/// file's folder, reaches a file holding content N.
extension Torture {
    /// One link of a file as the disk has it.
    struct LinkKey: Hashable {
        let source: Int
        let target: Int
    }

    struct LinkState {
        var resolves = true
        var paths = Set<String>()
    }

    /// The content line and the links after it; nil when a later line is not a link.
    static func split(_ text: String) -> (content: String, links: [(target: Int, path: String)])? {
        guard text.hasPrefix("torture:"), let end = text.firstIndex(of: "\n") else { return (text, []) }
        let content = String(text[...end])
        var links: [(target: Int, path: String)] = []
        for line in text[text.index(after: end)...].split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        {
            guard line.hasPrefix("[#"), line.hasSuffix(")"), let close = line.range(of: "]("),
                let target = Int(line[line.index(line.startIndex, offsetBy: 2)..<close.lowerBound])
            else { return nil }
            links.append((target: target, path: String(line[close.upperBound..<line.index(before: line.endIndex)])))
        }
        guard text.hasSuffix("\n") else { return nil }
        return (content, links)
    }

    static func contentID(_ content: String) -> Int? {
        content.split(separator: ":").dropFirst().first.flatMap { Int($0) }
    }

    /// The tracked content of a file's text (its first line), or the text itself.
    func content(of bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return Self.split(text)?.content ?? text
    }

    /// Where `path`, written in the file at `from`, leads in the library (nil: out of it).
    static func resolve(_ path: String, from: String) -> String? {
        var parts = from.split(separator: "/").map(String.init).dropLast()
        let decoded = path.removingPercentEncoding ?? path
        for part in decoded.split(separator: "/") {
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else if part != "." {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    /// The path from the file at `from` to `to`, as a writer would type it.
    static func relative(_ to: String, from: String) -> String {
        let a = from.split(separator: "/").dropLast()
        let b = to.split(separator: "/")
        var common = 0
        while common < a.count, common < b.count - 1, a[a.startIndex + common] == b[common] { common += 1 }
        let up = Array(repeating: "..", count: a.count - common)
        return (up + b[common...].map(String.init)).joined(separator: "/")
            .replacingOccurrences(of: " ", with: "%20")
    }

    /// Links to add to a new file at `rel`: to one to three contents in view.
    func newLinks(from rel: String) -> String {
        guard chance(0.6) else { return "" }
        let files = view().movable.filter { !$0.isDir && $0.rel.hasSuffix(".md") }
        var out = ""
        for _ in 0..<(1 + random(3)) {
            guard let t = pick(files), let bytes = Disk.read(lib + "/" + t.rel),
                let id = Self.contentID(content(of: bytes))
            else { continue }
            out += "[#\(id)](\(Self.relative(t.rel, from: rel)))\n"
        }
        return out
    }

    /// Contents in view: not in a Trash, the system trash or a purge, nor gone.
    func contentsInView() -> [Int: [String]] {
        var out: [Int: [String]] = [:]
        for n in Disk.walk(lib, includeHidden: false) where !n.isDir && !n.isLink {
            let parts = n.rel.split(separator: "/")
            if parts.count > 1, parts[1] == "Trash", projectType(String(parts[0])) != nil { continue }
            guard let bytes = Disk.read(lib + "/" + n.rel), let id = Self.contentID(content(of: bytes)) else {
                continue
            }
            out[id, default: []].append(n.rel)
        }
        return out
    }

    /// Every link of every file in view, by source and target content.
    func linkStates() -> (links: [LinkKey: LinkState], inView: [Int: [String]]) {
        let inView = contentsInView()
        var out: [LinkKey: LinkState] = [:]
        for (source, places) in inView {
            for place in places {
                guard let bytes = Disk.read(lib + "/" + place),
                    let split = Self.split(String(decoding: bytes, as: UTF8.self))
                else { continue }
                for l in split.links {
                    let key = LinkKey(source: source, target: l.target)
                    var s = out[key] ?? LinkState()
                    s.paths.insert(l.path)
                    let at = Self.resolve(l.path, from: place)
                    if at == nil || !(inView[l.target] ?? []).contains(at!) { s.resolves = false }
                    out[key] = s
                }
            }
        }
        return (out, inView)
    }

    /// A link the harness itself left dangling: one end was ever out of
    /// view (the Trash, deleted, or one of its copies so), and no move's
    /// update follows it there.
    func noteLinksOutOfView(_ inView: [Int: [String]]) {
        // Every place, hidden and trashed ones too: a content copied, one
        // copy of which went to a Trash, has links to that copy's old place.
        var places: [Int: Int] = [:]
        for base in [lib, dataHome + "/Trash/files"] {
            // A snapshot is a copy of a text, never a place a link leads to.
            for n in Disk.walk(base, includeHidden: true) where !n.isDir && !n.isLink {
                if n.rel.contains("/" + Self.snapshotsFolder + "/") { continue }
                guard let bytes = Disk.read(base + "/" + n.rel), let id = Self.contentID(content(of: bytes)) else {
                    continue
                }
                places[id, default: 0] += 1
            }
        }
        for (c, s) in contents {
            guard let id = Self.contentID(c) else { continue }
            if s != .alive || inView[id] == nil || places[id] != inView[id]?.count { linksOutOfView.insert(id) }
        }
    }

    /// After a restart: every link resolves, but those the harness left
    /// dangling. A move killed before its update was reported left all its
    /// links old or all new, never some of each: those it left old are the
    /// harness's (it never saw the update happen).
    /// Contents an undo or redo moved: links from and to them may dangle.
    func noteUndoneMoves() {
        guard let before = placesBeforeUndo else { return }
        placesBeforeUndo = nil
        let now = contentsInView()
        for id in Set(before.keys).union(now.keys) where before[id]?.sorted() != now[id]?.sorted() {
            linksOutOfView.insert(id)
        }
    }

    func checkLinks(phase: String) {
        guard opts.servers == 1 else { return checkLinksOfTwo(phase: phase) }
        noteUndoneMoves()
        let now = linkStates()
        noteLinksOutOfView(now.inView)
        if let before = interruptedLinks {
            interruptedLinks = nil
            moveFinished = true
            let rewritten = now.links.filter { link in
                before.links[link.key].map { $0.paths != link.value.paths } ?? false
            }
            let broken = now.links.filter { !$0.value.resolves && before.links[$0.key]?.resolves == true }
                .filter { !linksOutOfView.contains($0.key.source) && !linksOutOfView.contains($0.key.target) }
            if !rewritten.isEmpty && !broken.isEmpty {
                violation(
                    "\(phase): a move's link update was left half done: rewritten \(rewritten.keys.map { "#\($0.source)→#\($0.target)" }.sorted()), still old \(broken.keys.map { "#\($0.source)→#\($0.target)" }.sorted())"
                )
            }
            linksLeftDangling.formUnion(broken.keys)
        }
        for (key, s) in now.links where !s.resolves {
            if linksOutOfView.contains(key.source) || linksOutOfView.contains(key.target) { continue }
            if linksLeftDangling.contains(key) { continue }
            violation(
                "\(phase): the link from #\(key.source) to #\(key.target) (\(s.paths.sorted())) does not resolve, and no move the harness left unanswered explains it"
            )
        }
    }

    /// Answers the link question "Update Links" (and confirmations "Delete",
    /// as the default client does), and notes the report that ends an update.
    final class LinkAnswers: @unchecked Sendable {
        private let lock = NSCondition()
        private var asked = 0
        private var reported = 0

        func handler(_ process: ServerProcess) -> @Sendable (JSONValue) -> Void {
            { [weak process, self] m in
                guard let method = m["method"]?.stringValue else { return }
                if let id = m["id"] {
                    let actions = m["params"]?["actions"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
                    let update = actions.contains("Update Links")
                    if update { bump(\.asked) }
                    process?.send([
                        "jsonrpc": "2.0", "id": id, "result": ["title": .string(update ? "Update Links" : "Delete")],
                    ])
                } else if method == "window/showMessage",
                    let text = m["params"]?["message"]?.stringValue,
                    text.hasPrefix("Updated ") || text.hasPrefix("The links in ")
                {
                    bump(\.reported)
                }
            }
        }

        private func bump(_ key: ReferenceWritableKeyPath<LinkAnswers, Int>) {
            lock.lock()
            self[keyPath: key] += 1
            lock.broadcast()
            lock.unlock()
        }

        var counts: (asked: Int, reported: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (asked, reported)
        }

        /// Waits until every question asked has its report, or the server is gone.
        func waitReported(_ server: LanguageClient) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            while reported < asked {
                if server.isDead { return false }
                _ = lock.wait(until: Date().addingTimeInterval(0.05))
            }
            return true
        }
    }

    /// After a rename or move: a request behind it, so any question it
    /// asked has been answered, then the update's report. Nil when the
    /// server died meanwhile.
    func followLinkUpdate(_ run: Run) -> Bool {
        let server = run.server
        run.killer.pending = "linkUpdate"
        let id = server.request("workspace/symbol", ["query": "~"])
        guard server.response(id) != nil, run.answers.waitReported(server) else { return false }
        if run.answers.counts.asked > run.questionsSeen {
            run.questionsSeen = run.answers.counts.asked
            state.lock()
            linkUpdates += 1
            state.unlock()
        }
        return true
    }
}
