import CarrelModel

extension Workspace {
    /// A question a stopped Carrel left may have been answered, its files
    /// written, before the stop came, where no edits' record names it (an
    /// older Carrel's, or open buffers' edits, which no record holds): the
    /// moved files' own links then lead
    /// from their new place already, and rewriting them again from the old
    /// one would break them. Drops each edit of a moved file whose link
    /// does not reach an item from the old place and does reach one from
    /// the new; a link reaching one from both is taken as not yet updated.
    public func withoutEditsAlreadyMade(_ fixes: [LinkFileEdit], in library: Library) -> [LinkFileEdit] {
        fixes.compactMap { fix in
            guard fix.file != fix.newFile else { return fix }
            var kept = fix
            kept.edits = fix.edits.filter { edit in
                guard let target = Self.linkTarget(fix.text, edit) else { return true }
                let fromOld = LinkPath.resolve(target, from: fix.file).flatMap { entry(at: $0, in: library) }
                let fromNew = LinkPath.resolve(target, from: fix.newFile).flatMap { entry(at: $0, in: library) }
                return fromOld != nil || fromNew == nil
            }
            return kept.edits.isEmpty ? nil : kept
        }
    }

    /// The path an edit replaces, as a link spells it: without its anchor
    /// and angle brackets, percent-decoded; nil for a range outside the text.
    static func linkTarget(_ text: [UInt8], _ edit: TextEdit) -> String? {
        guard edit.start >= 0, edit.start <= edit.end, edit.end <= text.count else { return nil }
        var bytes = text[edit.start..<edit.end]
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes = bytes[..<hash] }
        while bytes.first == UInt8(ascii: "<") { bytes = bytes.dropFirst() }
        while bytes.last == UInt8(ascii: ">") { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return nil }
        return LinkPath.percentDecoded(bytes)
    }
}
