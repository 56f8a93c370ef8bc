/// How a row's counts read, the same words in every client and the CLI:
/// "1 file", "1,243 files" ("1 243 fichiers" in French), nothing when empty.
public enum CountWords {
    /// What a row holds, or nil when it holds nothing worth a word.
    /// `counting`: the first scan is still reading below the row, so the
    /// count is partial and says so ("3 files · counting…").
    public static func summary(files: Int, counting: Bool = false, _ language: Language) -> String? {
        var parts: [String] = []
        if files > 0 {
            switch language {
            case .english: parts.append("\(number(files, language)) \(files == 1 ? "file" : "files")")
            case .french: parts.append("\(number(files, language)) \(files == 1 ? "fichier" : "fichiers")")
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
