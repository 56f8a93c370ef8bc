/// What Carrel found at a name where it keeps a plain file or a folder of
/// its own, in words a writer reads. The disk layer says which it is.
public enum FoundKind: Sendable, Equatable {
    case file, folder, link, pipe, socket, device

    var words: (en: String, fr: String) {
        switch self {
        case .file: return ("a plain file", "un fichier ordinaire")
        case .folder: return ("a folder", "un dossier")
        case .link: return ("a symbolic link", "un lien symbolique")
        case .pipe: return ("a named pipe (FIFO)", "un tube nommé (FIFO)")
        case .socket: return ("a socket", "une socket")
        case .device: return ("a device", "un périphérique")
        }
    }
}
