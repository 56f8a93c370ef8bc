import CarrelJSON

/// `initialize`: opens the libraries and chooses the language.
public enum InitializeRequest {
    public static let method = "initialize"

    public struct Params: Equatable {
        /// Workspace folder URIs; `rootUri` when the client sends no folders.
        public var folders: [String]
        /// The client's locale ("fr", "en-US"); picks the string table.
        public var locale: String?
        /// The Carrel extensions the client understands
        /// (`capabilities.experimental.carrel`); none for a stock client.
        public var extensions = Extensions()
        /// `initializationOptions.confirmationTimeout`, in seconds: how long a
        /// delete waits for the writer's answer before it fails with
        /// `cancelled`, for clients that never answer `window/showMessageRequest`.
        public var confirmationTimeout = InitializeRequest.defaultConfirmationTimeout
        /// `capabilities.workspace.inlayHint.refreshSupport`: the client can be
        /// asked to redraw inlay hints after counts change.
        public var inlayHintRefresh = false
        /// `capabilities.window.workDoneProgress`: the client shows `$/progress`
        /// for a token the server creates (`window/workDoneProgress/create`).
        public var workDoneProgress = false
        /// `capabilities.workspace.applyEdit`: open buffers' link edits can be sent.
        public var applyEdit = false

        public init(
            folders: [String], locale: String?, extensions: Extensions = Extensions(),
            confirmationTimeout: Double = InitializeRequest.defaultConfirmationTimeout
        ) {
            self.folders = folders
            self.locale = locale
            self.extensions = extensions
            self.confirmationTimeout = confirmationTimeout
        }

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            locale = try f.optionalString("locale")
            var folders: [String] = []
            for (i, folder) in (try f.optionalArray("workspaceFolders") ?? []).enumerated() {
                let ff = try Fields(folder, name: "workspaceFolders[\(i)]", prefix: "workspaceFolders[\(i)].")
                folders.append(try ff.string("uri"))
            }
            if folders.isEmpty, let root = try f.optionalString("rootUri") { folders = [root] }
            if folders.isEmpty, let rootPath = try f.optionalString("rootPath") {
                folders = [FileURI.uri(Array(rootPath.utf8))]
            }
            self.folders = folders
            inlayHintRefresh = json["capabilities"]?["workspace"]?["inlayHint"]?["refreshSupport"]?.boolValue ?? false
            workDoneProgress = json["capabilities"]?["window"]?["workDoneProgress"]?.boolValue ?? false
            applyEdit = json["capabilities"]?["workspace"]?["applyEdit"]?.boolValue ?? false
            extensions = try Extensions(capabilities: json["capabilities"])
            if let options = f.object["initializationOptions"], !options.isNull {
                let o = try Fields(options, name: "initializationOptions", prefix: "initializationOptions.")
                confirmationTimeout = try o.optionalPositiveNumber("confirmationTimeout") ?? confirmationTimeout
            }
        }
    }

    public static let defaultConfirmationTimeout: Double = 120

    /// Every command `workspace/executeCommand` accepts.
    public static let commands = CarrelCommand.Name.allCases.map(\.rawValue)

    public static func result(version: String, vocabulary: Vocabulary) -> JSONValue {
        [
            "capabilities": [
                "workspaceSymbolProvider": true,
                "executeCommandProvider": ["commands": .array(commands.map { .string($0) })],
                "workspace": [
                    "workspaceFolders": ["supported": true, "changeNotifications": true],
                    "fileOperations": ["willRename": WillRenameFilesRequest.registration],
                ],
                // Full sync: unsaved text is counted whole on each change.
                "textDocumentSync": ["openClose": true, "change": 1],
                "documentSymbolProvider": true,
                "inlayHintProvider": true,
                "definitionProvider": true,
                "referencesProvider": true,
                "documentLinkProvider": ["resolveProvider": false],
                "completionProvider": CompletionRequest.registration,
                "experimental": ["carrel": vocabulary.json],
            ],
            "serverInfo": ["name": "carrel", "version": .string(version)],
        ]
    }
}
