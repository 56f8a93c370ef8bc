import CarrelModel
import CarrelStore

/// The links a rename or move rewrote are part of its step: undo writes
/// them back and redo makes them again, by the same means as the update
/// (closed files exchanged atomically after a snapshot, open buffers
/// through the editor). Undo never takes back half a step: every file must
/// still hold, at each place, the link text the step wrote there, or the
/// whole undo is refused and nothing changes.
extension Workspace {
    /// Link edits an undo or redo leaves to the editor: files open in it,
    /// each by its path before the undo (`file`), with the buffer's text.
    public typealias BufferLinkEdits = [LinkFileEdit]

    /// Notes on the journaled step of `move` the link edits made after it
    /// (`done`, each as made on its file's text), so undo takes them back.
    /// `rewrittenOnDisk` names the files Carrel wrote itself: when the moved
    /// file is one, the step's fingerprint is taken again, since Carrel's
    /// own rewrite is not another program's change.
    public func journalLinkEdits(
        _ done: [LinkFileEdit], after move: LinkMove, in library: Library, rewrittenOnDisk: Set<[String]>
    ) {
        guard let pair = move.pairs.first, move.pairs.count == 1, !done.isEmpty else { return }
        let files = done.compactMap { fix -> JournalLinkFile? in
            let edits = fix.edits.sorted { $0.start < $1.start }
            guard edits.allSatisfy({ 0 <= $0.start && $0.start <= $0.end && $0.end <= fix.text.count }) else {
                return nil
            }
            var shift = 0
            var out: [JournalLinkFile.Edit] = []
            for e in edits {
                let back = String(decoding: fix.text[e.start..<e.end], as: UTF8.self)
                // Never made by a move; the journal would refuse it.
                guard JournalLinkFile.isLinkText(back), JournalLinkFile.isLinkText(e.newText) else { return nil }
                out.append(JournalLinkFile.Edit(at: e.start + shift, now: e.newText, back: back))
                shift += e.newText.utf8.count - (e.end - e.start)
            }
            return JournalLinkFile(path: fix.newFile.joined(separator: "/"), edits: out)
        }
        let path = pair.to.joined(separator: "/")
        let origin = pair.from.joined(separator: "/")
        Journal.locked(for: library.path) { () -> Void in
            var journal = loadJournal(library)
            guard
                let i = journal.undo.lastIndex(where: {
                    ($0.operation == .renamed || $0.operation == .moved) && $0.path == path && $0.origin == origin
                })
            else { return }
            journal.undo[i].links += files
            if rewrittenOnDisk.contains(pair.to), journal.undo[i].fingerprint?.isFolder == false,
                let item = entry(at: pair.to, in: library), let print = fingerprint(of: item, library)
            {
                journal.undo[i].fingerprint = print
            }
            Journal.save(journal, for: library.path)
        }
    }

    /// One file's links to write back, checked against its text now.
    struct LinkToPutBack {
        var entry: Entry
        /// Where it is before the undo, and after it.
        var path: [String]
        var newPath: [String]
        var text: [UInt8]
        /// Nil for an open buffer, whose text is the editor's.
        var stamp: FileStamp?
        var edits: [TextEdit]
        var journaled: JournalLinkFile
    }

