import CarrelJSON

/// `carrel/destinations`: the folders an item can be moved into, for a
/// Move picker that offers nothing `carrel.moveTo` would refuse.
public enum DestinationsRequest {
    public static let method = "carrel/destinations"

    public struct Params: Equatable {
        public var uri: String
        /// Where a Move picker's "New folder…" may make the folder to move
        /// the item into: the same folders, less the Trash (a folder made
        /// there could not be moved into), plus the item's own folder.
        public var forNewFolder: Bool

        public init(uri: String, forNewFolder: Bool = false) {
            self.uri = uri
            self.forNewFolder = forNewFolder
        }

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            uri = try f.string("uri")
            switch try f.optionalString("purpose") {
            case nil, "move": forNewFolder = false
            case "newFolder": forNewFolder = true
            case let other?: throw ParamError("purpose", .invalidValue("“\(other)”: expected “move” or “newFolder”"))
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
