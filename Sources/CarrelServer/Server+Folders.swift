import CarrelProtocol
import CarrelWorkspace

/// The client's workspace folders and the libraries they stand for. Several
/// folders can stand for one library (eglot's folder of one file and
/// another's), so a library closes only when no folder stands for it.
extension Server {
    func addWorkspaceFolder(_ uri: String) {
        guard let given = try? FileURI.path(uri), Workspace.isFolder(given) else {
            log.line("ignoring workspace folder \(uri): not an existing local folder")
            return
        }
        let library = Workspace.library(forWorkspaceFolder: given)
        if library != Server.trimmed(given) {
            log.line(
                "workspace folder \(uri) lies inside a project: opening \(Workspace.display(library)), its library")
        }
        workspaceFolders[Server.trimmed(given)] = library
        workspace.addLibrary(library)
    }

    func removeWorkspaceFolder(_ uri: String) {
        guard let given = try? FileURI.path(uri),
            let library = workspaceFolders.removeValue(forKey: Server.trimmed(given))
        else { return }
        if !workspaceFolders.values.contains(library) { workspace.removeLibrary(library) }
    }

    /// A folder's path without the trailing slash some clients send.
    static func trimmed(_ path: [UInt8]) -> [UInt8] {
        var p = path
        while p.count > 1, p.last == UInt8(ascii: "/") { p.removeLast() }
        return p
    }
}
