/// What submissions tracking says to the writer, in English and French.
public enum SubmissionMessage: Sendable, Equatable {
    case notAMarket(name: String)
    case badField(field: String, given: String)
    case pieceNotAFile(name: String)
    case pieceElsewhere(name: String, project: String)
    case pieceInTrash(name: String)
    case noPieces
    case tooManyPieces(limit: Int)
    case recordNotFound(id: String)
    case recordUnusable(id: String, why: String)
    case pieceNotInRecord(id: String, piece: String)
    case marketFileUnusable(path: String, why: String)
    /// Why a record was skipped in a listing.
    case skipped(name: String, why: String)
    case confirmSimultaneous(market: String, pieces: String, elsewhere: String)
    case actionSubmitAnyway
    /// The CLI's question went unanswered.
    case noAnswerToSubmit
    /// A CSV import: how many rows became submissions, and each row left out.
    case imported(count: Int)
    case importRowSkipped(line: Int, why: ImportSkip)

    /// Why a row of an imported CSV was left out.
    public enum ImportSkip: Sendable, Equatable {
        case csv(ChillsubsCSV.Problem)
        case noPiece(title: String)
        case ambiguousPiece(title: String, count: Int)
        case noMarket(publisher: String)
        case alreadyRecorded

        var pair: (String, String) {
            switch self {
            case .csv(.missingColumn(let c)):
                return ("the file has no “\(c)” column", "le fichier n’a pas de colonne « \(c) »")
            case .csv(.tooManyRows(let n)):
                return ("a file holds at most \(n) rows", "un fichier contient au plus \(n) lignes")
            case .csv(.emptyField(let c)): return ("its “\(c)” is empty", "sa colonne « \(c) » est vide")
            case .csv(.badDate(let d)):
                return (
                    "“\(d)” is not a date (YYYY-MM-DD or M/D/YYYY)",
                    "« \(d) » n’est pas une date (AAAA-MM-JJ ou M/J/AAAA)"
                )
            case .csv(.badStatus(let s)):
                return ("“\(s)” is not a status Carrel knows", "« \(s) » n’est pas un statut connu")
            case .csv(.fieldTooLong(let c)): return ("its “\(c)” is too long", "sa colonne « \(c) » est trop longue")
            case .noPiece(let t):
                return ("no file of the project is named “\(t)”", "aucun fichier du projet ne s’appelle « \(t) »")
            case .ambiguousPiece(let t, let n):
                return ("\(n) files of the project are named “\(t)”", "\(n) fichiers du projet s’appellent « \(t) »")
            case .noMarket(let p):
                return (
                    "no market is named “\(p)”: make its folder in Magazines, Competitions, Commissions or Other first",
                    "aucun débouché ne s’appelle « \(p) » : créez d’abord son dossier dans Revues, Concours, Commandes ou Autres"
                )
            case .alreadyRecorded: return ("it is recorded already", "elle est déjà enregistrée")
            }
        }
    }
    case notAccepted(piece: String)

    var pair: (String, String?) {
        switch self {
        case .notAMarket(let name):
            return (
                "“\(name)” is not a market: a market is a folder in Magazines, Competitions, Commissions or Other. Nothing was changed.",
                "« \(name) » n’est pas un débouché : un débouché est un dossier de Revues, Concours, Commandes ou Autres. Rien n’a été modifié."
            )
        case .badField(let field, let given):
            return (
                "“\(given)” is not a valid \(field): dates are written YYYY-MM-DD, simultaneous is yes or no, and text is at most 500 characters (notes 4,000). Nothing was changed.",
                "« \(given) » n’est pas une valeur valable pour \(field) : les dates s’écrivent AAAA-MM-JJ, simultaneous vaut yes ou no, et un texte a au plus 500 caractères (les notes 4 000). Rien n’a été modifié."
            )
        case .pieceNotAFile(let name):
            return (
                "“\(name)” is not a file: submit the files of your writing, one by one. Nothing was recorded.",
                "« \(name) » n’est pas un fichier : soumettez les fichiers de vos textes, un par un. Rien n’a été enregistré."
            )
        case .pieceElsewhere(let name, let project):
            return (
                "“\(name)” is not in “\(project)”, the market’s project: a submission records pieces of one project. Nothing was recorded.",
                "« \(name) » n’est pas dans « \(project) », le projet du débouché : une soumission enregistre les textes d’un seul projet. Rien n’a été enregistré."
            )
        case .pieceInTrash(let name):
            return (
                "“\(name)” is in the Trash. Restore it first, then submit it. Nothing was recorded.",
                "« \(name) » est dans la Corbeille. Restaurez-le d’abord, puis soumettez-le. Rien n’a été enregistré."
            )
        case .noPieces:
            return (
                "Name at least one piece to submit. Nothing was recorded.",
                "Nommez au moins un texte à soumettre. Rien n’a été enregistré."
            )
        case .tooManyPieces(let limit):
            return (
                "One submission holds at most \(limit) pieces. Nothing was recorded.",
                "Une soumission contient au plus \(limit) textes. Rien n’a été enregistré."
            )
        case .recordNotFound(let id):
            return (
                "No submission “\(id)” in this project. Nothing was changed.",
                "Aucune soumission « \(id) » dans ce projet. Rien n’a été modifié."
            )
        case .recordUnusable(let id, let why):
            return (
                "The submission record “\(id)” cannot be used: \(why). Nothing was changed.",
                "L’enregistrement de soumission « \(id) » est inutilisable : \(why). Rien n’a été modifié."
            )
        case .pieceNotInRecord(let id, let piece):
            return (
                "The submission “\(id)” holds no piece “\(piece)”. Nothing was changed.",
                "La soumission « \(id) » ne contient pas de texte « \(piece) ». Rien n’a été modifié."
            )
        case .marketFileUnusable(let path, let why):
            return (
                "\(path) holds the market’s details but cannot be used: \(why). Move it aside; nothing was changed.",
                "\(path) contient les détails du débouché mais est inutilisable : \(why). Déplacez-le ; rien n’a été modifié."
            )
        case .skipped(let name, let why):
            return (
                "Skipped the submission record \(name): \(why).",
                "Enregistrement de soumission \(name) ignoré : \(why)."
            )
        case .confirmSimultaneous(let market, let pieces, let elsewhere):
            return (
                "“\(market)” does not take simultaneous submissions, and “\(pieces)” is still out at “\(elsewhere)”. Submit anyway?",
                "« \(market) » n’accepte pas les soumissions simultanées, et « \(pieces) » est encore soumis à « \(elsewhere) ». Soumettre quand même ?"
            )
        case .actionSubmitAnyway:
            return ("Submit Anyway", "Soumettre quand même")
        case .imported(let count):
            return (
                "Imported \(count) \(count == 1 ? "submission" : "submissions").",
                "\(count) \(count == 1 ? "soumission importée" : "soumissions importées")."
            )
        case .importRowSkipped(let line, let why):
            return ("Line \(line) was not imported: \(why.pair.0).", "Ligne \(line) non importée : \(why.pair.1).")
        case .noAnswerToSubmit:
            return (
                "No answer came on standard input, so nothing was recorded. Pass --yes to submit anyway.",
                "Aucune réponse n’est arrivée sur l’entrée standard : rien n’a été enregistré. Passez --yes pour soumettre quand même."
            )
        case .notAccepted(let piece):
            return (
                "“\(piece)” is accepted nowhere in this submission: withdrawing it elsewhere follows an acceptance. Nothing was changed.",
                "« \(piece) » n’est accepté nulle part dans cette soumission : on le retire ailleurs après une acceptation. Rien n’a été modifié."
            )
        }
    }
}
