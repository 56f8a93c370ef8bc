/// How a row's counts read, the same words in every client and the CLI:
/// "3 files · 1,243 words", "1,243 / 1,500 words" ("1 243 fichiers" in
/// French). Every part a row's summary shows is composed here, nowhere else.
public enum CountWords {
    /// Everything a row's summary may say; nil parts are left out.
    public struct Counts: Equatable, Sendable {
        /// Files below a container; nil on files.
        public var files: Int?
        /// Sync engines' conflict copies below a container, apart from `files`.
        public var conflicts = 0
        /// The row is itself a sync engine's conflict copy.
        public var conflictCopy = false
        /// Words in the row; nil until counted.
        public var words: Int?
        /// The words came from an open buffer not saved yet.
        public var wordsUnsaved = false
        public var target: Int?
        /// Today's words on this device, and their target (projects).
        public var sessionWords: Int?
        public var sessionTarget: Int?
        /// The first scan is still reading below the row: its counts are partial.
        public var counting = false
        /// The writer left the row out of compiling.
        public var leftOut = false
        /// A piece's submissions, or a market's (`submissionsAtMarket`).
        public var submissions: SubmissionTally?
        public var submissionsAtMarket = false

        public init(files: Int? = nil, words: Int? = nil, target: Int? = nil) {
            self.files = files
            self.words = words
            self.target = target
        }
    }

    /// What a row holds, or nil when it holds nothing worth a word: a
    /// conflict copy says it is one; then the files, the conflict copies
    /// among them ("3 files · 1 conflict"), the words or the progress
    /// towards a target, today's words against a daily target, and
    /// "counting…" while the first scan reads below the row. Built into one
    /// string, part by part: the full tree composes 130,000.
    public static func summary(_ counts: Counts, _ language: Language) -> String? {
        var out = ""
        func part(_ text: String) {
            if !out.isEmpty { out += " · " }
            out += text
        }
        if counts.conflictCopy { part(language == .french ? "copie en conflit" : "conflict copy") }
        if let files = counts.files, files > 0 { part(filesPart(files, language)) }
        if counts.conflicts > 0 { part(conflictsPart(counts.conflicts, language)) }
        if let words = counts.words, (counts.files ?? 1) > 0 || counts.target != nil {
            part(wordsPart(words, target: counts.target, language))
            if counts.wordsUnsaved { out += language == .french ? " (non enregistré)" : " (unsaved)" }
        }
        // Today's words only against a daily target the writer set: unasked, they are noise.
        if let today = counts.sessionWords, let goal = counts.sessionTarget {
            part(
                (language == .french ? "aujourd’hui " : "today ") + number(today, language) + " / "
                    + number(goal, language))
        }
        if counts.leftOut { part(language == .french ? "hors compilation" : "left out") }
        if let tally = counts.submissions, let text = tally.text(forMarket: counts.submissionsAtMarket, language) {
            part(text)
        }
        if counts.counting { part(Message.counting.text(language)) }
        return out.isEmpty ? nil : out
    }

    /// A row's files, conflict copies and scan state alone, as before words were counted.
    public static func summary(
        files: Int?, conflicts: Int = 0, conflictCopy: Bool = false, counting: Bool = false, _ language: Language
    ) -> String? {
        var counts = Counts(files: files)
        counts.conflicts = conflicts
        counts.conflictCopy = conflictCopy
        counts.counting = counting
        return summary(counts, language)
    }

    static func filesPart(_ files: Int, _ language: Language) -> String {
        switch language {
        case .english: return "\(number(files, language)) \(files == 1 ? "file" : "files")"
        case .french: return "\(number(files, language)) \(files == 1 ? "fichier" : "fichiers")"
        }
    }

    static func conflictsPart(_ conflicts: Int, _ language: Language) -> String {
        switch language {
        case .english: return "\(number(conflicts, language)) \(conflicts == 1 ? "conflict" : "conflicts")"
        case .french: return "\(number(conflicts, language)) \(conflicts == 1 ? "conflit" : "conflits")"
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