    /// Every file of the step's links, checked before anything moves: it
    /// must still hold each link the step wrote, where it wrote it, in the
    /// editor's buffer if open there, else on disk.
    func linksToPutBack(
        _ step: JournalEntry, from parts: [String], to origin: [String], _ library: Library,
        buffers: [[String]: [UInt8]], canEditBuffers: Bool
    ) throws(Failure) -> [LinkToPutBack] {
        var out: [LinkToPutBack] = []
        let move = LinkMove(from: parts, to: origin)
        for file in step.links {
            let path = try components(file.path)
            guard let e = entry(at: path, in: library), e.kind == .file else {
                throw Failure(.conflict, .undoLinksChanged(path: file.path))
            }
            let text: [UInt8]
            var stamp: FileStamp? = nil
            if let buffer = buffers[path] {
                guard canEditBuffers else { throw Failure(.conflict, .undoLinksInEditor(path: file.path)) }
                text = buffer
            } else {
                guard let read = readWithStamp(e, library) else {
                    throw Failure(.conflict, .undoLinksChanged(path: file.path))
                }
                (text, stamp) = (read.bytes, read.stamp)
            }
            var edits: [TextEdit] = []
            for edit in file.edits {
                guard edit.end <= text.count, text[edit.at..<edit.end].elementsEqual(edit.now.utf8) else {
                    throw Failure(.conflict, .undoLinksChanged(path: file.path))
                }
                edits.append(TextEdit(start: edit.at, end: edit.end, newText: edit.back))
            }
            out.append(
                LinkToPutBack(
                    entry: e, path: path, newPath: move.map(path) ?? path, text: text, stamp: stamp, edits: edits,
                    journaled: file))
        }
        return out
    }

    /// Records the closed files' edits before the move, durably, to be
    /// finished at the next open only if the move was made. Nil when there
    /// is no closed file; refused when the record cannot be written, since
    /// no file is rewritten without one.
    func recordLinksToPutBack(
        _ links: [LinkToPutBack], from parts: [String], to origin: [String], _ library: Library
    ) throws(Failure) -> LinkUpdateRecord.Written? {
        let closed = links.filter { $0.stamp != nil }
        guard !closed.isEmpty else { return nil }
        var record = LinkUpdateRecord(
            library: library.realPath,
            files: closed.compactMap { l in
                l.stamp.map { LinkUpdateRecord.File(path: l.newPath, before: $0, text: l.text, edits: l.edits) }
            })
        record.move = LinkUpdateRecord.Move(from: parts, to: origin)
        guard let written = record.write(for: library.realPath) else {
            throw Failure(.io, .undoLinksNotRecorded)
        }
        return written
    }

    /// Rewrites the closed files where they are now, each only if it is the
    /// file read, unchanged; returns the paths of those left as they were.
    func putBackClosedLinks(_ links: [LinkToPutBack], _ library: Library) -> [[String]] {
        var left: [[String]] = []
        for l in links {
            guard let stamp = l.stamp else { continue }
            let e = l.entry
            guard let parent = e.parent, let below = parent.components(below: library.root)?.map(\.bytes),
                let dir = try? Directory.open(root: library.path, components: below)
            else {
                left.append(l.newPath)
                continue
            }
            let text = LinkRewrite.apply(l.edits, to: l.text)
            snapshotBeforeReplacing(e, in: library, text: l.text, title: .titleBeforeLinkUpdate)
            do throws(Directory.ReplaceRefusal) {
                try dir.replaceText(e.name.bytes, readAs: stamp, with: text)
                if let index = linkIndexes[ObjectIdentifier(library.root)], bufferText(e) == nil,
                    let now = libraryPath(of: e, in: library)
                {
                    index.table.set(now, Self.indexed(text, from: now))
                }
            } catch {
                left.append(l.newPath)
            }
        }
        return left
    }

    /// The step's links as the counterpart step holds them: where each file
    /// is now, with the text written back standing where the undone text stood.
    static func counterpartLinks(_ links: [LinkToPutBack], leaving left: [[String]]) -> [JournalLinkFile] {
        links.filter { !left.contains($0.newPath) }.map {
            $0.journaled.reverted(to: $0.newPath.joined(separator: "/"))
        }
    }

    /// The open buffers' edits, for the editor, each by its path before the undo.
    static func bufferEdits(_ links: [LinkToPutBack]) -> BufferLinkEdits {
        links.filter { $0.stamp == nil }.map {
            LinkFileEdit(file: $0.path, newFile: $0.newPath, edits: $0.edits, text: $0.text, stamp: nil)
        }
    }
}
