import CarrelJSON

/// `textDocument/completion`: inside a link's target (`[[` or `](`), the
/// library's Markdown and Fountain files that fit what is typed.
public enum CompletionRequest {
    public static let method = "textDocument/completion"

    /// What `initialize` advertises: a link opens with `[[` or `](`, and a
    /// path goes on with `/`.
    public static let registration: JSONValue = ["triggerCharacters": ["[", "(", "/"], "resolveProvider": false]

    /// One file: shown as `label`, written over the typed target (`start` to
    /// the cursor on `line`). `rank` keeps the server's order in clients that re-sort.
    public static func item(
        label: String, detail: String, line: Int, start: Int, end: Int, rank: Int
    ) -> JSONValue {
        let digits = String(rank)
        return [
            "label": .string(label), "kind": 17, "detail": .string(detail), "filterText": .string(label),
            "sortText": .string(String(repeating: "0", count: max(0, 5 - digits.count)) + digits),
            "textEdit": [
                "newText": .string(label), "range": TextDocumentPosition.range(line: line, start: start, end: end),
            ],
        ]
    }
}
