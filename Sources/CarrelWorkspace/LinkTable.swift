import CarrelModel

/// A library's indexed links, by linking file, with what finds a move's
/// linking files without visiting every file: the files linking to each
/// Markdown target, and the files holding a wikilink under each name (the
/// key of its last part, as `WikiNames` looks it up). Every change goes
/// through `set`, so the three always agree.
struct LinkTable {
    /// Only files holding a link.
    private(set) var files: [[String]: [IndexedLink]] = [:]
    /// Markdown targets (library paths) → the files linking there.
    private(set) var inbound: [[String]: LinkingFiles] = [:]
    /// `NameRules.key` of a wikilink's last part → the files holding one.
    private(set) var wikiRefs: [String: Set<[String]>] = [:]
    /// How many Markdown targets lie strictly below each path, by the
    /// path's hash: a move of a path with none below (a file, nearly
    /// always) takes its linking files from `inbound` at once, without a
    /// look at every target. Hashes that collide only cost that look.
    private var targetsBelow: [Int: Int] = [:]
    /// How many files of `files` lie strictly below each path, by the
    /// path's hash: a removed path the table does not hold (a file without
    /// links, or a folder without linking files, nearly always) is let go
    /// of without a look at every file. Hashes that collide only cost that look.
    private var filesBelow: [Int: Int] = [:]
    /// How many linking files `remove(under:)` has looked at past a path's
    /// own entry, for tests: a folder's removal looks at each.
    private(set) var removalLooks = 0
    /// How many files each folder holds here, by the folder's path hash:
    /// a count's file without links, in a folder holding none (most), is
    /// not looked for. Hashes that collide only cost that look.
    private var heldIn: [Int: Int] = [:]

    init() {}

    init(files: [[String]: [IndexedLink]]) {
        for (file, links) in files { set(file, links) }
    }

    subscript(file: [String]) -> [IndexedLink]? { files[file] }

    /// Sets (or, nil, forgets) the links of `file`. A file without links
    /// is not kept: most files hold none, and their paths would cost more
    /// than every link.
    mutating func set(_ file: [String], _ given: [IndexedLink]?) {
        let links = given?.isEmpty == true ? nil : given
        // One look into the table: a counted file without links, which
        // most are, is only looked for.
        let old = if let links { files.updateValue(links, forKey: file) } else { files.removeValue(forKey: file) }
        if (old == nil) != (links == nil) {
            countHeld(in: file, by: links == nil ? -1 : 1)
            countFilesBelow(file, by: links == nil ? -1 : 1)
        }
        if let old {
            for l in old {
                if let t = l.resolved {
                    if inbound[t]?.remove(file) == true {
                        inbound.removeValue(forKey: t)
                        countBelow(t, by: -1)
                    }
                } else if l.kind.isWiki {
                    let key = Self.wikiKey(l.name)
                    wikiRefs[key]?.remove(file)
                    if wikiRefs[key]?.isEmpty == true { wikiRefs.removeValue(forKey: key) }
                }
            }
        }
        for l in links ?? [] {
            if let t = l.resolved {
                if inbound[t] == nil {
                    countBelow(t, by: 1)
                    inbound[t] = .one(file)
                } else {
                    inbound[t]?.insert(file)
                }
            } else if l.kind.isWiki {
                wikiRefs[Self.wikiKey(l.name), default: []].insert(file)
            }
        }
    }

    /// Forgets `path` and every file below it, and gives back what they
    /// held. A file's own path (`isFile`, or indexed) is found at once, and
    /// so is a path with no linking file below it; only a folder holding
    /// some costs a look at every file.
    @discardableResult
    mutating func remove(under path: [String], isFile: Bool = false) -> [[String]: [IndexedLink]] {
        if let links = files[path] {
            set(path, nil)
            return [path: links]
        }
        if isFile || filesBelow[Self.pathHash(path[...])] == nil { return [:] }
        var removed: [[String]: [IndexedLink]] = [:]
        removalLooks += files.count
        for (key, links) in files where key.starts(with: path) {
            removed[key] = links
            set(key, nil)
        }
        return removed
    }

    /// The files that may hold a link a move of `paths` (and below) or of
    /// files named by `keys` changes: those linking into the paths, and
    /// those with a wikilink under one of the names.
    func linkingFiles(into paths: [[String]], names keys: Set<String>) -> Set<[String]> {
        var out = Set<[String]>()
        for path in paths { inbound[path]?.add(to: &out) }
        let holding = paths.filter { targetsBelow[Self.pathHash($0[...])] != nil }
        if !holding.isEmpty {
            for (target, from) in inbound
            where holding.contains(where: { target.count > $0.count && target.starts(with: $0) }) {
                from.add(to: &out)
            }
        }
        for key in keys { out.formUnion(wikiRefs[key] ?? []) }
        return out
    }

    /// Whether the folder whose path has hash `folder` (`pathHash`) may
    /// hold a file here: false is certain.
    func mayHold(inFolder folder: Int) -> Bool { heldIn[folder] != nil }

    private mutating func countHeld(in file: [String], by delta: Int) {
        let key = Self.pathHash(file.dropLast())
        let n = (heldIn[key] ?? 0) + delta
        heldIn[key] = n > 0 ? n : nil
    }

    /// Counts `target` in (or, -1, out of) each path above it.
    private mutating func countBelow(_ target: [String], by delta: Int) {
        for end in target.indices.dropFirst() {
            let key = Self.pathHash(target[..<end])
            let n = (targetsBelow[key] ?? 0) + delta
            targetsBelow[key] = n > 0 ? n : nil
        }
    }

    /// Counts `file` in (or, -1, out of) each folder above it, hashing
    /// each part once: the hash of a path is its parts' in turn, so each
    /// folder's is a copy of the hasher taken on the way down.
    private mutating func countFilesBelow(_ file: [String], by delta: Int) {
        var hasher = Hasher()
        for part in file.dropLast() {
            hasher.combine(part)
            let key = hasher.finalize()
            let n = (filesBelow[key] ?? 0) + delta
            filesBelow[key] = n > 0 ? n : nil
        }
    }

    static func pathHash(_ path: ArraySlice<String>) -> Int {
        var h = Hasher()
        for part in path { h.combine(part) }
        return h.finalize()
    }

    static func wikiKey(_ name: String) -> String {
        NameRules.key(name.split(separator: "/").last.map(String.init) ?? "")
    }
}

/// The files linking to one target: nearly always one, held without the
/// table a set allocates (some 100 bytes for each of 20,000 targets).
/// One file is always `one`, so equal sets of files compare equal.
enum LinkingFiles: Equatable {
    case one([String])
    case many(Set<[String]>)

    mutating func insert(_ file: [String]) {
        switch self {
        case .one(let only): if only != file { self = .many([only, file]) }
        case .many(var files):
            // Let go of its own copy first, so the set is changed in place.
            self = .one([])
            files.insert(file)
            self = .many(files)
        }
    }

    /// Takes `file` out; true when none is left.
    mutating func remove(_ file: [String]) -> Bool {
        switch self {
        case .one(let only): return only == file
        case .many(var files):
            self = .one([])
            files.remove(file)
            if files.count == 1, let last = files.first {
                self = .one(last)
            } else {
                self = .many(files)
            }
            return files.isEmpty
        }
    }

    func add(to out: inout Set<[String]>) {
        switch self {
        case .one(let only): out.insert(only)
        case .many(let files): out.formUnion(files)
        }
    }
}
