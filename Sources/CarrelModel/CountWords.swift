/// How a row's counts read, the same words in every client and the CLI:
/// "1 file", "1,243 files" ("1 243 fichiers" in French), nothing when empty.
public enum CountWords {
    /// What a row holds, or nil when it holds nothing worth a word: its
    /// files (nil on a file), then the sync engines' conflict copies among
    /// them, apart ("3 files · 1 conflict"); on a conflict copy, that it is one.
    /// `counting`: the first scan is still reading below the row, so the
    /// count is partial and says so ("3 files · counting…").
    public static func summary(
        files: Int?, conflicts: Int = 0, conflictCopy: Bool = false, counting: Bool = false, _ language: Language
    ) -> String? {
        if conflictCopy { return language == .french ? "copie en conflit" : "conflict copy" }
        guard let files else { return nil }
        var parts: [String] = []
        if files > 0 {
            switch language {
            case .english: parts.append("\(number(files, language)) \(files == 1 ? "file" : "files")")
            case .french: parts.append("\(number(files, language)) \(files == 1 ? "fichier" : "fichiers")")
            }
        }
        if conflicts > 0 {
            switch language {
            case .english: parts.append("\(number(conflicts, language)) \(conflicts == 1 ? "conflict" : "conflicts")")
            case .french: parts.append("\(number(conflicts, language)) \(conflicts == 1 ? "conflit" : "conflits")")
            }
        }
        if counting { parts.append(Message.counting.text(language)) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Digits in groups of three: "1,243" in English, "1 243" in French
    /// (with a narrow no-break space, so a count never wraps).
    public static func number(_ n: Int, _ language: Language) -> String {
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
