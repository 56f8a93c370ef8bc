import CCarrelSys
import CarrelModel
import Glibc

/// Reads a directory tree into `Entry`s with readdir, d_type and one statx
/// per entry (no FileManager: its resource values read /etc/passwd per call).
/// Iterative, never follows symlinks, and skips hidden names, so loops and
/// 2,000-level trees terminate without deep recursion.
public enum Scanner {
    /// Names Carrel never shows (`HiddenNames`): dot files, its own
    /// `.carrel`, VCS folders, editors' and sync engines' droppings.
    @inline(__always) public static func isHidden(_ name: UnsafeRawBufferPointer) -> Bool {
        HiddenNames.contains(name)
    }

    public static func isHidden(_ name: [UInt8]) -> Bool { HiddenNames.contains(name) }

    /// Makes an entry for `name` in the open directory `dirfd`, or nil if it vanished.
    public static func entry(dirfd: Int32, name: [UInt8]) -> Entry? {
        var st = carrel_stat_t()
        let r = BytePath.withCString(name) { carrel_lstat_at(dirfd, $0, &st) }
        guard r == 0 else { return nil }
        return makeEntry(EntryName(bytes: name), st, dirfd: dirfd, rawName: name)
    }

    static func makeEntry(_ name: EntryName, _ st: carrel_stat_t, dirfd: Int32, rawName: [UInt8]) -> Entry {
        let e = makeEntry(name, st)
        if e.kind == .symlink {
            var target = carrel_stat_t()
            let r = BytePath.withCString(rawName) { carrel_stat_target_at(dirfd, $0, &target) }
            e.linksToDirectory = r == 0 && target.isDirectory
        }
        return e
    }

    static func makeEntry(_ name: EntryName, _ st: carrel_stat_t) -> Entry {
        let kind: EntryKind
        switch st.type {
        case DiskType.file: kind = .file
        case DiskType.directory: kind = .directory
        case DiskType.symlink: kind = .symlink
        default: kind = .other
        }
        let e = Entry(name: name, kind: kind, created: st.birth_ms, modified: st.modified_ms)
        e.changeStamp = st.change_ns
        e.identity = identity(device: st.device, inode: st.inode)
        return e
    }

    /// `Entry.identity`: device and inode in one number, never 0. A hash, so
    /// two files can share one only by a chance of about 2^-64.
    public static func identity(device: UInt64, inode: UInt64) -> UInt64 {
        var h = inode &* 0x9E37_79B9_7F4A_7C15
        h ^= (device &+ 0x632B_E59B_D9B4_E019) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= h >> 31
        return h == 0 ? 1 : h
    }

    /// Fills `root` (a directory entry at `path`) with its whole subtree.
    /// `visit` sees every directory entry scanned, root included, with its path.
    /// Returns the folders that hold an order file, for the caller to read.
    @discardableResult
    public static func scan(_ root: Entry, path: [UInt8], visit: (Entry, [UInt8]) -> Void = { _, _ in })
        -> [(Entry, FoundOrder)]
    {
        var stack: [(Entry, [UInt8])] = [(root, path)]
        var ordered: [(Entry, FoundOrder)] = []
        while let (dirEntry, dirPath) = stack.popLast() {
            visit(dirEntry, dirPath)
            let listing = list(dirPath, token: 0)
            if let found = listing.found { ordered.append((dirEntry, found)) }
            for child in attach(listing, to: dirEntry) where child.kind == .directory {
                stack.append((child, BytePath.join(dirPath, child.name.bytes)))
            }
        }
        return ordered
    }

    /// Reads one directory's visible children into `dir` (which must be empty)
    /// and returns them. Marks `dir` unreadable when it cannot be opened.
    /// `keepingExisting`: `dir` may hold children already, which stay as they are.
    @discardableResult
    public static func scanChildren(of dir: Entry, path: [UInt8], keepingExisting: Bool = false) -> [Entry] {
        attach(list(path, token: 0), to: dir, keepingExisting: keepingExisting)
    }

    /// Turns a listing into entries under `dir`: the model side of a scan.
    @discardableResult
    static func attach(_ listing: Listing, to dir: Entry, keepingExisting: Bool = false) -> [Entry] {
        dir.unreadable = listing.unreadable
        dir.changeStamp = listing.stamp
        var made: [Entry] = []
        made.reserveCapacity(listing.names.count)
        for i in listing.names.indices {
            if keepingExisting, dir.child(EntryName(bytes: listing.names[i])) != nil { continue }
            let e = makeEntry(EntryName(bytes: listing.names[i]), listing.stats[i])
            e.linksToDirectory = listing.linkIsDirectory[i]
            dir.add(e)
            made.append(e)
        }
        return made
    }

    /// Whether `path` is marked as a project: `.carrel/project.json`
    /// exists, whatever it is. A `.carrel` that is not a real folder (a
    /// link, a file) marks one too, never looked through: such a project
    /// is shown, and reading it refuses every command, naming what is wrong.
    public static func hasProjectMarker(_ path: [UInt8]) -> Bool {
        let carrel = BytePath.join(path, Array(".carrel".utf8))
        guard let st = stat(carrel) else { return false }
        guard st.isDirectory else { return true }
        let fd = BytePath.withCString(carrel) { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var marker = carrel_stat_t()
        return BytePath.withCString(Array("project.json".utf8)) { carrel_lstat_at(fd, $0, &marker) } == 0
    }

    /// lstat of an absolute path.
    public static func stat(_ path: [UInt8]) -> carrel_stat_t? {
        var st = carrel_stat_t()
        return BytePath.withCString(path) { carrel_lstat_at(AT_FDCWD, $0, &st) } == 0 ? st : nil
    }
}

extension Scanner {
    /// Fresh, unattached entries for the visible children of `path`, or nil
    /// when it cannot be read. Used to reconcile the model with the disk.
    public static func readDirectory(_ path: [UInt8]) -> [Entry]? {
        let probe = Entry(name: EntryName("probe"), kind: .directory)
        let fd = BytePath.withCString(path) { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        close(fd)
        let children = scanChildren(of: probe, path: path)
        for c in children { probe.remove(c) }
        return children
    }
}

/// What a scan saw of Carrel's own files in a folder: whether it has an
/// order file, whether leftovers (conflict copies, temporaries) need the
/// slow read of `OrderFile.read(in:)`, and whether a copy cut short left
/// its staging folder (`Directory.removeCopyLeftovers`).
public struct FoundOrder: Sendable {
    public let hasFile: Bool
    public let hasLeftovers: Bool
    public var hasCopyLeftovers = false
}
