import CarrelModel
import CarrelStore

/// One row of the binder: a real entry, a project's section header, or its virtual "All".
public enum Item {
    case entry(Entry, Library)
    case section(Project, index: Int, Library)
    case all(Project, Library)
}

public enum NodeKind: String, Sendable { case library, project, section, folder, file }

/// Everything a client is told about one row. The Server turns it into JSON.
public struct NodeInfo {
    public var path: [UInt8]?
    public var name: String
    public var title: String
    public var kind: NodeKind
    public var role: FolderRole?
    public var icon: String
    public var permanent = false
    public var virtual = false
    public var projectType: String?
    public var folderCount = 0
    public var fileCount = 0
    public var created: Int64?
    public var modified: Int64?
    public var inTrash = false
    /// Left out of compiling, itself (project.json's `leftOut`).
    public var leftOut = false
    public var link = false
    public var unreadable = false
    /// On projects and libraries: whether deleting asks first.
    public var confirmDelete = true
    /// On a project's or library's row: whether a move updates the links it breaks.
    public var linkUpdates = LinkUpdates.ask
    /// Files below a row, each counted once, as the rows under it add up:
    /// a folder's whole subtree; a section's folders (not "All", which
    /// repeats them); a project's sections but its Trash; a library's rows.
    /// Nil on files.
    public var fileTotal: Int?
    /// Sync engines' conflict copies below a row, counted as `fileTotal`
    /// counts files (and apart from them); nil when there are none.
    public var conflictTotal: Int?
    /// On a conflict copy: the name of the file it is a copy of, in the same folder.
    public var conflictOf: String?
    /// The first scan has not read everything below the row yet: its
    /// counts are partial (see `Workspace+DeepScan.swift`).
    public var counting = false
    /// Words in the row, summed like `fileTotal` (Trash apart); nil until
    /// every file it sums is counted.
    public var words: Int?
    /// The file's words are those of an open buffer not saved yet.
    public var wordsUnsaved = false
    /// The writer's word target for the row (project.json).
    public var target: Int?
    /// On projects: today's words on this device and the day's target.
    public var sessionWords: Int?
    public var sessionTarget: Int?
    /// A piece's submissions, or a market's.
    public var submissions: SubmissionTally?
    public var submissionsAtMarket = false

    /// Everything the summary says, for `CountWords.summary`.
    public var counts: CountWords.Counts {
        // Words below a row the first scan is still reading would be partial: none until it is read.
        var c = CountWords.Counts(files: fileTotal, words: counting ? nil : words, target: target)
        c.conflicts = conflictTotal ?? 0
        c.conflictCopy = conflictOf != nil
        c.counting = counting
        c.wordsUnsaved = wordsUnsaved
        c.sessionWords = sessionWords
        c.sessionTarget = sessionTarget
        c.leftOut = leftOut
        c.submissions = submissions
        c.submissionsAtMarket = submissionsAtMarket
        return c
    }
}

/// Words of several subtrees added up, and whether all of them are counted.
struct WordSum {
    var words = 0
    var uncounted: Int32 = 0

    mutating func add(_ e: Entry) {
        words += e.wordTotal
        uncounted += e.uncountedFiles
    }

    mutating func subtract(_ e: Entry?) {
        guard let e else { return }
        words -= e.wordTotal
        uncounted -= e.uncountedFiles
    }

    var value: Int? { uncounted == 0 ? words : nil }
}

public let sectionIcon = "list.bullet"

private func scopeProject(_ item: Item) -> Project? {
    if case .section(let p, _, _) = item { return p }
    return nil
}

/// Where an entry sits: its library, its project, whether it is in Trash.
/// Rendering a subtree carries it down, so no node walks up to find it.
public struct Scope {
    public let library: Library
    public let project: Project?
    public let inTrash: Bool
}

extension Workspace {
    public func describe(_ item: Item, _ language: Language) -> NodeInfo {
        switch item {
        case .section(let project, let index, _):
            let section = project.type.sections[index]
            var info = NodeInfo(
                path: nil, name: section.header, title: section.title(language), kind: .section, icon: sectionIcon)
            info.permanent = true
            info.virtual = true
            var total = 0
            var conflicts = 0
            var words = WordSum()
            for child in children(item) {
                count(child, into: &info)
                if case .entry(let e, let library) = child, e.kind != .symlink {
                    total += e.fileTotal
                    conflicts += Int(e.conflictTotal)
                    if library.isCounting(e) { info.counting = true }
                    words.add(e)
                    if let p = scopeProject(item), e === p.compiled { words.subtract(e) }
                }
            }
            info.fileTotal = total
            info.conflictTotal = conflicts > 0 ? conflicts : nil
            info.words = words.value
            return info
        case .all(let project, let library):
            let folder = project.type.folder(.all) ?? .allOfWriting
            var info = NodeInfo(
                path: project.root.path + [UInt8(ascii: "/")] + Array(".carrel/all".utf8),
                name: folder.title.en, title: folder.title(language), kind: .folder, role: .all, icon: folder.icon)
            info.permanent = true
            info.virtual = true
            info.fileCount = allFileCount(project, folder)
            info.fileTotal = info.fileCount
            info.counting = library.isCounting(project.root)
            info.words = allWords(project, folder).value
            return info
        case .entry(let entry, let library):
            return describe(entry, library, language)
        }
    }

