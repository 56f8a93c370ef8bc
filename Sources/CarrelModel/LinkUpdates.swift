/// What a rename or move made through Carrel does to the links it would
/// break: update them at once, ask the writer (the default), or leave them.
public enum LinkUpdates: String, Sendable, CaseIterable {
    case always, ask, never

    /// The mode a writer typed, in English or French.
    public init?(word: String) {
        switch word.lowercased() {
        case "always", "toujours": self = .always
        case "ask", "demander": self = .ask
        case "never", "jamais": self = .never
        default: return nil
        }
    }
}

/// What updating links says to the writer outside the question itself, in
/// English and French.
public enum LinkMessage: Sendable, Equatable {
    case modeSet(path: String, mode: LinkUpdates)
    case notAMode(given: String)
    /// A move's links would break and were left: the CLI had no terminal to ask on.
    case leftAlone(links: Int, files: Int, name: String)
    /// Another program on this machine moved `items` items (one: `name`).
    case outsideMove(links: Int, files: Int, name: String?, items: Int)
    /// `--dry-run`: the move, then the links it would change.
    case wouldMove(from: String, to: String)
    case willChange(links: Int, files: Int)
    case noLinkChanges

    var pair: (String, String?) {
        switch self {
        case .modeSet(let path, .always):
            return (
                "Renames and moves in \(path) now update the links to what they move.",
                "Renommer ou déplacer dans \(path) met désormais à jour les liens vers ce qui est déplacé."
            )
        case .modeSet(let path, .ask):
            return (
                "Renames and moves in \(path) now ask before updating links.",
                "Renommer ou déplacer dans \(path) demande désormais avant de mettre à jour les liens."
            )
        case .modeSet(let path, .never):
            return (
                "Renames and moves in \(path) no longer update links.",
                "Renommer ou déplacer dans \(path) ne met plus à jour les liens."
            )
        case .notAMode(let given):
            return (
                "Say always, ask or never, not “\(given)”. Nothing was changed.",
                "Répondez always, ask ou never, pas « \(given) ». Rien n’a changé."
            )
        case .leftAlone(let links, let files, let name):
            let counted = Self.counted(links, files)
            return (
                "\(counted.0) still point\(links == 1 ? "s" : "") to the old place of “\(name)”: there was no "
                    + "terminal to ask on. `carrel links PATH always` updates them without asking.",
                "\(counted.1) pointe\(links == 1 ? "" : "nt") encore vers l’ancien emplacement de « \(name) » : "
                    + "aucun terminal pour demander. `carrel links CHEMIN always` les met à jour sans demander."
            )
        case .outsideMove(let links, let files, let name, let items):
            let counted = Self.counted(links, files)
            let verb = (links == 1 ? "points" : "point", links == 1 ? "pointe" : "pointent")
            let them = (links == 1 ? "it" : "them", links == 1 ? "le" : "les")
            let place =
                name.map { ("the old place of “\($0)”", "l’ancien emplacement de « \($0) »") }
                ?? ("the old places of \(items) moved items", "les anciens emplacements de \(items) éléments déplacés")
            return (
                "\(counted.0) \(verb.0) to \(place.0): update \(them.0)?",
                "\(counted.1) \(verb.1) vers \(place.1) : \(them.1) mettre à jour ?"
            )
        case .wouldMove(let from, let to):
            return ("Would move \(from) to \(to).", "Déplacerait \(from) vers \(to).")
        case .willChange(let links, let files):
            let counted = Self.counted(links, files)
            return ("\(counted.0) will change:", "\(counted.1) changeraient :")
        case .noLinkChanges:
            return ("No link would change.", "Aucun lien ne changerait.")
        }
    }

    static func counted(_ links: Int, _ files: Int) -> (String, String) {
        (
            "\(links) link\(links == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")",
            "\(links) lien\(links == 1 ? "" : "s") dans \(files) fichier\(files == 1 ? "" : "s")"
        )
    }
}
