/// Paths inside a library, as links spell them: components from the
/// library's folder (`["Novel", "Characters", "Ada.md"]`).
public enum LinkPath {
    /// Where a Markdown link's `target` leads from the file at `file`, or nil
    /// when `..` climbs out of the library (such a link leaves the library
    /// and is never rewritten or reported).
    public static func resolve(_ target: String, from file: [String]) -> [String]? {
        resolve(target, inFolder: Array(file.dropLast()))
    }

    /// As `resolve(_:from:)`, for a file in `folder` (its library path).
    public static func resolve(_ target: String, inFolder folder: [String]) -> [String]? {
        var out = folder
        for part in target.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !out.isEmpty else { return nil }
                out.removeLast()
            default: out.append(String(part))
            }
        }
        return out.isEmpty ? nil : out
    }

    /// The relative path from the file at `file` to `target`.
    public static func relative(from file: [String], to target: [String]) -> String {
        let folder = file.dropLast()
        var common = 0
        while common < folder.count, common < target.count - 1, folder[folder.startIndex + common] == target[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: folder.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }

    /// `%XX` decoded to bytes, read as UTF-8 (an invalid sequence becomes
    /// U+FFFD and then names no file). A `%` without two hex digits stays.
    public static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let h = hex(bytes[i + 1]),
                let l = hex(bytes[i + 2])
            {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A path written into a Markdown destination: what would end it or
    /// change its meaning is percent-encoded (inside `<…>` spaces may stay).
    public static func encoded(_ path: String, angle: Bool) -> String {
        var out: [UInt8] = []
        for b in path.utf8 {
            let escape: Bool
            switch b {
            case UInt8(ascii: " "): escape = !angle
            case UInt8(ascii: "("), UInt8(ascii: ")"): escape = !angle
            case UInt8(ascii: "%"), UInt8(ascii: "#"), UInt8(ascii: "?"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "\\"):
                escape = true
            default: escape = b < 0x20 || b == 0x7F
            }
            if escape {
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(b >> 4)])
                out.append(digits[Int(b & 0xF)])
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let digits = Array("0123456789ABCDEF".utf8)

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The name without its last extension (`Ada.md` → `Ada`).
    public static func stem(_ name: String) -> String {
        guard NameRules.fileExtension(name) != nil, let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }
}

/// Which file a wikilink names. The rule: a name is a file's name without
/// its extension (or with it), compared case-insensitively (`NameRules.key`:
/// NFC, case-folded). A name with `/` is a path: first from the library's
/// folder, else the end of a longer path. Of several files that fit, the
/// nearest to the linking file wins: fewest steps up and down between their
/// folders, then the shortest path, then the first path in byte order, so
/// every machine resolves a link the same way.
public struct WikiNames: Sendable {
    /// A file a name may mean: its folder's path, one copy shared by every
    /// file of the folder when added by `add(_:in:)`, and its name. A
    /// library's 100,000 paths each held whole would cost some 11 MB.
    struct File: Hashable, Sendable {
        var folder: [String]
        var name: String

        init(_ name: String, in folder: [String]) {
            self.folder = folder
            self.name = name
        }

        init?(_ path: [String]) {
            guard let name = path.last else { return nil }
            self.init(name, in: Array(path.dropLast()))
        }

        var path: [String] { folder + [name] }

        func starts(with prefix: [String]) -> Bool {
            prefix.count <= folder.count ? folder.starts(with: prefix) : prefix == path
        }
    }

    private var byKey: [String: [File]] = [:]
    /// Files a move took out and put in (`moved`), seen through by look-ups
    /// while `byKey`, shared with the table before the move, stays as it was.
    private var hidden: Set<File> = []
    private var extra: [String: [File]] = [:]

    /// `files`: every file a wikilink may name, as library paths.
    public init(files: [[String]]) {
        for f in files { add(f) }
    }

    public mutating func add(_ file: [String]) {
        guard let f = File(file) else { return }
        Self.insert(f, into: &byKey)
    }

    /// Adds the file `name` in the folder at `folder`; pass one array for
    /// a folder's files, so they share it.
    public mutating func add(_ name: String, in folder: [String]) {
        Self.insert(File(name, in: folder), into: &byKey)
    }

    private static func insert(_ f: File, into table: inout [String: [File]]) {
        let stem = NameRules.key(LinkPath.stem(f.name))
        table[stem, default: []].append(f)
        let full = NameRules.key(f.name)
        if full != stem { table[full, default: []].append(f) }
    }

    /// The table after a move: `removed` gone and `added` there, for
    /// look-ups only. Made without copying the table, so a move's cost
    /// follows the files it moves, not the library's size.
    public func moved(removing removed: [[String]], adding added: [[String]]) -> WikiNames {
        var out = self
        out.hidden.formUnion(removed.compactMap(File.init))
        for file in added {
            guard let f = File(file) else { continue }
            Self.insert(f, into: &out.extra)
        }
        return out
    }

    private func candidates(_ key: String) -> [File] {
        let base = byKey[key] ?? []
        if hidden.isEmpty, extra.isEmpty { return base }
        return base.filter { !hidden.contains($0) } + (extra[key] ?? [])
    }

    /// Forgets the file at `file`; false when it was not there.
    @discardableResult
    public mutating func remove(_ file: [String]) -> Bool {
        guard let f = File(file) else { return false }
        var found = false
        for key in Set([NameRules.key(LinkPath.stem(f.name)), NameRules.key(f.name)]) {
            guard let list = byKey[key], list.contains(f) else { continue }
            found = true
            let kept = list.filter { $0 != f }
            byKey[key] = kept.isEmpty ? nil : kept
        }
        return found
    }

    /// Forgets the file at `path`, or, when no file is there, every file
    /// below it (a folder's, which costs a look at every name).
    public mutating func remove(under path: [String]) {
        if remove(path) { return }
        byKey = byKey.compactMapValues { list in
            let kept = list.filter { !$0.starts(with: path) }
            return kept.isEmpty ? nil : kept
        }
    }

    /// The file `name` names from the file at `from`, or nil.
    public func resolve(_ name: String, from: [String]) -> [String]? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = parts.last else { return nil }
        let candidates = candidates(NameRules.key(last))
        guard !candidates.isEmpty else { return nil }
        let folders = parts.dropLast().map(NameRules.key)
        func fits(_ c: File, exact: Bool) -> Bool {
            let above = c.folder
            if exact {
                return above.count == folders.count && zip(above, folders).allSatisfy { NameRules.key($0) == $1 }
            }
            return above.count >= folders.count
                && zip(above.suffix(folders.count), folders).allSatisfy { NameRules.key($0) == $1 }
        }
        if !folders.isEmpty, let exact = candidates.filter({ fits($0, exact: true) }).min(by: Self.before) {
            return exact.path
        }
        let folder = from.dropLast()
        func distance(_ c: File) -> Int {
            var common = 0
            while common < folder.count, common < c.folder.count,
                folder[folder.startIndex + common] == c.folder[common]
            {
                common += 1
            }
            return (folder.count - common) + (c.folder.count - common)
        }
        return candidates.filter { fits($0, exact: false) }.min { a, b in
            let (da, db) = (distance(a), distance(b))
            return da != db ? da < db : Self.before(a, b)
        }?.path
    }

    private static func before(_ a: File, _ b: File) -> Bool {
        a.folder.count != b.folder.count
            ? a.folder.count < b.folder.count
            : Array(a.path.joined(separator: "/").utf8).lexicographicallyPrecedes(
                b.path.joined(separator: "/").utf8)
    }

    /// The shortest name that names `file` from `from`: its name without
    /// extension (with it, when `withExtension`), else its path from the library.
    public func name(for file: [String], from: [String], withExtension: Bool) -> String {
        let last = file.last ?? ""
        let short = withExtension ? last : LinkPath.stem(last)
        if resolve(short, from: from) == file { return short }
        return (file.dropLast() + [short]).joined(separator: "/")
    }
}
