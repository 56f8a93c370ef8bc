import Glibc

/// Word counts of a library's files by device and inode, with each
/// Markdown or Fountain file's links, kept in the user's state folder
/// (`words/library-<FNV-1a of the real path>.counts`) so a restart reads
/// only what changed, for its words and for the link index. A count is used only while the file's
/// size and modification time (in ns) are those it was counted at. Keyed
/// by inode, not path: a rename keeps its count, and 100,000 records cost
/// a few megabytes, not one path each.
///
/// The file is untrusted when read: a bad or truncated one is ignored and
/// counting starts over. It is written, a piece at a time, to a temporary file, synced,
/// then renamed over the old one, so a crash leaves the old or the new.
public struct WordCache: Sendable {
    public struct Record: Sendable, Equatable {
        public var stamp: FileStamp
        public var words: Int32
        /// Where the record stands in a first count (`found`), which marks
        /// the loaded cache in place rather than copying it: at 100,000
        /// files a copy was 17 MB. It sits in the padding after `words`.
        public var mark: Mark
        /// Nil: not kept (not a file links are read from, or a cache of version 1).
        public var links: [CachedLink]?
        public init(stamp: FileStamp, words: Int32, links: [CachedLink]? = nil, mark: Mark = .counted) {
            self.stamp = stamp
            self.words = words
            self.mark = mark
            self.links = links
        }

        /// Records are alike by what they say of a file, whatever their mark.
        public static func == (a: Record, b: Record) -> Bool {
            a.stamp == b.stamp && a.words == b.words && a.links == b.links
        }
    }

    public enum Mark: UInt8, Sendable {
        /// As the cache file had it; no count has found the file since.
        case loaded
        /// A count found the file unchanged since the cache was written.
        case found
        /// Counted from the file's text.
        case counted
    }

