import CarrelModel
import CarrelStore

/// An open buffer's words and the disk's, for one file. The row shows the
/// buffer's while its text differs from the file's, flagged unsaved.
struct UnsavedWords {
    let entry: Entry
    var bufferWords: Int
    var bufferHash: Int
    var diskWords: Int?
    var diskHash: Int?

    var isUnsaved: Bool { bufferHash != diskHash }
    var shownWords: Int { isUnsaved ? bufferWords : diskWords ?? bufferWords }
}

extension Workspace {
    /// An editor holds `entry` open with `text` (not saved, perhaps): the
    /// row shows its words. True when the row changed.
    @discardableResult
    public func showBuffer(_ entry: Entry, text: [UInt8]) -> Bool {
        guard entry.kind == .file else { return false }
        let words = WordCount.count(text, WordCount.Format(fileName: entry.name.string))
        let id = ObjectIdentifier(entry)
        var state = unsavedWords[id] ?? UnsavedWords(entry: entry, bufferWords: words, bufferHash: 0)
        if unsavedWords[id] == nil, let disk = readForWords(entry) {
            state.diskWords = WordCount.count(disk, WordCount.Format(fileName: entry.name.string))
            state.diskHash = Self.hash(disk)
        }
        state.bufferWords = words
        state.bufferHash = Self.hash(text)
        let before = (entry.wordsCounted ? entry.wordTotal : nil, unsavedWords[id]?.isUnsaved ?? false)
        unsavedWords[id] = state
        entry.setWords(state.shownWords)
        return before != (entry.wordTotal, state.isUnsaved)
    }

    /// The editor closed `entry`: its row shows the disk's words again. True when the row changed.
    @discardableResult
    public func closeBuffer(_ entry: Entry) -> Bool {
        guard let state = unsavedWords.removeValue(forKey: ObjectIdentifier(entry)) else { return false }
        if let disk = state.diskWords { entry.setWords(disk) } else { recountWords(entry) }
        return state.isUnsaved
    }

    public func isShowingUnsavedWords(_ entry: Entry) -> Bool {
        unsavedWords[ObjectIdentifier(entry)]?.isUnsaved ?? false
    }

    /// The disk's words for `e`, just counted; `text` when it was read.
    func setDiskWords(_ e: Entry, _ words: Int, text: [UInt8]?) {
        let id = ObjectIdentifier(e)
        guard var state = unsavedWords[id] else {
            e.setWords(words)
            return
        }
        state.diskWords = words
        state.diskHash = text.map(Self.hash)
        unsavedWords[id] = state
        e.setWords(state.shownWords)
    }

    private func recountWords(_ e: Entry) {
        e.forgetWords()
        wordQueue.append(e)
    }

    /// The file's text on disk, read as counting reads it (no-follow, plain
    /// files only, bounded), or nil.
    public func savedText(of e: Entry) -> [UInt8]? { readForWords(e) }

    func readForWords(_ e: Entry) -> [UInt8]? {
        guard let library = library(of: e), let parent = e.parent,
            let below = parent.components(below: library.root)?.map(\.bytes),
            let dir = try? Directory.open(root: library.path, components: below)
        else { return nil }
        return dir.readText(e.name.bytes)?.bytes
    }

    static func hash(_ bytes: [UInt8]) -> Int {
        var h = Hasher()
        h.combine(bytes)
        return h.finalize()
    }
}
