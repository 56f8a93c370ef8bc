/// What Carrel offers after a submission's news, and what it warns of
/// before a piece's text as sent is lost, in English and French.
public enum SubmissionOfferMessage: Sendable, Equatable {
    /// Asked once the status change is answered: the pieces go on only if the writer says so.
    case confirmMoveToPublished(pieces: [String], market: String)
    case actionNotNow
    case actionMoveToPublished
    /// The CLI cannot ask after the fact: it says how to make the move.
    case moveToPublishedHint(count: Int)
    /// Said before a deletion for good: the snapshots of what was sent go with the piece.
    case sentTextGoesToo(piece: String, markets: [String])
    /// Past the pieces named one by one.
    case moreSentTextsGoToo(count: Int)
    /// A compile to be submitted asked for a recipe that makes no packet.
    case notAPacket(recipe: String)

    var pair: (String, String?) {
        switch self {
        case .confirmMoveToPublished(let pieces, let market):
            let names = pieces.joined(separator: "”, “")
            let many = pieces.count > 1
            return (
                "“\(names)” \(many ? "were" : "was") accepted at “\(market)”. Move \(many ? "them" : "it") to Published?",
                "« \(pieces.joined(separator: " », « ")) » \(many ? "ont" : "a") été accepté\(many ? "s" : "") par « \(market) ». "
                    + "\(many ? "Les" : "Le") déplacer dans Publiés ?"
            )
        case .actionNotNow:
            return ("Not Now", "Plus tard")
        case .actionMoveToPublished:
            return ("Move to Published", "Déplacer dans Publiés")
        case .moveToPublishedHint(let count):
            return (
                "Add --move-to-published to move \(count == 1 ? "it" : "them") to Published now.",
                "Ajoutez --move-to-published pour \(count == 1 ? "le" : "les") déplacer dans Publiés maintenant."
            )
        case .sentTextGoesToo(let piece, let markets):
            return (
                "“\(piece)” was sent to “\(markets.joined(separator: "”, “"))”; its text as sent goes too.",
                "« \(piece) » a été envoyé à « \(markets.joined(separator: " », « ")) » ; son texte tel qu’envoyé disparaît aussi."
            )
        case .notAPacket(let recipe):
            return (
                "The recipe “\(recipe)” is not a submission packet, so it is not submitted: compile Poetry’s packet or a short story’s manuscript. Nothing was written.",
                "La recette « \(recipe) » n’est pas un dossier de soumission, elle n’est donc pas soumise : compilez le dossier d’un recueil de poésie ou le manuscrit d’une nouvelle. Rien n’a été écrit."
            )
        case .moreSentTextsGoToo(let count):
            return (
                "\(count) more piece\(count == 1 ? " was" : "s were") sent; \(count == 1 ? "its text" : "their texts") as sent go\(count == 1 ? "es" : "") too.",
                "\(count) autre\(count == 1 ? " texte a" : "s textes ont") été envoyé\(count == 1 ? "" : "s") ; \(count == 1 ? "son texte" : "leurs textes") tel\(count == 1 ? "" : "s") qu’envoyé\(count == 1 ? "" : "s") \(count == 1 ? "disparaît" : "disparaissent") aussi."
            )
        }
    }
}
