/// The one place where project types, their sections and permanent folders
/// are declared. Adding a project type is one element of `ProjectType.all`;
/// adding a permanent folder is one `static let` and a mention in a section.

/// Text in every language Carrel ships. English is the fallback.
public struct Localized: Sendable, Hashable {
    public let en: String
    public let fr: String
    public init(en: String, fr: String) { self.en = en; self.fr = fr }
    public func callAsFunction(_ language: Language) -> String {
        switch language {
        case .english: return en
        case .french: return fr
        }
    }
}

/// A permanent folder's role: stable, English, camelCase; the wire's `role`.
public struct FolderRole: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

public struct PermanentFolder: Sendable, Hashable {
    public enum Contents: Sendable, Hashable {
        /// A real directory under the project root, with this English name.
        case directory(name: String)
        /// "All": every file of these roles' folders, listed flat.
        case filesOf([FolderRole])
        /// BLANK's "All": every file of the project outside Trash.
        case wholeProject
    }

    public let role: FolderRole
    public let title: Localized
    public let icon: String
    public let contents: Contents
    /// Where a new file created "in" a virtual folder goes; nil means the project root.
    public let newFilesGoTo: FolderRole?
    /// A manuscript folder: a new project lists it in binder order (`SortSetting.manual`),
    /// since chapters and scenes follow the story, not their names.
    public var startsInBinderOrder = false

    public var diskName: String? { if case .directory(let n) = contents { return n }; return nil }
    public var isVirtual: Bool { diskName == nil }

    /// Whether a project's folder named `name` can play this role: one
    /// Carrel made under the catalog's name, or the writer's own folder of
    /// that name in another case or Unicode spelling, which making a
    /// project adopts rather than making a twin. Never a name of another
    /// role, nor a writer's folder of any other name: whatever plays the
    /// Trash is emptied for good.
    public func accepts(_ name: String) -> Bool {
        guard let diskName else { return false }
        return NameRules.key(name) == NameRules.key(diskName)
    }

    static func directory(
        _ role: String, _ en: String, fr: String, icon: String, manuscript: Bool = false
    ) -> PermanentFolder {
        var folder = PermanentFolder(
            role: FolderRole(rawValue: role), title: Localized(en: en, fr: fr), icon: icon,
            contents: .directory(name: en), newFilesGoTo: nil)
        folder.startsInBinderOrder = manuscript
        return folder
    }
}

extension FolderRole {
    public static let all = FolderRole(rawValue: "all")
    public static let trash = FolderRole(rawValue: "trash")
    public static let draft = FolderRole(rawValue: "draft")
}

extension PermanentFolder {
    public static let allOfWriting = PermanentFolder(
        role: .all, title: Localized(en: "All", fr: "Tout"), icon: "globe",
        contents: .filesOf([
            .draft, FolderRole(rawValue: "ready"), FolderRole(rawValue: "setAside"), FolderRole(rawValue: "published"),
        ]),
        newFilesGoTo: .draft)
    public static let allOfProject = PermanentFolder(
        role: .all, title: Localized(en: "All", fr: "Tout"), icon: "globe", contents: .wholeProject, newFilesGoTo: nil)

    public static let draft = directory(
        "draft", "Draft", fr: "Brouillons", icon: "doc.badge.ellipsis", manuscript: true)
    public static let ready = directory("ready", "Ready", fr: "Prêts", icon: "checkmark.circle")
    public static let setAside = directory("setAside", "Set Aside", fr: "Mis de côté", icon: "archivebox")
    public static let published = directory("published", "Published", fr: "Publiés", icon: "book.circle")
    public static let collections = directory("collections", "Collections", fr: "Recueils", icon: "books.vertical")
    public static let submissions = directory("submissions", "Submissions", fr: "Soumissions", icon: "paperplane")
    public static let research = directory("research", "Research", fr: "Recherches", icon: "magnifyingglass")
    public static let magazines = directory("magazines", "Magazines", fr: "Revues", icon: "magazine")
    public static let competitions = directory("competitions", "Competitions", fr: "Concours", icon: "medal")
    public static let commissions = directory("commissions", "Commissions", fr: "Commandes", icon: "person.2")
    public static let other = directory("other", "Other", fr: "Autres", icon: "tray")
    public static let novel = directory("novel", "Novel", fr: "Roman", icon: "book.closed.fill")
    public static let script = directory("script", "Script", fr: "Scénario", icon: "book.closed.fill")
    public static let chapters = directory(
        "chapters", "Chapters", fr: "Chapitres", icon: "document.on.document", manuscript: true)
    public static let acts = directory(
        "acts", "Acts", fr: "Actes", icon: "document.on.document", manuscript: true)
    public static let scenes = directory(
        "scenes", "Scenes", fr: "Scènes", icon: "document.badge.plus", manuscript: true)
    public static let characters = directory("characters", "Characters", fr: "Personnages", icon: "person.circle")
    public static let locations = directory("locations", "Locations", fr: "Lieux", icon: "mountain.2")
    public static let trash = directory("trash", "Trash", fr: "Corbeille", icon: "trash")
    /// Where compiled manuscripts go. In no template and never repaired:
    /// made by the first compile. Like the Trash, its words are in no
    /// total and it is never compiled, so an output never counts twice.
    public static let compiled = directory("compiled", "Compiled", fr: "Compilés", icon: "printer")
}

