import CarrelJSON

/// `carrel/market`: a market folder's details, so a client's Market
/// details… can show each one to edit, and the writer can clear it.
public enum MarketRequest {
    public static let method = "carrel/market"

    public struct Params: Equatable {
        /// The market: a folder directly in a project's Magazines,
        /// Competitions, Commissions or Other.
        public var uri: String

        public init(uri: String) { self.uri = uri }

        public init(json: JSONValue) throws(ParamError) {
            uri = try Fields(json).string("uri")
        }
    }

    /// The details as `carrel.setMarket` takes them; a field not set is
    /// absent, never null, so every field present is one to show.
    public struct Details: Equatable {
        public var name: String?
        public var url: String?
        /// `YYYY-MM-DD`.
        public var deadline: String?
        public var readingPeriod: String?
        public var fee: String?
        /// Whether the market takes work that is out elsewhere.
        public var simultaneous: Bool?
        public var notes: String?

        public init(
            name: String? = nil, url: String? = nil, deadline: String? = nil, readingPeriod: String? = nil,
            fee: String? = nil, simultaneous: Bool? = nil, notes: String? = nil
        ) {
            self.name = name
            self.url = url
            self.deadline = deadline
            self.readingPeriod = readingPeriod
            self.fee = fee
            self.simultaneous = simultaneous
            self.notes = notes
        }

        public var json: JSONValue {
            var out: [String: JSONValue] = [:]
            let texts = [
                ("name", name), ("url", url), ("deadline", deadline), ("readingPeriod", readingPeriod), ("fee", fee),
                ("notes", notes),
            ]
            for case (let key, let value?) in texts { out[key] = .string(value) }
            if let simultaneous { out["simultaneous"] = .bool(simultaneous) }
            return .object(out)
        }
    }
}