    private func count(_ item: Item, into info: inout NodeInfo) {
        switch item {
        case .section, .all: info.folderCount += 1
        case .entry(let e, _): if e.isFolderLike { info.folderCount += 1 } else { info.fileCount += 1 }
        }
    }

    func describe(_ entry: Entry, _ library: Library, _ language: Language) -> NodeInfo {
        var info = describe(entry, scope(of: entry, in: library), language)
        info.path = entry.path
        return info
    }

    public func scope(of entry: Entry, in library: Library) -> Scope {
        let project = library.project(containing: entry)
        return Scope(library: library, project: project, inTrash: project?.isInTrash(entry) ?? false)
    }

    /// The scope of `child`, from its parent's.
    public func scope(ofChild child: Entry, parent: Entry, _ scope: Scope) -> Scope {
        let project = scope.library.project(at: child) ?? scope.project
        let inTrash =
            scope.inTrash
            || (scope.project != nil && scope.project?.root === parent.parent && scope.project?.trash === parent)
        return Scope(library: scope.library, project: project, inTrash: inTrash)
    }

    public func describe(_ entry: Entry, _ scope: Scope, _ language: Language) -> NodeInfo {
        let library = scope.library
        let name = entry === library.root ? library.displayName : entry.name.string
        // No path here: building it walks every ancestor, and renderers build URIs from their parent's.
        var info = NodeInfo(
            path: nil, name: name, title: name, kind: entry.isFolderLike ? .folder : .file,
            icon: entry.isFolderLike ? Icon.folder : Icon.file)
        info.created = entry.created >= 0 ? entry.created : nil
        info.modified = entry.modified
        info.folderCount = entry.folderCount
        info.fileCount = entry.fileCount
        info.conflictOf = entry.conflictOf
        info.link = entry.kind == .symlink
        info.unreadable = entry.unreadable
        if info.link { info.folderCount = 0; info.fileCount = 0 }
        var conflicts = 0
        if entry.isFolderLike {
            info.fileTotal = info.link ? 0 : entry.fileTotal
            conflicts = info.link ? 0 : Int(entry.conflictTotal)
        }
        info.counting = library.isCounting(entry)
        if entry.isFolderLike { info.fileTotal = info.link ? 0 : entry.fileTotal }
        if !info.link, entry.wordsCounted { info.words = entry.wordTotal }
        if let project = library.project(at: entry) {
            info.kind = .project
            info.icon = Icon.project
            info.projectType = project.type.id
            info.confirmDelete = project.metadata.confirmDelete
            info.linkUpdates = project.metadata.linkUpdates
            info.fileTotal = project.root.fileTotal - (project.trash?.fileTotal ?? 0)
            conflicts = Int(project.root.conflictTotal - (project.trash?.conflictTotal ?? 0))
            var words = WordSum()
            words.add(project.root)
            words.subtract(project.trash)
            words.subtract(project.compiled)
            info.words = words.value
            info.target = project.metadata.targets[ProjectMetadata.projectTargetKey]
            let session = sessions.session(of: project, words: info.words)
            info.sessionWords = session.words
            info.sessionTarget = session.target
        } else if entry === library.root {
            info.kind = library.lockedProjects[ObjectIdentifier(entry)] == nil ? .library : .project
            info.icon = info.kind == .library ? Icon.library : Icon.project
            info.confirmDelete = library.settings.confirmDelete
            info.linkUpdates = library.settings.linkUpdates
            info.fileTotal = library.fileTotalOutsideTrash
            conflicts = library.conflictTotalOutsideTrash
            var words = WordSum()
            words.add(entry)
            for p in library.projects.values {
                words.subtract(p.trash)
                words.subtract(p.compiled)
            }
            info.words = words.value
        } else if library.lockedProjects[ObjectIdentifier(entry)] != nil {
            info.kind = .project
            info.icon = Icon.project
        } else if let project = scope.project {
            if entry.parent === project.root, let folder = project.permanentFolder(for: entry) {
                info.role = folder.role
                info.title = folder.title(language)
                info.icon = folder.icon
                info.permanent = true
            }
            info.inTrash = scope.inTrash
            // The path is built only when the project has targets: the full
            // tree renders 130,000 rows, and most projects have none.
            if !project.metadata.targets.isEmpty || !project.metadata.leftOut.isEmpty {
                let path = project.relativePath(of: entry)
                info.target = project.metadata.targets[path]
                info.leftOut = project.metadata.leftOut.contains(path)
            }
            if !scope.inTrash, project.type.folder(PermanentFolder.submissions.role) != nil,
                let (tally, atMarket) = submissionTally(entry, in: project)
            {
                info.submissions = tally
                info.submissionsAtMarket = atMarket
            }
        }
        info.conflictTotal = conflicts > 0 ? conflicts : nil
        info.wordsUnsaved = entry.kind == .file && !unsavedWords.isEmpty && isShowingUnsavedWords(entry)
        return info
    }