public struct Section: Sendable, Hashable {
    /// The English header, which is the wire's `name`.
    public let header: String
    public let title: Localized
    public let folders: [PermanentFolder]

    public init(_ en: String, fr: String, _ folders: [PermanentFolder]) {
        self.header = en
        self.title = Localized(en: en, fr: fr)
        self.folders = folders
    }

    static let writing: [PermanentFolder] = [
        .allOfWriting, .draft, .ready, .setAside, .published, .collections, .submissions, .research,
    ]
    static let trash = Section("TRASH", fr: "CORBEILLE", [.trash])
    /// Where short pieces go out into the world.
    static let publications = Section(
        "PUBLICATIONS", fr: "PUBLICATIONS", [.magazines, .competitions, .commissions, .other])
    static let yourNovel = Section(
        "YOUR NOVEL", fr: "VOTRE ROMAN", [.novel, .chapters, .scenes, .characters, .locations, .setAside, .research])
    static let yourScript = Section(
        "YOUR SCRIPT", fr: "VOTRE SCÉNARIO", [.script, .acts, .scenes, .characters, .locations, .setAside, .research])
    /// Book-length work is not sent to magazines.
    static let bookPublications = Section("PUBLICATIONS", fr: "PUBLICATIONS", [.competitions, .commissions, .other])
}

public struct ProjectType: Sendable, Hashable, CustomStringConvertible {
    /// The wire and CLI word: `blank | poetry | shortStory | novel | script`.
    public let id: String
    public let title: Localized
    public let sections: [Section]

    public var description: String { id }

    /// Every project type. Each ends with the TRASH section.
    public static let all: [ProjectType] = [
        ProjectType(
            id: "blank", title: Localized(en: "Blank", fr: "Vierge"),
            sections: [Section("BLANK", fr: "VIERGE", [.allOfProject]), .trash]),
        ProjectType(
            id: "poetry", title: Localized(en: "Poetry", fr: "Poésie"),
            sections: [Section("YOUR POETRY", fr: "VOS POÈMES", Section.writing), .publications, .trash]),
        ProjectType(
            id: "shortStory", title: Localized(en: "Short Story", fr: "Nouvelle"),
            sections: [Section("YOUR STORIES", fr: "VOS NOUVELLES", Section.writing), .publications, .trash]),
        ProjectType(
            id: "novel", title: Localized(en: "Novel", fr: "Roman"), sections: [.yourNovel, .bookPublications, .trash]),
        ProjectType(
            id: "script", title: Localized(en: "Script", fr: "Scénario"),
            sections: [.yourScript, .bookPublications, .trash]),
    ]

    public static func named(_ id: String) -> ProjectType? { all.first { $0.id == id } }
    public static var ids: [String] { all.map(\.id) }

