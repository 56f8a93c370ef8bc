import CarrelJSON

/// `carrel/destinations`: the folders an item can be moved into, for a
/// Move picker that offers nothing `carrel.moveTo` would refuse; or the
/// markets it can be submitted to, for a Submit picker.
public enum DestinationsRequest {
    public static let method = "carrel/destinations"

    public struct Params: Equatable {
        public var uri: String
        /// Where a Move picker's "New folder…" may make the folder to move
        /// the item into: the same folders, less the Trash (a folder made
        /// there could not be moved into), plus the item's own folder.
        public var forNewFolder: Bool
        /// The markets of the item's project, for `carrel.submit`.
        public var forSubmit: Bool

        public init(uri: String, forNewFolder: Bool = false, forSubmit: Bool = false) {
            self.uri = uri
            self.forNewFolder = forNewFolder
            self.forSubmit = forSubmit
        }

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            uri = try f.string("uri")
            forNewFolder = false
            forSubmit = false
            switch try f.optionalString("purpose") {
            case nil, "move": break
            case "newFolder": forNewFolder = true
            case "submit": forSubmit = true
            case let other?:
                throw ParamError("purpose", .invalidValue("“\(other)”: expected “move”, “newFolder” or “submit”"))
            }
        }
    }

    /// One folder: its URI for `carrel.moveTo`, and its path from the library
    /// down, in the client's language, for the picker to show.
    public struct Destination: Equatable {
        public var uri: String
        public var label: [String]

        public init(uri: String, label: [String]) {
            self.uri = uri
            self.label = label
        }

        public var json: JSONValue { ["uri": .string(uri), "label": .array(label.map { .string($0) })] }
    }
}
