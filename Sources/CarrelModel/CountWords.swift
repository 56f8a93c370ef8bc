/// How a row's counts read, the same words in every client and the CLI:
/// "3 files · 1,243 words", "1,243 / 1,500 words" ("1 243 fichiers" in
/// French). Every part a row's summary shows is composed here, nowhere else.
public enum CountWords {
    /// Everything a row's summary may say; nil parts are left out.
    public struct Counts: Equatable, Sendable {
        /// Files below a container; nil on files.
        public var files: Int?
        /// Words in the row; nil until counted.
        public var words: Int?
        /// The words came from an open buffer not saved yet.
        public var wordsUnsaved = false
        public var target: Int?
        /// Today's words on this device, and their target (projects).
        public var sessionWords: Int?
        public var sessionTarget: Int?

        public init(files: Int? = nil, words: Int? = nil, target: Int? = nil) {
            self.files = files
            self.words = words
            self.target = target
        }
    }

    /// What a row holds, or nil when it holds nothing worth a word.
    /// Built into one string, part by part: the full tree composes 130,000.
    public static func summary(_ counts: Counts, _ language: Language) -> String? {
        var out = ""
        if let files = counts.files, files > 0 { out = filesPart(files, language) }
        if let words = counts.words, (counts.files ?? 1) > 0 || counts.target != nil {
            if !out.isEmpty { out += " · " }
            out += wordsPart(words, target: counts.target, language)
            if counts.wordsUnsaved { out += language == .french ? " (non enregistré)" : " (unsaved)" }
        }
        // Today's words only against a daily target the writer set: unasked, they are noise.
        if let today = counts.sessionWords, let goal = counts.sessionTarget {
            if !out.isEmpty { out += " · " }
            out += language == .french ? "aujourd’hui " : "today "
            out += number(today, language) + " / " + number(goal, language)
        }
        return out.isEmpty ? nil : out
    }

    /// A container's files alone ("3 files"), as before words were counted.
    public static func summary(files: Int, _ language: Language) -> String? {
        summary(Counts(files: files), language)
    }

    static func filesPart(_ files: Int, _ language: Language) -> String {
        switch language {
        case .english: return "\(number(files, language)) \(files == 1 ? "file" : "files")"
        case .french: return "\(number(files, language)) \(files == 1 ? "fichier" : "fichiers")"
        }
    }

    /// A section's words alone ("1,243 words"), for outlines and inlay hints.
    public static func wordsLabel(_ words: Int, _ language: Language) -> String {
        wordsPart(words, target: nil, language)
    }

    /// "1,243 words", or against a target "1,243 / 1,500 words".
    static func wordsPart(_ words: Int, target: Int?, _ language: Language) -> String {
        let last = target ?? words
        let noun: String
        switch language {
        case .english: noun = last == 1 ? "word" : "words"
        case .french: noun = last <= 1 ? "mot" : "mots"
        }
        guard let target else { return "\(number(words, language)) \(noun)" }
        return "\(number(words, language)) / \(number(target, language)) \(noun)"
    }

    /// Digits in groups of three: "1,243" in English, "1 243" in French
    /// (with a narrow no-break space, so a count never wraps).
    public static func number(_ n: Int, _ language: Language) -> String {
        if n >= 0 && n < 1000 { return String(n) }
        let separator = language == .french ? "\u{202F}" : ","
        let digits = Array(String(n.magnitude))
        var out = n < 0 ? "-" : ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += separator }
            out.append(d)
        }
        return out
    }
}
