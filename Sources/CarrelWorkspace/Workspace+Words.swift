import CarrelModel
import CarrelStore

/// A library's word cache while the server runs.
struct WordCacheState {
    /// During the first pass: what the state folder held, each record
    /// marked as the pass finds its file unchanged or counts it, written
    /// at its end without the records it never found. One cache, not the
    /// one read and a copy: at 100,000 files each was 17 MB. After the
    /// first pass: the counts made since the cache was last written.
    var cache = WordCache()
    var firstPassDone = false
    /// The owner was told the first pass ended (`takeEndedFirstCounts`).
    var firstPassAnnounced = false
    /// Some file was read rather than found in the cache.
    var readAny = false
}

/// Counting words, after the first paint and a slice at a time, so no
/// request waits for it (the owner calls `countQueuedWords` between jobs).
/// A file is read no-follow and non-blocking, only when it is a plain file
/// no larger than `Directory.countLimit`; an unchanged one (same device,
/// inode, size and mtime) takes its count from the state folder's cache.
extension Workspace {
    /// Queues every file of every library not counted yet. The first call
    /// for a library reads its cache.
    public func queueUncountedWords() {
        for library in libraries {
            let id = ObjectIdentifier(library.root)
            if wordCaches[id] == nil {
                wordCaches[id] = WordCacheState(cache: WordCache.load(for: library.path))
            }
            queueUncountedWords(below: library.root)
        }
    }

    /// Queues the uncounted files below `top` (or `top` itself).
    func queueUncountedWords(below top: Entry) {
        top.walk { e in
            if e.kind == .file {
                if !e.wordsCounted { wordQueue.append(e) }
                return false
            }
            return e.kind == .directory && !e.wordsCounted
        }
        sizeFirstPassCache(of: top)
    }

    /// Gives a first pass's cache room for every file its library has so
    /// far, while few are counted: grown by the records themselves, its last
    /// doubling came at the pass's end, beside the whole model and links
    /// index, and held the old table and the new at once (25 MB at 100,000
    /// files, the cold start's peak).
    private func sizeFirstPassCache(of top: Entry) {
        guard let library = library(of: top) else { return }
        let id = ObjectIdentifier(library.root)
        let files = library.root.fileTotal + Int(library.root.conflictTotal)
        guard wordCaches[id]?.firstPassDone == false, files > wordCaches[id]?.cache.records.capacity ?? files else {
            return
        }
        wordCaches[id]?.cache.records.reserveCapacity(files)
    }

    public var hasWordsToCount: Bool { !wordQueue.isEmpty }
    public var wordsToCount: Int { wordQueue.count }

    /// Changes on disk: files whose content changed are counted again, new
    /// files and folders counted. Only once counting has started.
    public func recountWords(after changes: [Change]) {
        guard !wordCaches.isEmpty else { return }
        for change in changes where change.kind != .deleted {
            guard let (entry, _) = deepestEntry(change.path), entry.path == change.path else { continue }
            if change.kind == .changed, entry.kind == .file { entry.forgetWords() }
            queueUncountedWords(below: entry)
        }
    }

