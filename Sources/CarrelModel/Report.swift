/// What the server tells the writer after a command that moved writing out
/// of sight or back, changed whether deleting asks first, compiled, or set
/// what no row shows (the byline): every client shows these words, and
/// adds none.
public enum Report: Sendable, Equatable {
    case movedToTrash(name: String)
    case movedToSystemTrash(name: String)
    case restored(name: String, to: Localized)
    /// A restore whose record did not say for sure where the item was: `because` says what Carrel went by.
    case restoredByGuess(name: String, to: Localized, because: Message)
    case deletedForGood(name: String)
    case deletedItemsForGood(count: Int)
    case trashWasEmpty
    case askingBeforeDeleting(in: String)
    case alreadyAskingBeforeDeleting(in: String)
    case notAskingBeforeDeleting(in: String)
    /// `carrel.setLinkUpdates`: the project's (or library's) mode now.
    case linkUpdates(in: String, mode: LinkUpdates)
    /// A duplicate that left out named pipes, sockets or devices, which hold no writing.
    case duplicatedLeavingOut(name: String, copy: String, count: Int)
    /// A compile wrote its document: where (`Compiled/My Novel.docx`, or the
    /// writer's own path), and what it counted: a packet's lines, else words.
    case compiled(path: String, words: Int, lines: Int?)
    /// The title page's byline was set: the project's name, its author (nil
    /// for none) and how many contact lines it holds now.
    case bylineSet(project: String, author: String?, contactLines: Int)
    /// Snapshots taken: of one file (`name` is the file), or of each file in a folder.
    case snapshotTaken(name: String, files: Int)
    /// A file's text is a snapshot's again; `saved` is the snapshot of the text it replaced.
    case rolledBack(name: String, to: String, saved: String)
    /// Undo, in the words of the operation taken back.
    case renamedBack(name: String, to: String)
    case movedBack(name: String, to: String)
    case putBackFromTrash(name: String)
    case putBackInTrash(name: String)
    case newItemToTrash(name: String)
    /// Redo, in the words of the operation done again.
    case renamedAgain(name: String, to: String)
    case movedAgain(name: String, to: String)
    case trashedAgain(name: String)
    case restoredAgain(name: String, to: String)
    /// Undo and redo of settings: a sort, a binder order, a word target.
    case sortedAsBefore(name: String)
    case sortedAgain(name: String)
    case orderPutBack(name: String)
    case reorderedAgain(name: String)
    case targetPutBack(name: String)
    case targetSetAgain(name: String)
    case nothingToUndo
    case nothingToRedo
    /// Pieces recorded as sent; `deadline` when the market's falls within a week of the day sent.
    case submitted(pieces: [String], market: String, day: String, deadline: String?, daysLeft: Int?)
    case marketSaved(market: String)
    /// `stillOut`: the markets where the accepted piece is still out;
    /// `published`: the project's Published folder, offered as the piece's next place.
    case submissionStatusSet(
        piece: String, market: String, status: SubmissionStatus, stillOut: [String], published: String?)
    case withdrewElsewhere(piece: String, markets: [String])

    public func text(_ language: Language) -> String {
        let (en, fr) = texts
        return language == .french ? fr : en
    }

