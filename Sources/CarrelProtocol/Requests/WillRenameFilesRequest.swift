import CarrelJSON

/// `workspace/willRenameFiles`: a client is about to rename or move files or
/// folders (its file explorer, oil.nvim). The answer is the `WorkspaceEdit`
/// that keeps every link true, on the old URIs, for the client to apply
/// before it renames; the server writes nothing.
public enum WillRenameFilesRequest {
    public static let method = "workspace/willRenameFiles"

    public struct Params: Equatable {
        public var files: [(oldUri: String, newUri: String)]

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            var files: [(String, String)] = []
            for (i, file) in (try f.optionalArray("files") ?? []).enumerated() {
                let ff = try Fields(file, name: "files[\(i)]", prefix: "files[\(i)].")
                files.append((try ff.string("oldUri"), try ff.string("newUri")))
            }
            self.files = files
        }

        public static func == (a: Params, b: Params) -> Bool {
            a.files.elementsEqual(b.files) { $0.oldUri == $1.oldUri && $0.newUri == $1.newUri }
        }
    }

    /// What `initialize` advertises under `workspace.fileOperations.willRename`:
    /// Markdown and Fountain files, and folders.
    public static let registration: JSONValue = [
        "filters": [
            ["pattern": ["glob": "**/*.md", "matches": "file"]],
            ["pattern": ["glob": "**/*.fountain", "matches": "file"]],
            ["pattern": ["glob": "**", "matches": "folder"]],
        ]
    ]

    /// A `WorkspaceEdit` of `changes`: by URI, its text edits.
    public static func edit(_ changes: [(uri: String, edits: [JSONValue])]) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for c in changes { object[c.uri] = .array(c.edits) }
        return ["changes": .object(object)]
    }

    public static func textEdit(
        startLine: Int, startCharacter: Int, endLine: Int, endCharacter: Int, newText: String
    ) -> JSONValue {
        [
            "range": [
                "start": ["line": .int(startLine), "character": .int(startCharacter)],
                "end": ["line": .int(endLine), "character": .int(endCharacter)],
            ],
            "newText": .string(newText),
        ]
    }
}