    /// Counts queued files until `files` were read (a file found in the
    /// cache costs an eighth), `bytes` read or `milliseconds` spent (nil: no
    /// time limit). Returns the files counted, whose rows and those above them changed.
    public func countQueuedWords(files: Int = 256, bytes: Int = 4 << 20, milliseconds: Int? = nil) -> [Entry] {
        var counted: [Entry] = []
        var looked = 0
        var read = 0
        var steps = 0
        var folder: (entry: Entry, dir: Directory?, names: [EntryName]?)?
        // The folder's library path for the index, built for its first file with links to file.
        var linkFolder: CountedLinkFolder?
        // Files to read, read together on two threads; each holds its folder
        // open until then (a job names the folder by its fd).
        var pending: [(entry: Entry, library: Library, folder: Directory, linkFolder: CountedLinkFolder?)] = []
        var jobs: [CountingPool.Job] = []
        func readPending() {
            guard !jobs.isEmpty else { return }
            let results = countingPool.run(jobs)
            for (p, r) in zip(pending, results) {
                if let stamp = r.stamp {
                    // The links are kept with the count, so a restart's index reads no file.
                    let cache = ObjectIdentifier(p.library.root)
                    wordCaches[cache]?.cache.note(stamp, words: Int32(clamping: r.words), links: r.links)
                    wordCaches[cache]?.readAny = true
                    if let links = r.links, let f = p.linkFolder {
                        indexCountedLinks(p.entry, links: links, targets: r.targets, in: p.library, folder: f)
                    }
                }
                read += r.bytes
                setDiskWords(p.entry, r.words, text: r.text)
                counted.append(p.entry)
            }
            pending.removeAll(keepingCapacity: true)
            jobs.removeAll(keepingCapacity: true)
        }
        let deadline = milliseconds.map { Clock.monotonicNs() + Int64($0) * 1_000_000 }
        while looked < files * 8, read < bytes, let e = wordQueue.popLast() {
            if let deadline, steps > 0, steps % 16 == 0, Clock.monotonicNs() > deadline {
                wordQueue.append(e)
                break
            }
            guard e.kind == .file, !e.wordsCounted, let parent = e.parent, let library = library(of: e) else {
                continue
            }
            steps += 1
            looked += 1
            if folder?.entry !== parent {
                let names = parent.components(below: library.root)
                folder = (parent, try? Directory.open(root: library.path, components: names?.map(\.bytes) ?? []), names)
                linkFolder = nil
            }
            let id = ObjectIdentifier(library.root)
            let open = unsavedWords[ObjectIdentifier(e)] != nil
            guard let dir = folder?.dir, let stamp = dir.fileStamp(e.name.bytes) else {
                setDiskWords(e, 0, text: nil)
                counted.append(e)
                continue
            }
            let format = WordCount.Format(fileName: e.name.string)
            let hasLinks = Self.hasLinks(format)
            if hasLinks, linkFolder == nil, let names = folder?.names { linkFolder = CountedLinkFolder(names) }
            // A count cached without links (an older cache) is read again, so the next cache keeps them.
            if !open, let cached = wordCaches[id]?.cache.loaded(stamp), cached.links != nil || !hasLinks {
                wordCaches[id]?.cache.markFound(stamp)
                if let links = cached.links, let linkFolder {
                    indexCountedLinks(e, links: links, in: library, folder: linkFolder)
                }
                setDiskWords(e, Int(cached.words), text: nil)
                counted.append(e)
                continue
            }
            looked += 7
            pending.append((e, library, dir, hasLinks ? linkFolder : nil))
            jobs.append(
                CountingPool.Job(
                    folder: dir.fd, name: e.name.bytes, format: format, keepText: open, links: hasLinks,
                    linkFolder: hasLinks && bufferText(e) == nil ? linkFolder?.path : nil))
            if jobs.count >= 32 { readPending() }
        }
        readPending()
        if wordQueue.isEmpty {
            // A first pass queued every file: give the memory back.
            wordQueue = []
            finishCountingPass()
        }
        return counted
    }

    /// Every library whose folders are all read and files all counted: its
    /// projects' days start (`Sessions`), and its first pass writes its
    /// cache whole, with only the files it has. A library the background
    /// scan is still reading waits: a day started from part of a project
    /// would count the rest as written today, and a pass ended early would
    /// read every later folder's files again rather than take them from
    /// the cache.
    func finishCountingPass() {
        for library in libraries where library.root.wordsCounted && library.allFoldersRead() {
            for project in library.projects.values {
                var words = WordSum()
                words.add(project.root)
                words.subtract(project.trash)
                words.subtract(project.compiled)
                if let n = words.value { sessions.noteCounted(project, words: n) }
            }
            let id = ObjectIdentifier(library.root)
            guard var state = wordCaches[id], !state.firstPassDone else { continue }
            // A restart that found every count in the cache writes nothing.
            if state.readAny || state.cache.hasUnfound {
                state.cache.save(for: library.path, droppingUnfound: true)
            }
            state = WordCacheState(cache: WordCache(), firstPassDone: true)
            wordCaches[id] = state
        }
    }

    /// The word-cache records held for `library` now: what its first pass
    /// holds while it runs, for the tests that keep it to one a file.
    func wordCacheRecordsHeld(_ library: Library) -> Int {
        guard let state = wordCaches[ObjectIdentifier(library.root)] else { return 0 }
        return state.cache.records.count
    }

    /// The room the word cache of `library` has for records, for the tests.
    func wordCacheCapacity(_ library: Library) -> Int {
        wordCaches[ObjectIdentifier(library.root)]?.cache.records.capacity ?? 0
    }

    /// Once the queue is empty after folders were read: their files may
    /// have been the last a first pass waited for, or there were none.
    func finishCountingPassIfIdle() {
        if wordQueue.isEmpty, !wordCaches.isEmpty { finishCountingPass() }
    }

    /// The libraries whose first count ended since the last call, once each.
    public func takeEndedFirstCounts() -> [Library] {
        libraries.filter { library in
            let id = ObjectIdentifier(library.root)
            guard let state = wordCaches[id], state.firstPassDone, !state.firstPassAnnounced else { return false }
            wordCaches[id]?.firstPassAnnounced = true
            return true
        }
    }

    /// Whether the library under `root` has had its first count announced:
    /// until then its rows' words are sent all at once, when it ends.
    public func firstCountAnnounced(_ root: Entry) -> Bool {
        wordCaches[ObjectIdentifier(root)]?.firstPassAnnounced ?? false
    }

    /// Writes the counts made since the first pass into each cache. Rare:
    /// the owner calls it when it stops.
    public func saveWordCaches() {
        for library in libraries {
            let id = ObjectIdentifier(library.root)
            guard let state = wordCaches[id], state.firstPassDone, !state.cache.isEmpty else { continue }
            var cache = WordCache.load(for: library.path)
            for r in state.cache.records.values { cache.note(r.stamp, words: r.words, links: r.links) }
            cache.save(for: library.path)
            wordCaches[id]?.cache = WordCache()
        }
    }
}
