/// The languages Carrel's string tables cover. Chosen from `initialize`'s
/// `locale` (or `LANG` for the CLI), never from `Locale.current`, which is
/// always `en_001` on Linux.
public enum Language: String, Sendable, CaseIterable {
    case english = "en"
    case french = "fr"

    /// "fr", "fr-FR", "fr_CA.UTF-8" → French; anything unknown → English.
    public init(locale: String?) {
        let code = (locale ?? "").lowercased().prefix { $0.isLetter }
        self = Language(rawValue: String(code)) ?? .english
    }
}
