import Foundation

/// The rules every new or changed name must pass.
public enum NameRules {
    public static let maxBytes = 255

    /// Trims the name and checks every rule; returns the name to use.
    public static func validate(_ raw: String) throws(Failure) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { throw Failure(.invalidName, .nameEmpty) }
        for scalar in name.unicodeScalars {
            if scalar == "/" { throw Failure(.invalidName, .nameHasSlash) }
            if scalar.value == 0 { throw Failure(.invalidName, .nameHasNul) }
            if scalar.properties.generalCategory == .control { throw Failure(.invalidName, .nameHasControl) }
        }
        if name == "." || name == ".." { throw Failure(.invalidName, .nameIsDots) }
        if name == ".carrel" { throw Failure(.invalidName, .nameReserved) }
        if name.hasPrefix(".") { throw Failure(.invalidName, .nameHidden) }
        if HiddenNames.contains(name) { throw Failure(.invalidName, .nameLooksLikeEditorFile(name: name)) }
        let bytes = name.utf8.count
        if bytes > maxBytes { throw Failure(.invalidName, .nameTooLong(bytes: bytes)) }
        return name
    }

    /// Two names clash when their keys are equal: case-insensitive, and
    /// precomposed and decomposed spellings count as the same name.
    public static func key(_ name: String) -> String {
        asciiKey(name) ?? unicodeKey(name)
    }

    /// Foundation's normalizing and folding took about 5 µs a name, and a
    /// delete or restore takes several keys. An ASCII name is already
    /// precomposed, and folds by lowercasing.
    static func asciiKey(_ name: String) -> String? {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return name.lowercased()
    }

    static func unicodeKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
    }

    /// Adds the default extension when the name has none ("Poem" → "Poem.md").
    /// A rename keeps the file's own extension the same way, so typing
    /// "Dawn" for "Morning.md" gives "Dawn.md", and "Dawn.txt" gives that.
    public static func withDefaultExtension(_ name: String, _ ext: String) -> String {
        guard !ext.isEmpty, fileExtension(name) == nil else { return name }
        return name + "." + ext
    }

    /// "md" for "Poem.md"; nil for "Poem", ".profile" and "Poem.".
    public static func fileExtension(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
            return nil
        }
        return String(name[name.index(after: dot)...])
    }

    /// "Poem.md" → "Poem 2.md", "Notes" → "Notes 2": the suffix for clashes in Trash and restores.
    /// A name already near the limit loses characters at the end of its
    /// stem, whole characters only, so the numbered name still fits in
    /// `maxBytes` and stays valid UTF-8.
    public static func numbered(_ name: String, _ n: Int, isFolder: Bool) -> String {
        withSuffix(" \(n)", to: name, isFolder: isFolder)
    }

    /// The name of a duplicate, as Finder gives it: "Spring.md" →
    /// "Spring copy.md", then "Spring copy 2.md" for `n` = 2 and on. A copy
    /// of a copy is numbered from its original's name ("Spring copy.md" →
    /// "Spring copy 2.md"), never "Spring copy copy.md".
    public static func copyName(_ name: String, _ n: Int, isFolder: Bool) -> String {
        var (stem, ext) = split(name, isFolder: isFolder)
        let number = stem.reversed().prefix { $0.isASCII && $0.isNumber }
        var bare = stem.dropLast(number.count)
        if !number.isEmpty { bare = bare.hasSuffix(" ") ? bare.dropLast() : stem }
        if bare.hasSuffix(" copy"), bare.count > " copy".count { stem = bare.dropLast(" copy".count) }
        return withSuffix(n == 1 ? " copy" : " copy \(n)", to: String(stem + ext), isFolder: isFolder)
    }

    private static func split(_ name: String, isFolder: Bool) -> (stem: Substring, ext: Substring) {
        if !isFolder, let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return (name[..<dot], name[dot...])
        }
        return (Substring(name), "")
    }

    private static func withSuffix(_ suffix: String, to name: String, isFolder: Bool) -> String {
        var (stem, ext) = split(name, isFolder: isFolder)
        while stem.count > 1, stem.utf8.count + suffix.utf8.count + ext.utf8.count > maxBytes {
            stem.removeLast()
        }
        return "\(stem)\(suffix)\(ext)"
    }
}
