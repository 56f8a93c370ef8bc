/// How a project becomes one document: what goes in, how it is laid out,
/// and in which format. The defaults of each project type are declared in
/// the catalog (`ProjectType.recipes`); a writer's own recipe starts from
/// one of them and changes what it says (`CarrelStore/RecipeFile.swift`).
public struct CompileRecipe: Sendable, Equatable {
    /// The layout a recipe follows, which decides the title page and what is counted.
    public enum Style: String, Sendable, CaseIterable {
        /// Standard manuscript format (Shunn): contact block, rounded word
        /// count, title and byline, chapters on new pages.
        case manuscript
        /// Poems for a magazine or a competition: a contents page, each poem
        /// on a new page under its title, lines counted.
        case packet
        /// Fountain files one after another, under a Fountain title page.
        case script
    }

    public enum Format: String, Sendable, CaseIterable {
        case markdown, text, html, fountain, docx, odt, epub, pdf

        public var fileExtension: String {
            switch self {
            case .markdown: return "md"
            case .text: return "txt"
            default: return rawValue
            }
        }

        /// Made by pandoc from Markdown Carrel writes; the others Carrel writes itself.
        public var needsPandoc: Bool {
            switch self {
            case .docx, .odt, .epub, .pdf: return true
            case .markdown, .text, .html, .fountain: return false
            }
        }

        public var title: Localized {
            switch self {
            case .markdown: return Localized(en: "Markdown", fr: "Markdown")
            case .text: return Localized(en: "Plain text", fr: "Texte brut")
            case .html: return Localized(en: "Web page (HTML)", fr: "Page web (HTML)")
            case .fountain: return Localized(en: "Fountain", fr: "Fountain")
            case .docx: return Localized(en: "Word (DOCX)", fr: "Word (DOCX)")
            case .odt: return Localized(en: "OpenDocument (ODT)", fr: "OpenDocument (ODT)")
            case .epub: return Localized(en: "EPUB e-book", fr: "Livre numérique EPUB")
            case .pdf: return Localized(en: "PDF", fr: "PDF")
            }
        }
    }

    /// What starts on a new page (in formats that have pages).
    public enum PageBreaks: String, Sendable, CaseIterable {
        case none, folders, files
    }

    /// The recipe's name: a built-in one's, or its file's name without `.json`.
    public var name: String
    public var title: Localized
    public var style: Style
    public var format: Format
    /// The permanent folders whose contents go in, by role, in this order;
    /// empty means the whole project (Blank), less the Trash and Compiled.
    public var folders: [FolderRole]
    /// Each folder's name as a heading, one level deeper per folder level.
    public var folderTitles: Bool
    /// Each file's name, without its extension, as a heading.
    public var fileTitles: Bool
    /// Written between two files of one folder ("#" is a scene break); empty for none.
    public var separator: String
    public var pageBreaks: PageBreaks
    public var titlePage: Bool
    /// A table of contents after the title page.
    public var contents: Bool
    /// What it makes is sent to markets (a poetry packet, a story's
    /// manuscript), so a client offers to submit it once compiled.
    public var forSubmission: Bool

    public init(
        name: String, title: Localized, style: Style, format: Format, folders: [FolderRole],
        folderTitles: Bool, fileTitles: Bool, separator: String, pageBreaks: PageBreaks, titlePage: Bool = true,
        contents: Bool = false, forSubmission: Bool = false
    ) {
        self.name = name
        self.title = title
        self.style = style
        self.format = format
        self.folders = folders
        self.folderTitles = folderTitles
        self.fileTitles = fileTitles
        self.separator = separator
        self.pageBreaks = pageBreaks
        self.titlePage = titlePage
        self.contents = contents
        self.forSubmission = forSubmission
    }

    /// The longest separator a recipe may give: a line, not a chapter.
    public static let maxSeparator = 80
}

/// How a manuscript's title page rounds its word count.
///
/// Shunn's "Proper Manuscript Format" for short stories (shunn.net/format,
/// 2021 text): "round to the nearest hundred … If you're edging into
/// novella territory, round to the nearest 500"; we take novella territory
/// from 17,500 words, where SFWA's novella begins. For novels the same
/// guide's novel version rounds coarser; we round to the nearest 1,000,
/// the usual practice, since its exact wording could not be checked here.
public enum WordRounding: Sendable {
    case shortFiction, novel

    public func round(_ words: Int) -> Int {
        guard words > 0 else { return 0 }
        let unit: Int
        switch self {
        case .shortFiction: unit = words >= 17_500 ? 500 : 100
        case .novel: unit = 1000
        }
        // Never rounded down to nothing: a 30-word piece is "about 100 words".
        return max(unit, (words + unit / 2) / unit * unit)
    }
}