    /// A type as a writer may type it: its id or its title in any case,
    /// with spaces, hyphens or underscores ("Short Story", `short-story`).
    public static func matching(_ word: String) -> ProjectType? {
        func key(_ s: String) -> String {
            String(s.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
        }
        let wanted = key(word)
        return all.first { [$0.id, $0.title.en, $0.title.fr].contains { key($0) == wanted } }
    }

    /// Permanent folders in template order.
    public var folders: [PermanentFolder] { sections.flatMap(\.folders) }
    /// Permanent folders that exist on disk, in template order.
    public var directories: [PermanentFolder] { folders.filter { !$0.isVirtual } }
    public func folder(_ role: FolderRole) -> PermanentFolder? { folders.first { $0.role == role } }
}

/// Icons (SF Symbol names) of things that are not permanent folders.
public enum Icon {
    public static let folder = "folder"
    public static let file = "doc.text"
    public static let project = "folder.badge.person.crop"
    public static let library = "books.vertical"
}

/// The sort choices every client offers, in menu order, with their titles.
public struct SortChoice: Sendable {
    public let setting: SortSetting
    public let title: Localized

    public static let all: [SortChoice] =
        [
            SortChoice(setting: .manual, title: Localized(en: "Binder order", fr: "Ordre du classeur")),
            SortChoice(setting: SortSetting(by: .name), title: Localized(en: "Name, A to Z", fr: "Nom, de A à Z")),
            SortChoice(
                setting: SortSetting(by: .name, descending: true),
                title: Localized(en: "Name, Z to A", fr: "Nom, de Z à A")),
        ]
        + byDate(.modified, Localized(en: "Date Modified", fr: "Date de modification"))
        + byDate(.created, Localized(en: "Date Created", fr: "Date de création"))

    /// Newest first, then oldest first: the order writers look for recent work in.
    private static func byDate(_ key: SortKey, _ date: Localized) -> [SortChoice] {
        [
            SortChoice(
                setting: SortSetting(by: key, descending: true),
                title: Localized(en: "\(date.en), Newest First", fr: "\(date.fr), la plus récente d’abord")),
            SortChoice(
                setting: SortSetting(by: key),
                title: Localized(en: "\(date.en), Oldest First", fr: "\(date.fr), la plus ancienne d’abord")),
        ]
    }
}

extension FolderRole {
    public static let ready = FolderRole(rawValue: "ready")
    public static let chapters = FolderRole(rawValue: "chapters")
    public static let acts = FolderRole(rawValue: "acts")
    public static let compiled = FolderRole(rawValue: "compiled")
}

/// Each project type's compile recipes, the first its default. A writer's
/// recipe file names one of these as its `base` and changes what it says.
extension ProjectType {
    public var recipes: [CompileRecipe] {
        switch id {
        case "novel":
            return [
                CompileRecipe(
                    name: "manuscript", title: Localized(en: "Standard manuscript", fr: "Manuscrit standard"),
                    style: .manuscript, format: .docx, folders: [.chapters], folderTitles: true, fileTitles: false,
                    separator: "#", pageBreaks: .folders),
                CompileRecipe(
                    name: "ebook", title: Localized(en: "E-book", fr: "Livre numérique"), style: .manuscript,
                    format: .epub, folders: [.chapters], folderTitles: true, fileTitles: false, separator: "* * *",
                    pageBreaks: .folders, titlePage: false),
            ]
        case "shortStory":
            return [
                CompileRecipe(
                    name: "manuscript", title: Localized(en: "Standard manuscript", fr: "Manuscrit standard"),
                    style: .manuscript, format: .docx, folders: [.draft], folderTitles: false, fileTitles: false,
                    separator: "#", pageBreaks: .none, forSubmission: true)
            ]
        case "poetry":
            return [
                CompileRecipe(
                    name: "packet", title: Localized(en: "Submission packet", fr: "Dossier de soumission"),
                    style: .packet, format: .docx, folders: [.ready], folderTitles: false, fileTitles: true,
                    separator: "", pageBreaks: .files, contents: true, forSubmission: true)
            ]
        case "script":
            return [
                CompileRecipe(
                    name: "script", title: Localized(en: "Screenplay", fr: "Scénario"), style: .script,
                    format: .fountain, folders: [.acts], folderTitles: false, fileTitles: false, separator: "",
                    pageBreaks: .none)
            ]
        default:
            return [
                CompileRecipe(
                    name: "manuscript", title: Localized(en: "Manuscript", fr: "Manuscrit"), style: .manuscript,
                    format: .markdown, folders: [], folderTitles: true, fileTitles: true, separator: "* * *",
                    pageBreaks: .folders)
            ]
        }
    }
}
