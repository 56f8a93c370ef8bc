import CarrelModel
import CarrelStore
import Glibc

/// One snapshot of a file: its name read, and where it is.
public struct SnapshotInfo: Equatable {
    public let name: SnapshotName
    /// The absolute path of the snapshot file, for an editor's diff view.
    public let path: [UInt8]
    /// The file it is a snapshot of.
    public let of: [UInt8]
    public var displayPath: String { BytePath.display(path) }
}

/// A name in a file's snapshot folder that is not a usable snapshot, and why.
public struct SkippedSnapshot: Equatable {
    public let name: String
    public let why: SnapshotMessage.Problem
    public init(name: String, why: SnapshotMessage.Problem) {
        self.name = name
        self.why = why
    }
}

/// Snapshots: a dated, titled copy of a file's text, kept in its project's
/// `.carrel/snapshots/` under the file's path (`SnapshotFolder`), listed,
/// compared word by word, and rolled back to.
extension Workspace {
    /// The most a snapshot holds, and the most read of one: the reading limit of counting.
    public static let snapshotLimit = Directory.countLimit

    /// Where `entry`'s snapshots live: its project's folder, opened beneath
    /// the library, and its path below the project.
    func snapshotHome(_ entry: Entry, _ library: Library) throws(Failure) -> (Directory, [[UInt8]], Project) {
        guard let p = library.project(containing: entry), entry !== p.root || entry.isDirectory,
            let parts = entry.components(below: p.root)
        else { throw Failure(.notInProject, .snapshot(.outsideProject(name: entry.name.string))) }
        return (try open(p.root, in: library), parts.map(\.bytes), p)
    }

    /// A snapshot of a file, or of each file in a folder (its Trash and
    /// compiled documents left out: neither is the writing). Every file is checked before the first is written, so a file
    /// too large or not readable refuses the whole command.
    public func takeSnapshot(_ target: Target, title raw: String?) throws(Failure) -> [SnapshotInfo] {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        let title = try raw.flatMap { (t) throws(Failure) in try SnapshotName.checkTitle(t) }
        let (projectDir, _, project) = try snapshotHome(entry, library)
        if project.isInTrash(entry) || entry === project.trash {
            throw Failure(.inTrash, .snapshot(.inTrash(name: entry.name.string)))
        }
        var files: [Entry] = []
        switch entry.kind {
        case .file: files = [entry]
        case .directory:
            entry.walk { e in
                if e === project.trash || e === project.compiled { return false }
                if e.kind == .file { files.append(e) }
                return e.kind == .directory
            }
        case .symlink: throw Failure(.outsideWorkspace, .isLink(name: entry.name.string))
        case .other: throw Failure(.notFound, .snapshot(.notAFile(name: entry.name.string)))
        }
        var texts: [(Entry, [UInt8])] = []
        for file in files.sorted(by: { $0.path.lexicographicallyPrecedes($1.path) }) {
            texts.append((file, try readForSnapshot(file, library).bytes))
        }
        var taken: [SnapshotInfo] = []
        for (file, text) in texts {
            taken.append(try writeSnapshot(text, of: file, in: library, projectDir, project, title: title))
        }
        return taken
    }

    /// The file's text and stamp, refused with why when it is no plain file or too large.
    func readForSnapshot(_ file: Entry, _ library: Library) throws(Failure) -> (bytes: [UInt8], stamp: FileStamp) {
        guard let parent = file.parent else { throw Failure(.notFound, .notFound(path: BytePath.display(file.path))) }
        let dir = try open(parent, in: library)
        if let st = dir.stat(file.name.bytes), st.type == 1, st.size > UInt64(Self.snapshotLimit) {
            throw Failure(.io, .snapshot(.tooLarge(name: file.name.string, limit: Self.snapshotLimit)))
        }
        guard let read = dir.readText(file.name.bytes, limit: Self.snapshotLimit) else {
            throw Failure(.io, .snapshot(.unreadable(name: file.name.string)))
        }
        return read
    }

