import CarrelModel
import CarrelWorkspace

/// `carrel.setLinkUpdates`: editors set, as `carrel links` does, whether a
/// move's broken links are updated without asking, after asking, or never,
/// for the project holding an item or the library outside projects.
extension Server {
    func setLinkUpdates(_ target: Workspace.Target, _ word: String) throws(Failure) -> Outcome {
        guard let mode = LinkUpdates(rawValue: word) else {
            throw Failure(.invalidParams, .links(.notAMode(given: word)))
        }
        return try workspace.setLinkUpdates(target, mode)
    }
}
