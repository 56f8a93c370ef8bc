/// What compiling says to the writer, in English and French.
public enum CompileMessage: Sendable, Equatable {
    case notAProject(name: String)
    case outsideProject(name: String)
    case unknownRecipe(given: String, known: String)
    case unknownFormat(given: String, known: String)
    case recipeUnusable(name: String, why: String)
    /// An item in the recipe's folders that cannot go into a manuscript.
    case pieceUnusable(path: String, why: PieceProblem)
    case pandocMissing(format: String)
    case pandocFailed(status: Int32, detail: String)
    case noPDFEngine
    /// The disk (or the writer's quota, or a file size limit) had no room for the document.
    case noRoom(folder: String, why: String)
    case nothingToCompile(project: String, folders: String)
    case leftOut(path: String, leftOut: Bool)

    public enum PieceProblem: Sendable, Equatable {
        case link, notUTF8, binary
        case notAFile(String)
        case tooLarge(Int)
        case unreadable(String)

        var words: (String, String) {
            switch self {
            case .link: return ("it is a symbolic link", "c’est un lien symbolique")
            case .notAFile(let what): return ("it is \(what), not a file", "c’est \(what), pas un fichier")
            case .notUTF8: return ("it is not UTF-8 text", "ce n’est pas du texte UTF-8")
            case .binary:
                return ("it is not text (it holds NUL bytes)", "ce n’est pas du texte (il contient des octets nuls)")
            case .tooLarge(let limit):
                return (
                    "it is larger than \(limit) bytes, the most Carrel reads",
                    "il dépasse \(limit) octets, le plus que Carrel lit"
                )
            case .unreadable(let why): return ("it cannot be read (\(why))", "il ne peut pas être lu (\(why))")
            }
        }
    }

    var pair: (String, String?) {
        switch self {
        case .notAProject(let name):
            return (
                "“\(name)” is not a project: compile the project that holds it. Nothing was written.",
                "« \(name) » n’est pas un projet : compilez le projet qui le contient. Rien n’a été écrit."
            )
        case .outsideProject(let name):
            return (
                "“\(name)” is not in a project, and only a project’s writing is compiled. Nothing was changed.",
                "« \(name) » n’est dans aucun projet, et seule l’écriture d’un projet est compilée. Rien n’a changé."
            )
        case .unknownRecipe(let given, let known):
            return (
                "This project has no compile recipe “\(given)”; it has: \(known). Nothing was written.",
                "Ce projet n’a pas de recette de compilation « \(given) » ; il a : \(known). Rien n’a été écrit."
            )
        case .unknownFormat(let given, let known):
            return (
                "Carrel cannot compile to “\(given)”; it compiles to: \(known). Nothing was written.",
                "Carrel ne sait pas compiler en « \(given) » ; il compile en : \(known). Rien n’a été écrit."
            )
        case .recipeUnusable(let name, let why):
            return (
                "The compile recipe “\(name)” (.carrel/recipes/\(name).json) cannot be used: \(why). Fix or remove the file; nothing was written.",
                "La recette de compilation « \(name) » (.carrel/recipes/\(name).json) est inutilisable : \(why). Corrigez ou supprimez le fichier ; rien n’a été écrit."
            )
        case .pieceUnusable(let path, let why):
            return (
                "Carrel cannot compile “\(path)”: \(why.words.0). Leave it out of compile or fix it; nothing was written.",
                "Carrel ne peut pas compiler « \(path) » : \(why.words.1). Laissez-le hors de la compilation ou corrigez-le ; rien n’a été écrit."
            )
        case .pandocMissing(let format):
            return (
                "Compiling to \(format) needs pandoc, which is not installed (it is not on PATH). Install it with “sudo apt-get install pandoc”, or from pandoc.org; nothing was written.",
                "Compiler en \(format) demande pandoc, qui n’est pas installé (il n’est pas dans le PATH). Installez-le avec « sudo apt-get install pandoc », ou depuis pandoc.org ; rien n’a été écrit."
            )
        case .pandocFailed(let status, let detail):
            return (
                "pandoc failed (exit status \(status))\(detail.isEmpty ? "" : ": \(detail)"). Nothing was written.",
                "pandoc a échoué (code de sortie \(status))\(detail.isEmpty ? "" : " : \(detail)"). Rien n’a été écrit."
            )
        case .noPDFEngine:
            return (
                "PDF needs a PDF engine for pandoc (pdflatex, xelatex, lualatex, wkhtmltopdf or weasyprint), and none is installed. Compile to DOCX or ODT and export a PDF from your word processor; nothing was written.",
                "Le PDF demande un moteur PDF pour pandoc (pdflatex, xelatex, lualatex, wkhtmltopdf ou weasyprint), et aucun n’est installé. Compilez en DOCX ou ODT et exportez le PDF depuis votre traitement de texte ; rien n’a été écrit."
            )
        case .noRoom(let folder, let why):
            return (
                "There is no room to write the compiled document in “\(folder)” (\(why)). Free some space and compile again; nothing was written.",
                "Il n’y a pas la place d’écrire le document compilé dans « \(folder) » (\(why)). Libérez de l’espace et recompilez ; rien n’a été écrit."
            )
        case .nothingToCompile(let project, let folders):
            return (
                "Nothing to compile in “\(project)”: \(folders) holds no writing that is not left out. Nothing was written.",
                "Rien à compiler dans « \(project) » : \(folders) ne contient aucun texte qui ne soit laissé de côté. Rien n’a été écrit."
            )
        case .leftOut(let path, let leftOut):
            return leftOut
                ? ("\(path) is left out of compile now.", "\(path) est désormais laissé hors de la compilation.")
                : ("\(path) is compiled now.", "\(path) est désormais compilé.")
        }
    }
}