    func writeSnapshot(
        _ text: [UInt8], of file: Entry, in library: Library, _ projectDir: Directory, _ project: Project,
        title: String?
    ) throws(Failure) -> SnapshotInfo {
        guard let parts = file.components(below: project.root)?.map(\.bytes) else {
            throw Failure(.notInProject, .snapshot(.outsideProject(name: file.name.string)))
        }
        let words = WordCount.count(text, WordCount.Format(fileName: file.name.string))
        let name = SnapshotName(
            takenMs: Clock.nowMs(), device: StateFiles.deviceID(),
            random: StateFiles.hex(UInt32.random(in: 0...UInt32.max)), words: words, title: title,
            fileExtension: SnapshotName.fileExtension(of: file.name.string))
        let bytes = Array(name.fileName.utf8)
        do {
            guard let dir = try SnapshotFolder.open(project: projectDir, parts, create: true) else {
                throw Failure(.io, .snapshot(.unreadable(name: file.name.string)))
            }
            try SnapshotFolder.write(text, as: bytes, in: dir)
            return SnapshotInfo(name: name, path: BytePath.join(dir.path, bytes), of: file.path)
        } catch let e as SysError {
            throw failure(for: e)
        } catch let f as Failure {
            throw f
        } catch {
            throw Failure(.io, .snapshot(.unreadable(name: file.name.string)))
        }
    }

    /// A file's snapshots, newest first, and what its snapshot folder holds
    /// that is not one, with why.
    public func snapshots(of target: Target) throws(Failure) -> (list: [SnapshotInfo], skipped: [SkippedSnapshot]) {
        let (entry, library) = try entryTarget(target)
        guard entry.kind == .file else { throw Failure(.notFound, .snapshot(.notAFile(name: entry.name.string))) }
        let (projectDir, parts, _) = try snapshotHome(entry, library)
        let dir: Directory?
        do { dir = try SnapshotFolder.open(project: projectDir, parts, create: false) } catch {
            throw failure(for: error)
        }
        guard let dir else { return ([], []) }
        let ext = SnapshotName.fileExtension(of: entry.name.string)
        var list: [SnapshotInfo] = []
        var skipped: [SkippedSnapshot] = []
        for found in SnapshotFolder.list(dir) {
            let shown = BytePath.display(found.name)
            if let problem = Self.problem(found, ext: ext) {
                skipped.append(SkippedSnapshot(name: shown, why: problem))
            } else if let name = SnapshotName.parse(shown, ofFileWith: ext) {
                list.append(SnapshotInfo(name: name, path: BytePath.join(dir.path, found.name), of: entry.path))
            }
        }
        list.sort { ($0.name.takenMs, $0.name.fileName) > ($1.name.takenMs, $1.name.fileName) }
        skipped.sort { $0.name < $1.name }
        return (list, skipped)
    }

    static func problem(_ found: SnapshotFolder.Found, ext: String) -> SnapshotMessage.Problem? {
        guard let name = String(validating: found.name, as: UTF8.self),
            SnapshotName.parse(name, ofFileWith: ext) != nil
        else { return .notASnapshotName }
        guard let kind = found.kind else { return .unreadable("gone") }
        if kind != .file { return .notAFile(kind) }
        if found.size > snapshotLimit { return .tooLarge(snapshotLimit) }
        return nil
    }

    /// The text of the snapshot named `snapshot` of `entry`, checked as a
    /// listing checks it, and read no-follow within the limit.
    func readSnapshot(_ snapshot: String, of entry: Entry, _ library: Library) throws(Failure) -> (
        SnapshotInfo, [UInt8]
    ) {
        let (projectDir, parts, _) = try snapshotHome(entry, library)
        let ext = SnapshotName.fileExtension(of: entry.name.string)
        let missing = Failure(.notFound, .snapshot(.noSuchSnapshot(name: entry.name.string, snapshot: snapshot)))
        guard let name = SnapshotName.parse(snapshot, ofFileWith: ext) else { throw missing }
        let bytes = Array(snapshot.utf8)
        let dir: Directory?
        do { dir = try SnapshotFolder.open(project: projectDir, parts, create: false) } catch {
            throw failure(for: error)
        }
        guard let dir, let found = SnapshotFolder.list(dir).first(where: { $0.name == bytes }) else { throw missing }
        if let problem = Self.problem(found, ext: ext) {
            throw Failure(.io, .snapshot(.snapshotUnusable(snapshot: snapshot, why: problem)))
        }
        do {
            let text = try dir.readPlainFile(bytes, limit: Self.snapshotLimit)
            return (SnapshotInfo(name: name, path: BytePath.join(dir.path, bytes), of: entry.path), text)
        } catch {
            let why: SnapshotMessage.Problem =
                switch error.refusal {
                case .wrongKind(let found, _)?: .notAFile(found)
                case .tooLarge(let limit)?: .tooLarge(limit)
                default: .unreadable(error.message)
                }
            throw Failure(.io, .snapshot(.snapshotUnusable(snapshot: snapshot, why: why)))
        }
    }

