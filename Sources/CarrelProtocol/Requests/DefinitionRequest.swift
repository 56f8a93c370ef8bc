/// `textDocument/definition` on a link: the file it leads to, as a
/// `Location` at its start; `null` off a link or on one that leads nowhere.
public enum DefinitionRequest {
    public static let method = "textDocument/definition"
}