    func allWords(_ project: Project, _ folder: PermanentFolder) -> WordSum {
        var words = WordSum()
        switch folder.contents {
        case .wholeProject:
            words.add(project.root)
            words.subtract(project.trash)
            words.subtract(project.compiled)
        case .filesOf(let roles):
            for e in roles.compactMap({ project.type.folder($0).flatMap(project.entry(for:)) }) { words.add(e) }
        case .directory:
            break
        }
        return words
    }

    func allFileCount(_ project: Project, _ folder: PermanentFolder) -> Int {
        switch folder.contents {
        case .wholeProject:
            return project.root.fileTotal - (project.trash?.fileTotal ?? 0)
        case .filesOf(let roles):
            return roles.compactMap { project.type.folder($0).flatMap(project.entry(for:)) }.reduce(0) {
                $0 + $1.fileTotal
            }
        case .directory:
            return 0
        }
    }

    public func hasChildren(_ item: Item) -> Bool {
        switch item {
        case .section: return true
        case .all(let p, _): return allFileCount(p, p.type.folder(.all) ?? .allOfWriting) > 0
        case .entry(let e, let library):
            if library.project(at: e) != nil { return true }
            // Not read yet: it may hold something, and fetching it reads it.
            if library.isPending(e) { return true }
            return e.kind == .directory && !e.children.isEmpty
        }
    }

    /// The sort setting in force for things inside `entry`.
    public func order(for entry: Entry, in library: Library) -> SortSetting {
        library.sort(inside: entry, library.project(containing: entry))
    }

    /// Children in display order.
    public func children(_ item: Item) -> [Item] {
        switch item {
        case .entry(let entry, let library):
            guard entry.kind == .directory else { return [] }
            if let project = library.project(at: entry) {
                return project.type.sections.indices.map { .section(project, index: $0, library) }
            }
            let sorted = library.displayOrder(of: entry, in: library.project(containing: entry))
            if entry === library.root {
                let projects = sorted.filter {
                    library.project(at: $0) != nil || library.lockedProjects[ObjectIdentifier($0)] != nil
                }
                let rest = sorted.filter {
                    library.project(at: $0) == nil && library.lockedProjects[ObjectIdentifier($0)] == nil
                }
                return (projects + rest).map { .entry($0, library) }
            }
            return sorted.map { .entry($0, library) }
        case .section(let project, let index, let library):
            var items: [Item] = []
            for folder in project.type.sections[index].folders {
                if folder.isVirtual {
                    items.append(.all(project, library))
                } else if let e = project.entry(for: folder) {
                    items.append(.entry(e, library))
                }
            }
            if index == 0 {
                let permanent = Set(
                    project.type.directories.compactMap { project.entry(for: $0) }.map(ObjectIdentifier.init))
                for e in library.displayOrder(of: project.root, in: project)
                where !permanent.contains(ObjectIdentifier(e)) {
                    items.append(.entry(e, library))
                }
            }
            return items
        case .all(let project, let library):
            return project.allFiles(under: library.root, in: library).map { .entry($0, library) }
        }
    }

    /// Root items: one per library.
    public var roots: [Item] { libraries.map { .entry($0.root, $0) } }

    /// The breadcrumb above `entry`, from its project (or library) down to its parent.
    public func breadcrumb(_ entry: Entry, _ library: Library, _ language: Language) -> [String] {
        var names: [String] = []
        let project = library.project(containing: entry)
        for e in entry.lineage.dropLast() {
            // Inside a project the breadcrumb starts at the project; the
            // project itself, like any folder beside it, sits in the library.
            if e === library.root, let p = project, p.root !== e, p.root !== entry { continue }
            if let p = project, let folder = p.permanentFolder(for: e) {
                names.append(folder.title(language)); continue
            }
            names.append(e === library.root ? library.displayName : e.name.string)
        }
        return names
    }
}
