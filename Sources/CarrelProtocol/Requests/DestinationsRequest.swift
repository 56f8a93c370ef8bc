import CarrelJSON

/// `carrel/destinations`: the folders an item can be moved into, for a
/// Move picker that offers nothing `carrel.moveTo` would refuse.
public enum DestinationsRequest {
    public static let method = "carrel/destinations"

    public struct Params: Equatable {
        public var uri: String

        public init(uri: String) { self.uri = uri }

        public init(json: JSONValue) throws(ParamError) {
            uri = try Fields(json).string("uri")
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