    public struct Key: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public init(_ stamp: FileStamp) {
            device = stamp.device
            inode = stamp.inode
        }
    }

    public var records: [Key: Record] = [:]
    public var isEmpty: Bool { records.isEmpty }

    /// The cached words of a file with this stamp, if it is unchanged.
    public func words(_ stamp: FileStamp) -> Int32? { record(stamp)?.words }

    /// The cached record of a file with this stamp, if it is unchanged.
    public func record(_ stamp: FileStamp) -> Record? {
        guard let r = records[Key(stamp)], r.stamp == stamp else { return nil }
        return r
    }

    public mutating func note(_ stamp: FileStamp, words: Int32, links: [CachedLink]? = nil) {
        records[Key(stamp)] = Record(stamp: stamp, words: words, links: links)
    }

    /// The record the cache file had for a file with this stamp, unchanged
    /// (none once the file was counted again): what a first count takes.
    public func loaded(_ stamp: FileStamp) -> Record? {
        guard let r = record(stamp), r.mark != .counted else { return nil }
        return r
    }

    /// Marks the loaded record of this stamp found, so it is written again.
    public mutating func markFound(_ stamp: FileStamp) {
        let key = Key(stamp)
        if records[key]?.mark == .loaded { records[key]?.mark = .found }
    }

    /// Whether some record loaded was never found by a count: its file is
    /// gone or changed.
    public var hasUnfound: Bool { records.values.contains { $0.mark == .loaded } }
    public init() {}

    static let magic = Array("carrel-words 2\n".utf8)
    /// Counts without links, read as such: the links are read on first need.
    static let magicWithoutLinks = Array("carrel-words 1\n".utf8)
    static let folderName = Array("words".utf8)
    /// 100,000 files with long names stay far below it.
    static let maxFileSize = 64 << 20
    static let recordSize = 36
    /// What the cache is written in at a time: a few thousand records.
    static let pieceBytes = 256 << 10

    /// The cache of `library`, or an empty one.
    public static func load(for library: [UInt8]) -> WordCache {
        guard let folder = folder(), let dir = try? Directory.open(folder),
            let bytes = try? dir.readPlainFile(fileName(library), limit: maxFileSize)
        else { return WordCache() }
        return decode(bytes) ?? WordCache()
    }

    /// Records of device, inode, size, mtime (8 bytes each), words (4)
    /// and, since version 2, the links (`CachedLink.encode`), little-endian.
    /// Anything out of place rejects the whole file.
    static func decode(_ bytes: [UInt8]) -> WordCache? {
        guard bytes.count >= magic.count else { return nil }
        let head = Array(bytes[0..<magic.count])
        guard head == magic || head == magicWithoutLinks else { return nil }
        var reader = CacheReader(bytes: bytes, at: magic.count)
        var cache = WordCache()
        cache.records.reserveCapacity((bytes.count - magic.count) / (head == magic ? recordSize + 4 : recordSize))
        while !reader.atEnd {
            guard let device = reader.integer(8), let inode = reader.integer(8), let size = reader.integer(8),
                let mtime = reader.integer(8), let words = reader.integer(4), words <= UInt64(Int32.max)
            else { return nil }
            var links: [CachedLink]?
            if head == magic {
                guard let read = CachedLink.decode(&reader) else { return nil }
                links = read
            }
            let stamp = FileStamp(device: device, inode: inode, size: size, modifiedNs: Int64(bitPattern: mtime))
            cache.records[Key(stamp)] = Record(stamp: stamp, words: Int32(words), links: links, mark: .loaded)
        }
        return cache
    }

    /// The encoding, handed to `write` in pieces of about `pieceBytes`
    /// (each cut after the record that fills it), so the file is never
    /// held whole; false as soon as a `write` fails. `droppingUnfound`
    /// leaves out the records no count found (`loaded`).
    func encode(droppingUnfound: Bool = false, pieceBytes: Int, _ write: ([UInt8]) -> Bool) -> Bool {
        var out = Self.magic
        out.reserveCapacity(pieceBytes + 4_096)
        for r in records.values where !(droppingUnfound && r.mark == .loaded) {
            CacheReader.append(r.stamp.device, 8, to: &out)
            CacheReader.append(r.stamp.inode, 8, to: &out)
            CacheReader.append(r.stamp.size, 8, to: &out)
            CacheReader.append(UInt64(bitPattern: r.stamp.modifiedNs), 8, to: &out)
            CacheReader.append(UInt64(r.words), 4, to: &out)
            CachedLink.encode(r.links, to: &out)
            if out.count >= pieceBytes {
                guard write(out) else { return false }
                out.removeAll(keepingCapacity: true)
            }
        }
        return out.isEmpty || write(out)
    }

    /// The encoding whole, for the tests.
    func encode(droppingUnfound: Bool = false) -> [UInt8] {
        var whole: [UInt8] = []
        _ = encode(droppingUnfound: droppingUnfound, pieceBytes: 1 << 20) {
            whole += $0
            return true
        }
        return whole
    }

    /// Best effort: a lost cache costs one recount, never writing.
    /// `droppingUnfound`: the files no count found are left out.
    public func save(for library: [UInt8], droppingUnfound: Bool = false) {
        guard let folder = Self.folder(), StateFiles.makeFolders(folder), let dir = try? Directory.open(folder) else {
            return
        }
        let name = Self.fileName(library)
        let tmp = Array(".".utf8) + name + Array(".tmp-\(getpid())".utf8)
        let fd = BytePath.withCString(tmp) {
            openat(dir.fd, $0, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { return }
        let encoded = encode(droppingUnfound: droppingUnfound, pieceBytes: Self.pieceBytes) {
            FileDescriptor.writeAll(fd, $0) == 0
        }
        let written = encoded && fsync(fd) == 0
        close(fd)
        guard written else {
            _ = BytePath.withCString(tmp) { unlinkat(dir.fd, $0, 0) }
            return
        }
        _ = BytePath.withCString(tmp) { src in BytePath.withCString(name) { renameat(dir.fd, src, dir.fd, $0) } }
        dir.sync()
    }

    static func folder() -> [UInt8]? { StateFiles.directory().map { BytePath.join($0, folderName) } }

    static func fileName(_ library: [UInt8]) -> [UInt8] {
        let real = ProjectLock.realPath(library) ?? library
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in real {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return Array("library-\(String(repeating: "0", count: 16 - hex.count))\(hex).counts".utf8)
    }
}
