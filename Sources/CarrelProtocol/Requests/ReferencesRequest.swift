/// `textDocument/references`: the links to a file from the library's files
/// (its backlinks), each a `Location` on the link's target text. On a link,
/// the links to what it leads to; elsewhere, the links to the document.
public enum ReferencesRequest {
    public static let method = "textDocument/references"
}
