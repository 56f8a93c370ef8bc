import CarrelModel
import CarrelStore

/// Who wrote a project, for its compiled title page: project.json's
/// `byline` (`author`, `contact`), settings stamped like the others.
extension Workspace {
    public static let maxBylineLine = 200
    public static let maxContactLines = 10

    public func setByline(_ target: Target, author: String?, contact: [String]?) throws(Failure) -> Outcome {
        let (project, library) = try compiledProject(target)
        let cleanAuthor = author.map { String($0.filter { !$0.isNewline }.prefix(Self.maxBylineLine)) }
        let cleanContact = contact.map {
            $0.prefix(Self.maxContactLines).map { String($0.filter { !$0.isNewline }.prefix(Self.maxBylineLine)) }
        }
        try updateMetadataOrFail(project) { meta in
            if let cleanAuthor { meta.author = cleanAuthor.isEmpty ? nil : cleanAuthor }
            if let cleanContact { meta.contact = cleanContact.filter { !$0.isEmpty } }
        }
        let meta = project.metadata
        return Outcome(
            result: .item(.entry(project.root, library)), changes: [Change(.changed, project.root.path)],
            report: .bylineSet(project: project.root.name.string, author: meta.author, contactLines: meta.contact.count)
        )
    }
}
