import Glibc

/// What a crash leaves of Carrel's own hidden temporaries in `.carrel`,
/// recognised only by the exact names Carrel gives them, so a writer's file
/// that merely looks like one is never taken for it.
public enum Leftovers {
    /// The pid in `name` when `name` is exactly `prefix` followed by
    /// `groups` runs of digits joined by `-`, the first the pid.
    static func owner(_ name: [UInt8], prefix: [UInt8], groups: Int) -> Int32? {
        guard name.starts(with: prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == groups,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 20 && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let pid = Int32(String(decoding: parts[0], as: UTF8.self)), pid > 0
        else { return nil }
        return pid
    }

    /// True unless `pid` is another process that still runs (its write may be
    /// under way). This process writes one thing at a time and cleans up after
    /// itself, so a name with its own pid is an older process's whose pid it
    /// now has.
    public static func isGone(_ pid: Int32) -> Bool {
        pid == getpid() || !(kill(pid, 0) == 0 || errno == EPERM)
    }

    /// The most folders the walk of `.carrel/snapshots` opens, so a forged
    /// tree cannot hold an open for long.
    static let snapshotFolderLimit = 20_000
    /// Deeper than any path in a project Carrel would make.
    static let snapshotDepthLimit = 128

    /// How long a snapshot's temporary may stand before a sweep takes it
    /// for abandoned. Its write lasts milliseconds; one untouched for an
    /// hour is no write under way, on this machine or the one it came from
    /// by sync, whose pids mean nothing here.
    public static let snapshotTemporaryAgeMs: Int64 = 3_600_000

    /// Removes the `.carrel-snapshot-<pid>-<random>` temporaries untouched
    /// for `snapshotTemporaryAgeMs` anywhere under `.carrel/snapshots` (a
    /// snapshot cut short on another machine, or by a Carrel that noted no
    /// writes), plain files only, unlinked and never followed. A crash here
    /// is repaired at open from its note (`SnapshotWrites`); this sweep
    /// runs after the first view. Returns how many.
    @discardableResult
    public static func removeSnapshotTemporaries(carrelDir: Directory, nowMs: Int64 = Clock.nowMs()) -> Int {
        guard carrelDir.kind(of: SnapshotFolder.name) == .folder,
            let top = try? carrelDir.realSubdirectory(SnapshotFolder.name)
        else { return 0 }
        var removed = 0
        var opened = 1
        // Depth first, each folder opened once and held only while its
        // names are gone through: however wide the tree, one folder per
        // level is open at a time.
        var open: [(dir: Directory, names: [(name: [UInt8], type: Int32)])] = [(top, (try? top.list()) ?? [])]
        while let level = open.indices.last {
            guard let (name, type) = open[level].names.popLast() else {
                open.removeLast()
                continue
            }
            let dir = open[level].dir
            let pid = owner(name, prefix: SnapshotFolder.tempPrefix, groups: 2)
            // Every snapshot is a file the listing names as one: only a
            // temporary's name, or a name the listing could not type, is
            // worth a look, so an open costs no look per snapshot.
            if pid == nil, type == DiskType.file || type == DiskType.symlink { continue }
            // A folder the listing names is looked at once, by the opening,
            // which follows no link and refuses anything but a folder.
            switch type == DiskType.directory ? .folder : dir.kind(of: name) {
            case .file?:
                guard pid != nil, let st = dir.stat(name),
                    st.modified_ms <= nowMs - snapshotTemporaryAgeMs || st.modified_ms > nowMs + snapshotTemporaryAgeMs,
                    (try? dir.unlinkFile(name)) != nil
                else { continue }
                removed += 1
            case .folder?:
                guard level < snapshotDepthLimit, opened < snapshotFolderLimit,
                    let sub = try? dir.subdirectory(name)
                else { continue }
                opened += 1
                open.append((sub, (try? sub.list()) ?? []))
            default: continue
            }
        }
        if removed > 0 { top.sync() }
        return removed
    }

    /// Whether `removeRecordTemporaries` would find anything.
    public static func hasRecordTemporaries(in dir: Directory) -> Bool {
        ((try? dir.list()) ?? []).contains { entry in
            owner(entry.name, prefix: SubmissionRecords.tempPrefix, groups: 3).map(isGone) ?? false
        }
    }

    /// Removes the record temporaries (`.tmp-<pid>-<ms>-<random>`) of gone
    /// processes in `.carrel/submissions`: plain files only. The caller
    /// holds the project's lock, which every writer of a record takes.
    @discardableResult
    public static func removeRecordTemporaries(in dir: Directory) -> Int {
        var removed = 0
        for (name, _) in (try? dir.list()) ?? [] {
            guard let pid = owner(name, prefix: SubmissionRecords.tempPrefix, groups: 3), isGone(pid),
                dir.kind(of: name) == .file, (try? dir.unlinkFile(name)) != nil
            else { continue }
            removed += 1
        }
        if removed > 0 { dir.sync() }
        return removed
    }
}

extension SubmissionRecords {
    /// Exactly the shape `newID` gives: `<ms>-<16 hex digits>`.
    public static func isID(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...20).contains(parts[0].count), parts[1].count == 16 else { return false }
        return parts[0].allSatisfy { $0 >= "0" && $0 <= "9" }
            && parts[1].allSatisfy { ($0 >= "0" && $0 <= "9") || ($0 >= "a" && $0 <= "f") }
    }
}