    /// Words `other` (another snapshot, or the file's text on disk) adds to
    /// the snapshot and removes from it.
    public func compareSnapshot(_ target: Target, snapshot: String, other: String?) throws(Failure) -> (
        summary: WordDiff.Summary, snapshot: SnapshotInfo, other: SnapshotInfo?
    ) {
        let (entry, library) = try entryTarget(target)
        guard entry.kind == .file else { throw Failure(.notFound, .snapshot(.notAFile(name: entry.name.string))) }
        let (info, old) = try readSnapshot(snapshot, of: entry, library)
        if let other {
            let (otherInfo, new) = try readSnapshot(other, of: entry, library)
            return (WordDiff.compare(old, new), info, otherInfo)
        }
        return (WordDiff.compare(old, try readForSnapshot(entry, library).bytes), info, nil)
    }

    /// Puts the snapshot's text back in the file: first a snapshot of the
    /// text it replaces, then the text swapped in atomically, and only if
    /// the file is still what was read. Refused while an editor holds the
    /// file with unsaved changes, which the rollback would leave behind.
    public func rollBack(_ target: Target, to snapshot: String) throws(Failure) -> (Outcome, saved: SnapshotInfo) {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard entry.kind == .file, let parent = entry.parent else {
            throw Failure(.notFound, .snapshot(.notAFile(name: entry.name.string)))
        }
        let (projectDir, _, project) = try snapshotHome(entry, library)
        if project.isInTrash(entry) { throw Failure(.inTrash, .snapshot(.inTrash(name: entry.name.string))) }
        if isShowingUnsavedWords(entry) {
            throw Failure(.conflict, .snapshot(.unsavedChanges(name: entry.name.string)))
        }
        let (_, text) = try readSnapshot(snapshot, of: entry, library)
        let current = try readForSnapshot(entry, library)
        let saved = try writeSnapshot(
            current.bytes, of: entry, in: library, projectDir, project,
            title: SnapshotMessage.titleBeforeRollBack.english)
        let dir = try open(parent, in: library)
        do throws(Directory.ReplaceRefusal) {
            try dir.replaceText(entry.name.bytes, readAs: current.stamp, with: text)
        } catch {
            switch error {
            case .changedMeanwhile: throw Failure(.conflict, .snapshot(.changedMeanwhile(name: entry.name.string)))
            case .noAtomicSwap: throw Failure(.io, .snapshot(.noAtomicSwap(name: entry.name.string)))
            case .failed(let code):
                throw Failure(.io, .io(path: BytePath.display(entry.path), detail: String(cString: strerror(code))))
            }
        }
        noteReplacedText(entry, text)
        let outcome = Outcome(
            result: .item(.entry(entry, library)), changes: [Change(.changed, entry.path)],
            report: .rolledBack(name: entry.name.string, to: snapshot, saved: saved.name.fileName))
        return (outcome, saved)
    }

    /// Before Carrel replaces a closed file's text (updating its links):
    /// a snapshot of the text it replaces. Best effort: the replacement
    /// itself is checked and atomic, and a file outside projects has no
    /// snapshots.
    func snapshotBeforeReplacing(_ file: Entry, in library: Library, text: [UInt8], title: SnapshotMessage) {
        guard let (projectDir, _, project) = try? snapshotHome(file, library) else { return }
        _ = try? writeSnapshot(text, of: file, in: library, projectDir, project, title: title.english)
    }

    /// The model's word count follows the text just written.
    private func noteReplacedText(_ entry: Entry, _ text: [UInt8]) {
        setDiskWords(entry, WordCount.count(text, WordCount.Format(fileName: entry.name.string)), text: text)
    }
}

extension SnapshotMessage {
    /// Titles on disk are English whatever the writer's language, so every
    /// machine sharing a library names a snapshot alike.
    var english: String { Message.snapshot(self).text(.english) }
}
