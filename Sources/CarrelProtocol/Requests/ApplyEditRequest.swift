import CarrelJSON

/// `workspace/applyEdit`, server → client: link edits to open buffers,
/// which only the editor may change (their unsaved text is never written by
/// the server). Sent only to clients that declare
/// `capabilities.workspace.applyEdit`.
public enum ApplyEditRequest {
    public static let method = "workspace/applyEdit"

    public static func params(label: String, edit: JSONValue) -> JSONValue {
        ["label": .string(label), "edit": edit]
    }

    /// Whether the client applied the edit; an error or anything else is no.
    public static func applied(_ result: Result<JSONValue, ResponseError>) -> Bool {
        guard case .success(let v) = result else { return false }
        return v["applied"]?.boolValue == true
    }
}
