import CarrelJSON

extension InitializeRequest {
    /// What a client says it understands beyond LSP, in its own
    /// `capabilities.experimental.carrel`, as the server says what it offers
    /// in the result's. A stock client says nothing, so it gets only
    /// standard LSP: lsp-mode warns of every notification it does not know,
    /// and eglot and others open every `workspace/symbol` result as a file.
    public struct Extensions: Equatable, Sendable {
        /// `didChange`: send `carrel/didChange` after every change on disk.
        public var didChange = false
        /// `folderSymbols`: list folders and projects in `workspace/symbol`.
        public var folderSymbols = false

        public init(didChange: Bool = false, folderSymbols: Bool = false) {
            self.didChange = didChange
            self.folderSymbols = folderSymbols
        }

        /// Every extension, as the Carrel plugins declare them.
        public static let all = Extensions(didChange: true, folderSymbols: true)

        public var json: JSONValue { ["didChange": .bool(didChange), "folderSymbols": .bool(folderSymbols)] }

        /// Read from the client's capabilities. Another client's
        /// `experimental` is its own business and is left alone; Carrel's
        /// part must be an object of booleans.
        init(capabilities: JSONValue?) throws(ParamError) {
            guard case .object(let experimental)? = capabilities?["experimental"],
                let carrel = experimental["carrel"]
            else { return }
            let name = "capabilities.experimental.carrel"
            let f = try Fields(carrel, name: name, prefix: name + ".")
            didChange = try f.optionalBool("didChange") ?? false
            folderSymbols = try f.optionalBool("folderSymbols") ?? false
        }
    }
}