    private var texts: (String, String) {
        switch self {
        case .submitted(let pieces, let market, let day, let deadline, let daysLeft):
            let list = pieces.map { "“\($0)”" }.joined(separator: ", ")
            var en = "Submitted \(list) to “\(market)” on \(day)."
            var fr = "\(list) soumis à « \(market) » le \(day)."
            if let deadline, let daysLeft {
                en +=
                    daysLeft < 0
                    ? " Its deadline, \(deadline), has passed."
                    : " Its deadline is \(deadline), \(daysLeft == 0 ? "today" : daysLeft == 1 ? "tomorrow" : "in \(daysLeft) days")."
                fr +=
                    daysLeft < 0
                    ? " Sa date limite, le \(deadline), est passée."
                    : " Sa date limite est le \(deadline), \(daysLeft == 0 ? "aujourd’hui" : daysLeft == 1 ? "demain" : "dans \(daysLeft) jours")."
            }
            return (en, fr)
        case .marketSaved(let market):
            return ("Saved the details of “\(market)”.", "Détails de « \(market) » enregistrés.")
        case .submissionStatusSet(let piece, let market, let status, let stillOut, let published):
            var en = "“\(piece)” at “\(market)”: \(status.title(.english))."
            var fr = "« \(piece) » chez « \(market) » : \(status.title(.french))."
            if !stillOut.isEmpty {
                let list = stillOut.map { "“\($0)”" }.joined(separator: ", ")
                let listFr = stillOut.map { "« \($0) »" }.joined(separator: ", ")
                en += " It is still out at \(list): withdraw it there (Withdraw Others)."
                fr += " Il est encore soumis à \(listFr) : retirez-le (Retirer ailleurs)."
            }
            if let published {
                en += " Move it to “\(published)” once it is published."
                fr += " Déplacez-le dans « \(published) » une fois publié."
            }
            return (en, fr)
        case .withdrewElsewhere(let piece, let markets):
            if markets.isEmpty {
                return ("“\(piece)” was out nowhere else.", "« \(piece) » n’était soumis nulle part ailleurs.")
            }
            let list = markets.map { "“\($0)”" }.joined(separator: ", ")
            let listFr = markets.map { "« \($0) »" }.joined(separator: ", ")
            return ("Withdrew “\(piece)” from \(list).", "« \(piece) » retiré de \(listFr).")
        case .compiled(let path, let words, let lines):
            // A packet is counted in lines, anything else in words; one of
            // either is singular ("1 line", "1 mot"), "vers" is both.
            let en =
                lines.map { "\(CountWords.number($0, .english)) \($0 == 1 ? "line" : "lines")" }
                ?? "\(CountWords.number(words, .english)) \(words == 1 ? "word" : "words")"
            let fr =
                lines.map { "\(CountWords.number($0, .french)) vers" }
                ?? "\(CountWords.number(words, .french)) \(words == 1 ? "mot" : "mots")"
            return ("Compiled \(path): \(en).", "Compilé \(path) : \(fr).")
        case .bylineSet(let project, let author, let lines):
            let en = lines == 1 ? "1 contact line" : "\(lines == 0 ? "no" : "\(lines)") contact lines"
            let fr =
                lines == 0
                ? "aucune ligne de contact" : lines == 1 ? "1 ligne de contact" : "\(lines) lignes de contact"
            return (
                "Title page of “\(project)”: \(author.map { "by \($0)" } ?? "no author"), \(en).",
                "Page de titre de « \(project) » : \(author.map { "par \($0)" } ?? "aucun auteur"), \(fr)."
            )
        case .movedToTrash(let name):
            return ("Moved “\(name)” to the Trash.", "« \(name) » est dans la Corbeille.")
        case .movedToSystemTrash(let name):
            return ("Moved “\(name)” to the system trash.", "« \(name) » est dans la corbeille du système.")
        case .restored(let name, let to):
            return ("Restored “\(name)” to “\(to.en)”.", "« \(name) » est restauré dans « \(to.fr) ».")
        case .restoredByGuess(let name, let to, let because):
            return (
                "Restored “\(name)” to “\(to.en)”: \(because.text(.english))",
                "« \(name) » est restauré dans « \(to.fr) » : \(because.text(.french))"
            )
        case .deletedForGood(let name):
            return ("Deleted “\(name)” for good.", "« \(name) » est supprimé définitivement.")
        case .deletedItemsForGood(let count):
            return count == 1
                ? (
                    "Emptied the Trash: 1 item deleted for good.",
                    "Corbeille vidée : 1 élément supprimé définitivement."
                )
                : (
                    "Emptied the Trash: \(count) items deleted for good.",
                    "Corbeille vidée : \(count) éléments supprimés définitivement."
                )
        case .trashWasEmpty:
            return ("The Trash was already empty.", "La Corbeille était déjà vide.")
        case .askingBeforeDeleting(let name):
            return (
                "Deleting in “\(name)” now asks first.",
                "Supprimer dans « \(name) » demande désormais confirmation."
            )
        case .alreadyAskingBeforeDeleting(let name):
            return (
                "Deleting in “\(name)” already asks first.",
                "Supprimer dans « \(name) » demande déjà confirmation."
            )
        case .notAskingBeforeDeleting(let name):
            return (
                "Deleting in “\(name)” no longer asks first.",
                "Supprimer dans « \(name) » ne demande plus confirmation."
            )
        case .linkUpdates(let name, .always):
            return (
                "Links to a moved item in “\(name)” are now updated without asking.",
                "Les liens vers un élément déplacé dans « \(name) » sont désormais mis à jour sans demander."
            )
        case .linkUpdates(let name, .ask):
            return (
                "Links to a moved item in “\(name)” are now updated only if you say so.",
                "Les liens vers un élément déplacé dans « \(name) » ne sont désormais mis à jour qu’après votre accord."
            )
        case .linkUpdates(let name, .never):
            return (
                "Links to a moved item in “\(name)” are no longer updated.",
                "Les liens vers un élément déplacé dans « \(name) » ne sont plus mis à jour."
            )
        case .snapshotTaken(let name, let files):
            return files == 1
                ? ("Took a snapshot of “\(name)”.", "Instantané de « \(name) » pris.")
                : (
                    "Took a snapshot of each of the \(files) files in “\(name)”.",
                    "Instantané de chacun des \(files) fichiers de « \(name) » pris."
                )
        case .rolledBack(let name, let to, let saved):
            return (
                "Rolled “\(name)” back to the snapshot “\(to)”; the text it replaced is the snapshot “\(saved)”.",
                "« \(name) » est revenu à l’instantané « \(to) » ; le texte remplacé est l’instantané « \(saved) »."
            )
        case .renamedBack(let name, let to):
            return ("Renamed “\(name)” back to “\(to)”.", "« \(name) » a repris son nom « \(to) ».")
        case .movedBack(let name, let to):
            return ("Moved “\(name)” back to “\(to)”.", "« \(name) » est revenu dans « \(to) ».")
        case .putBackFromTrash(let name):
            return ("Put “\(name)” back from the Trash.", "« \(name) » est ressorti de la Corbeille.")
        case .putBackInTrash(let name):
            return ("Put “\(name)” back in the Trash.", "« \(name) » est retourné dans la Corbeille.")
        case .newItemToTrash(let name):
            return (
                "Moved the new “\(name)” to the Trash; Redo brings it back.",
                "Le nouvel élément « \(name) » est dans la Corbeille ; Rétablir le ramène."
            )
        case .renamedAgain(let name, let to):
            return ("Renamed “\(name)” to “\(to)” again.", "« \(name) » est de nouveau renommé « \(to) ».")
        case .movedAgain(let name, let to):
            return ("Moved “\(name)” to “\(to)” again.", "« \(name) » est de nouveau dans « \(to) ».")
        case .trashedAgain(let name):
            return ("Moved “\(name)” to the Trash again.", "« \(name) » est de nouveau dans la Corbeille.")
        case .restoredAgain(let name, let to):
            return ("Restored “\(name)” to “\(to)” again.", "« \(name) » est de nouveau restauré dans « \(to) ».")
        case .sortedAsBefore(let name):
            return ("Sorted “\(name)” as before.", "« \(name) » est trié comme avant.")
        case .sortedAgain(let name):
            return ("Sorted “\(name)” again.", "« \(name) » est de nouveau trié.")
        case .orderPutBack(let name):
            return ("Put “\(name)” back in its earlier order.", "« \(name) » a retrouvé son ordre d’avant.")
        case .reorderedAgain(let name):
            return ("Reordered “\(name)” again.", "« \(name) » est de nouveau réordonné.")
        case .targetPutBack(let name):
            return ("Put back the word target of “\(name)”.", "L’objectif de mots de « \(name) » est revenu.")
        case .targetSetAgain(let name):
            return ("Set the word target of “\(name)” again.", "L’objectif de mots de « \(name) » est de nouveau fixé.")
        case .nothingToUndo:
            return ("Nothing to undo.", "Rien à annuler.")
        case .nothingToRedo:
            return ("Nothing to redo.", "Rien à rétablir.")
        case .duplicatedLeavingOut(let name, let copy, let count):
            return (
                "Duplicated “\(name)” as “\(copy)”, leaving out \(count) \(count == 1 ? "item that is" : "items that are") not a file, folder or link.",
                "« \(name) » est dupliqué en « \(copy) », sans \(count) \(count == 1 ? "élément qui n’est" : "éléments qui ne sont") ni fichier, ni dossier, ni lien."
            )
        }
    }
}
