/// Renames or moves inside a library, as library paths, made together (a
/// client may announce several at once). A folder's move carries every path
/// below it.
public struct LinkMove: Equatable, Sendable {
    public struct Pair: Equatable, Sendable {
        public var from: [String]
        public var to: [String]
    }

    public var pairs: [Pair]

    public init(from: [String], to: [String]) { pairs = [Pair(from: from, to: to)] }

    public init(_ moves: [LinkMove]) { pairs = moves.flatMap(\.pairs) }

    /// Where `path` is after the moves, or nil when none carries it.
    public func map(_ path: [String]) -> [String]? {
        for p in pairs where path.count >= p.from.count && path.starts(with: p.from) {
            return p.to + path[p.from.count...]
        }
        return nil
    }
}

/// A replacement of the bytes `start..<end` of a text.
public struct TextEdit: Equatable, Sendable {
    public var start: Int
    public var end: Int
    public var newText: String

    public init(start: Int, end: Int, newText: String) {
        self.start = start
        self.end = end
        self.newText = newText
    }
}

/// What a move does to the links of one file: the edits that keep each link
/// naming what it named before. Markdown links are relative, so they change
/// when their target or their file moves. A wikilink names a file by name,
/// so it changes only when, after the move, it would name another file or
/// none (`WikiNames`).
public enum LinkRewrite {
    /// The edits to the text of the file that was at `file`, whose `links`
    /// were parsed from it. `before` and `after` resolve wikilinks among the
    /// library's files before and after the move. `resolved`, when given,
    /// holds each link's `LinkPath.resolve(target, from: file)`, as
    /// `resolvedTargets` gives it, kept from an earlier move.
    public static func edits(
        _ links: [Link], file: [String], move: LinkMove, before: WikiNames, after: WikiNames,
        resolved: [[String]?]? = nil
    ) -> [TextEdit] {
        let newFile = move.map(file) ?? file
        var out: [TextEdit] = []
        for (i, link) in links.enumerated() {
            if link.kind.isWiki {
                guard let target = before.resolve(link.target, from: file) else { continue }
                let expected = move.map(target) ?? target
                guard after.resolve(link.target, from: newFile) != expected else { continue }
                let withExtension =
                    NameRules.key(link.target.split(separator: "/").last.map(String.init) ?? "")
                    == NameRules.key(target.last ?? "")
                    && LinkPath.stem(target.last ?? "") != target.last
                let name = after.name(for: expected, from: newFile, withExtension: withExtension)
                out.append(TextEdit(start: link.start, end: link.end, newText: name))
            } else {
                let known = resolved.flatMap { i < $0.count ? $0[i] : nil }
                guard let target = known ?? LinkPath.resolve(link.target, from: file) else { continue }
                let expected = move.map(target) ?? target
                // A file that stays reads its links as before: only a moved target changes one.
                let now = newFile == file ? target : LinkPath.resolve(link.target, from: newFile)
                guard now != expected else { continue }
                var path = LinkPath.relative(from: newFile, to: expected)
                if link.target.hasPrefix("./"), !path.hasPrefix("../") { path = "./" + path }
                if link.target.hasSuffix("/") { path += "/" }
                out.append(
                    TextEdit(start: link.start, end: link.end, newText: LinkPath.encoded(path, angle: link.angle)))
            }
        }
        return out
    }

    /// Each Markdown link's target as a library path from `file` (nil for
    /// a wikilink or a target out of the library), for `edits`.
    public static func resolvedTargets(_ links: [Link], file: [String]) -> [[String]?] {
        links.map { $0.kind.isWiki ? nil : LinkPath.resolve($0.target, from: file) }
    }

    /// `text` with `edits` made (edits of distinct ranges, in any order).
    public static func apply(_ edits: [TextEdit], to text: [UInt8]) -> [UInt8] {
        var out = text
        for e in edits.sorted(by: { $0.start > $1.start }) {
            out.replaceSubrange(e.start..<e.end, with: Array(e.newText.utf8))
        }
        return out
    }
}
