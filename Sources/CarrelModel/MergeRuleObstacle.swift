/// Why Carrel left a library's `.gitattributes` without the merge rule for
/// order files: writing it would have changed something that is not only
/// the library's, or lost what another program put there.
public enum MergeRuleObstacle: Sendable, Equatable {
    /// Not a plain file: a link, a pipe, a folder.
    case found(FoundKind)
    /// One file under several names (a hard link): the others may be
    /// outside the library, and they would change too.
    case sharedNames(count: Int)
    case tooLarge(limit: Int)
    /// Changed by another program while Carrel was writing its new copy.
    case changedMeanwhile
    /// The filesystem cannot swap two files in one step, so the old file
    /// could not be kept safe while the new one took its place.
    case noAtomicSwap
    /// What the system said.
    case failed(detail: String)

    var words: (en: String, fr: String) {
        switch self {
        case .found(let kind):
            return (
                "it is \(kind.words.en), which Carrel does not follow or replace",
                "c’est \(kind.words.fr), que Carrel ne suit ni ne remplace"
            )
        case .sharedNames(let count):
            return (
                "it is one file with \(count) names (a hard link), and writing it would change it under every name",
                "c’est un seul fichier sous \(count) noms (un lien physique), et l’écrire le changerait sous chacun"
            )
        case .tooLarge(let limit):
            return (
                "it is larger than \(limit >> 20) MiB, the most Carrel reads",
                "il dépasse \(limit >> 20) Mio, le maximum que Carrel lit"
            )
        case .changedMeanwhile:
            return (
                "another program changed it while Carrel was writing it",
                "un autre programme l’a modifié pendant que Carrel l’écrivait"
            )
        case .noAtomicSwap:
            return (
                "this filesystem cannot swap two files in one step",
                "ce système de fichiers ne sait pas échanger deux fichiers d’un coup"
            )
        case .failed(let detail): return (detail, detail)
        }
    }
}
