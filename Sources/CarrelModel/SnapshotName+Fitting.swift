extension SnapshotName {
    /// A title Carrel composes from words it did not choose (a market's
    /// name): what a title cannot hold ("/", control characters) becomes
    /// "-", and it is cut on a character to the longest title, so the
    /// snapshot is taken rather than refused. Nil when nothing is left.
    public static func fittingTitle(_ raw: String) -> String? {
        var fitted = ""
        for scalar in raw.unicodeScalars {
            let unusable = scalar == "/" || scalar == "\0" || scalar.properties.generalCategory == .control
            fitted.unicodeScalars.append(unusable ? "-" : scalar)
        }
        var title = fitted.trimmingWhitespace
        while title.utf8.count > maxTitleBytes { title.removeLast() }
        title = title.trimmingWhitespace
        return title.isEmpty ? nil : title
    }
}
