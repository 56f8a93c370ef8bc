import CCarrelSys
import CarrelModel
import Foundation
import Glibc

/// The first scan of a library, pipelined: worker threads do the system
/// calls (open, readdir, statx) for folders in a shared queue, while the
/// calling thread turns their listings into `Entry`s and queues subfolders.
/// The model is only ever touched by the calling thread.
extension Scanner {
    struct Listing: @unchecked Sendable {
        let token: Int
        var stamp: Int64 = 0
        var unreadable = false
        /// Not there to open (moved or deleted since its path was taken).
        var missing = false
        var names: [[UInt8]] = []
        var stats: [carrel_stat_t] = []
        var linkIsDirectory: [Bool] = []
        /// Whether the folder holds an order file. It is read when the
        /// folder is first shown: reading 10,000 at open cost a sixth of it.
        var hasOrderFile = false
        /// Conflict copies of the order file, or temporaries of a write a
        /// crash cut short: the folder's order must be read the slow way.
        var hasOrderLeftovers = false
        /// A copy's hidden staging folder: a crash cut a copy short here.
        var hasCopyLeftovers = false
        /// Not listed: the pipeline's entry budget was spent.
        var skipped = false
        var found: FoundOrder? {
            hasOrderFile || hasOrderLeftovers || hasCopyLeftovers
                ? FoundOrder(hasFile: hasOrderFile, hasLeftovers: hasOrderLeftovers, hasCopyLeftovers: hasCopyLeftovers)
                : nil
        }
    }

    /// A folder for a worker to list. A `budgeted` one is skipped, and
    /// handed back `skipped`, once the pipeline's workers have listed
    /// `entryBudget` entries.
    struct Work {
        let token: Int
        let path: [UInt8]
        var budgeted = false
    }

    final class Pipeline: @unchecked Sendable {
        let condition = NSCondition()
        var work: [Work] = []
        var results: [Listing] = []
        var finished = false
        var entryBudget = Int.max
        /// Entries listed so far, counted by the workers as they list: the
        /// caller attaches listings more slowly than they arrive, so by its
        /// count the workers would have listed every folder already.
        var listed = 0
    }

    /// Same result as `scan`, using `workers` extra threads for the disk.
    /// The folders fewer than `levels` below `root` are always read; deeper
    /// ones only until `deadlineMs` (`Clock.nowMs()`), and until `entryBudget`
    /// entries are read in all. Returns the folders left unread (empty, for
    /// the caller to read later) and the folders that hold an order file,
    /// for the caller to read.
    @discardableResult
    public static func scanInParallel(
        _ root: Entry, path: [UInt8], workers: Int = 2, levels: Int = .max, until deadlineMs: Int64 = .max,
        entryBudget: Int = .max
    ) -> (unread: [Entry], ordered: [(Entry, FoundOrder)]) {
        var ordered: [(Entry, FoundOrder)] = []
        let pipe = Pipeline()
        var entries: [(Entry, [UInt8], depth: Int)] = [(root, path, 0)]
        var unread: [Entry] = []
        var cut = levels == .max || deadlineMs == .max ? false : Clock.nowMs() >= deadlineMs
        if levels != .max { pipe.entryBudget = entryBudget }
        pipe.work.append(Work(token: 0, path: path))
        var outstanding = 1
        for _ in 0..<workers {
            let t = Thread { Self.serve(pipe) }
            t.stackSize = 1 << 20
            t.start()
        }
        while outstanding > 0 {
            pipe.condition.lock()
            while pipe.results.isEmpty { pipe.condition.wait() }
            let batch = pipe.results
            pipe.results.removeAll(keepingCapacity: true)
            if !cut, deadlineMs != .max, Clock.nowMs() >= deadlineMs {
                // Out of time: deep folders not started yet stay unread.
                cut = true
                pipe.work.removeAll { item in
                    guard entries[item.token].depth >= levels else { return false }
                    unread.append(entries[item.token].0)
                    outstanding -= 1
                    return true
                }
            }
            pipe.condition.unlock()
            var newWork: [Work] = []
            for listing in batch {
                outstanding -= 1
                let (dir, dirPath, depth) = entries[listing.token]
                guard !listing.skipped else { unread.append(dir); continue }
                if let found = listing.found { ordered.append((dir, found)) }
                for e in attach(listing, to: dir) where e.kind == .directory {
                    guard depth + 1 < levels || !cut else { unread.append(e); continue }
                    let childPath = BytePath.join(dirPath, e.name.bytes)
                    newWork.append(Work(token: entries.count, path: childPath, budgeted: depth + 1 >= levels))
                    entries.append((e, childPath, depth + 1))
                }
            }
            if !newWork.isEmpty {
                outstanding += newWork.count
                pipe.condition.lock()
                pipe.work.append(contentsOf: newWork)
                pipe.condition.broadcast()
                pipe.condition.unlock()
            }
        }
        pipe.condition.lock()
        pipe.finished = true
        pipe.condition.broadcast()
        pipe.condition.unlock()
        return (unread, ordered)
    }

    static func serve(_ pipe: Pipeline) {
        while true {
            pipe.condition.lock()
            while pipe.work.isEmpty && !pipe.finished { pipe.condition.wait() }
            if pipe.finished { pipe.condition.unlock(); return }
            let item = pipe.work.removeLast()
            let skip = item.budgeted && pipe.listed >= pipe.entryBudget
            pipe.condition.unlock()
            let listing = skip ? Listing(token: item.token, skipped: true) : list(item.path, token: item.token)
            pipe.condition.lock()
            pipe.listed += listing.names.count
            pipe.results.append(listing)
            pipe.condition.broadcast()
            pipe.condition.unlock()
        }
    }

    /// One folder's visible entries with their metadata: system calls only.
    static func list(_ path: [UInt8], token: Int) -> Listing {
        var out = Listing(token: token)
        let fd = BytePath.withCString(path) { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else {
            out.unreadable = errno == EACCES || errno == EPERM
            out.missing = errno == ENOENT || errno == ENOTDIR || errno == ELOOP
            return out
        }
        var own = carrel_stat_t()
        if carrel_lstat_at(fd, ".", &own) == 0 { out.stamp = own.change_ns }
        guard let d = carrel_dir_open_fd(fd) else { return out }
        defer { carrel_dir_close(d) }
        var namePtr: UnsafePointer<CChar>?
        var type: Int32 = 0
        while carrel_dir_next(d, &namePtr, &type) == 1 {
            let len = strlen(namePtr!)
            let raw = UnsafeRawBufferPointer(start: namePtr!, count: len)
            if isHidden(raw) {
                if raw.elementsEqual(OrderFile.name) {
                    out.hasOrderFile = true
                } else if OrderFile.isOrderFile(raw) {
                    out.hasOrderLeftovers = true
                } else if Directory.isCopyStaging(raw) {
                    out.hasCopyLeftovers = true
                }
                continue
            }
            var st = carrel_stat_t()
            guard carrel_lstat_at(fd, namePtr!, &st) == 0 else { continue }
            var linkDir = false
            if st.isSymlink {
                var target = carrel_stat_t()
                linkDir = carrel_stat_target_at(fd, namePtr!, &target) == 0 && target.isDirectory
            }
            out.names.append(Array(raw))
            out.stats.append(st)
            out.linkIsDirectory.append(linkDir)
        }
        return out
    }
}
