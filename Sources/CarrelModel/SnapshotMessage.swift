/// What snapshots say to the writer, in English and French.
public enum SnapshotMessage: Sendable, Equatable {
    case outsideProject(name: String)
    case notAFile(name: String)
    case inTrash(name: String)
    case titleUnusable(title: String)
    case titleTooLong(bytes: Int, limit: Int)
    case tooLarge(name: String, limit: Int)
    case unreadable(name: String)
    /// `snapshot` is not one of the file's snapshots: no such name, or a name of another shape.
    case noSuchSnapshot(name: String, snapshot: String)
    /// The snapshot is there but cannot be used: `why` says what it is.
    case snapshotUnusable(snapshot: String, why: Problem)
    case unsavedChanges(name: String)
    case changedMeanwhile(name: String)
    case noAtomicSwap(name: String)
    /// The title of the snapshot taken before Carrel replaces a file's text.
    case titleBeforeRollBack
    /// A listing's words column: "1,234 words".
    case words(Int)
    /// On stderr, for a name in the snapshot folder that is not a usable snapshot.
    case skipped(snapshot: String, why: String)
    case titleBeforeLinkUpdate
    /// The title of the snapshot a submission keeps of the text sent.
    case titleSentTo(market: String)

    /// Why a snapshot is skipped in a listing, or refused.
    public enum Problem: Sendable, Equatable {
        case notASnapshotName
        case notAFile(FoundKind)
        case tooLarge(Int)
        case unreadable(String)

        public var words: (en: String, fr: String) {
            switch self {
            case .notASnapshotName:
                return ("its name is not a snapshot’s", "son nom n’est pas celui d’un instantané")
            case .notAFile(let kind):
                return ("it is \(kind.words.en), not a file", "c’est \(kind.words.fr), pas un fichier")
            case .tooLarge(let limit):
                return (
                    "it is larger than \(limit / (1 << 20)) MiB", "il dépasse \(limit / (1 << 20)) Mio"
                )
            case .unreadable(let detail): return ("it cannot be read (\(detail))", "il est illisible (\(detail))")
            }
        }
    }

    var pair: (String, String?) {
        switch self {
        case .outsideProject(let name):
            return (
                "“\(name)” is in no project; snapshots are kept in a project’s .carrel folder.",
                "« \(name) » n’est dans aucun projet ; les instantanés sont gardés dans le dossier .carrel d’un projet."
            )
        case .notAFile(let name):
            return (
                "“\(name)” is not a file or a folder of files; only text files have snapshots.",
                "« \(name) » n’est ni un fichier ni un dossier de fichiers ; seuls les fichiers texte ont des instantanés."
            )
        case .inTrash(let name):
            return (
                "“\(name)” is in the Trash. Restore it first.",
                "« \(name) » est dans la Corbeille. Restaurez-le d’abord."
            )
        case .titleUnusable(let title):
            return (
                "A snapshot’s title cannot contain “/” or control characters: “\(title)”.",
                "Le titre d’un instantané ne peut contenir ni « / » ni caractère de contrôle : « \(title) »."
            )
        case .titleTooLong(let bytes, let limit):
            return (
                "A snapshot’s title can be \(limit) bytes at most; this one is \(bytes).",
                "Le titre d’un instantané fait au plus \(limit) octets ; celui-ci en fait \(bytes)."
            )
        case .tooLarge(let name, let limit):
            return (
                "“\(name)” is larger than \(limit / (1 << 20)) MiB; Carrel takes no snapshot of it. Nothing was changed.",
                "« \(name) » dépasse \(limit / (1 << 20)) Mio ; Carrel n’en prend pas d’instantané. Rien n’a changé."
            )
        case .unreadable(let name):
            return (
                "“\(name)” cannot be read as a plain file. Nothing was changed.",
                "« \(name) » ne peut pas être lu comme un fichier ordinaire. Rien n’a changé."
            )
        case .noSuchSnapshot(let name, let snapshot):
            return (
                "“\(snapshot)” is not a snapshot of “\(name)”.",
                "« \(snapshot) » n’est pas un instantané de « \(name) »."
            )
        case .snapshotUnusable(let snapshot, let why):
            return (
                "The snapshot “\(snapshot)” cannot be used: \(why.words.en). Nothing was changed.",
                "L’instantané « \(snapshot) » est inutilisable : \(why.words.fr). Rien n’a changé."
            )
        case .unsavedChanges(let name):
            return (
                "“\(name)” has unsaved changes in your editor. Save or discard them, then roll back.",
                "« \(name) » a des modifications non enregistrées dans votre éditeur. Enregistrez-les ou "
                    + "abandonnez-les, puis revenez en arrière."
            )
        case .changedMeanwhile(let name):
            return (
                "“\(name)” changed on disk while Carrel rolled it back; it was left as it is now. Try again.",
                "« \(name) » a changé sur le disque pendant le retour en arrière ; il est laissé tel quel. Réessayez."
            )
        case .noAtomicSwap(let name):
            return (
                "The filesystem holding “\(name)” cannot replace a file atomically, so Carrel left it as it is.",
                "Le système de fichiers de « \(name) » ne sait pas remplacer un fichier d’un seul coup ; Carrel "
                    + "le laisse tel quel."
            )
        case .titleBeforeRollBack:
            return ("Before rolling back", "Avant retour en arrière")
        case .words(let n):
            return (
                "\(CountWords.number(n, .english)) \(n == 1 ? "word" : "words")",
                "\(CountWords.number(n, .french)) \(n == 1 ? "mot" : "mots")"
            )
        case .skipped(let snapshot, let why):
            return ("Skipped “\(snapshot)”: \(why).", "« \(snapshot) » est ignoré : \(why).")
        case .titleBeforeLinkUpdate:
            return ("Before updating links", "Avant mise à jour des liens")
        case .titleSentTo(let market):
            return ("Sent to \(market)", "Envoyé à \(market)")
        }
    }
}
