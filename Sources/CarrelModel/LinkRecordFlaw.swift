/// Why Carrel did not finish the link updates a record left by a stopped
/// Carrel describes: the record is not one Carrel wrote, so nothing it
/// names is touched.
public enum LinkRecordFlaw: Error, Sendable, Equatable {
    /// Not a plain file: a link, a pipe, a folder.
    case found(FoundKind)
    case tooLarge(limit: Int)
    /// Not JSON of the record's shape; `detail` names the first field at fault.
    case malformed(detail: String)
    /// A path that leaves the library (`..`, `/`, an empty name).
    case pathOutsideLibrary
    /// Written for a library at another place.
    case otherLibrary
    /// What the system said.
    case failed(detail: String)

    var words: (en: String, fr: String) {
        switch self {
        case .found(let kind):
            return (
                "it is \(kind.words.en), which Carrel does not follow",
                "c’est \(kind.words.fr), que Carrel ne suit pas"
            )
        case .tooLarge(let limit):
            return (
                "it is larger than \(limit >> 20) MiB, more than Carrel ever writes",
                "il dépasse \(limit >> 20) Mio, plus que Carrel n’écrit jamais"
            )
        case .malformed(let detail):
            return (
                "it is not a record Carrel wrote (\(detail))", "ce n’est pas un relevé écrit par Carrel (\(detail))"
            )
        case .pathOutsideLibrary:
            return ("it names a file outside the library", "il nomme un fichier hors de la bibliothèque")
        case .otherLibrary:
            return ("it was written for another library", "il a été écrit pour une autre bibliothèque")
        case .failed(let detail):
            return ("it could not be read: \(detail)", "il n’a pas pu être lu : \(detail)")
        }
    }
}
