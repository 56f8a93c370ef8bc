import CarrelJSON

/// `carrel/tree`: the binder's nodes. Without `uri`, one root per workspace
/// folder; `depth` counts levels of children (omitted: everything). With
/// `uri` and `depth` 1, `from` and `count` ask for a page of the children,
/// so a client can take a folder of thousands of rows in pieces it parses
/// without a stall.
public enum TreeRequest {
    public static let method = "carrel/tree"

    public struct Params: Equatable {
        public var uri: String?
        public var depth: Int?
        public var page: Page?

        public init(uri: String? = nil, depth: Int? = nil, page: Page? = nil) {
            self.uri = uri
            self.depth = depth
            self.page = page
        }

        public init(json: JSONValue) throws(ParamError) {
            let f = try Fields(json)
            uri = try f.optionalString("uri")
            depth = try f.optionalNonNegativeInt("depth")
            let from = try f.optionalNonNegativeInt("from")
            let count = try f.optionalNonNegativeInt("count")
            page = nil
            guard from != nil || count != nil else { return }
            // A page is of one listing: the children of one row.
            guard uri != nil, depth == 1 else {
                let key = from != nil ? "from" : "count"
                throw ParamError(key, .wrongType(expected: Self.pageOnly, found: f.object[key]?.typeName ?? "null"))
            }
            page = Page(from: from ?? 0, count: count)
        }

        public static let pageOnly = "absent unless “uri” is given with “depth” 1"
    }

    /// Children `from` (0 is the first) and at most `count` of them (all the
    /// rest when nil). Any values are safe: a page past the end is empty.
    public struct Page: Equatable, Sendable {
        public var from: Int
        public var count: Int?

        public init(from: Int = 0, count: Int? = nil) {
            self.from = from
            self.count = count
        }

        /// The indices of the page among `total` children, without overflow.
        public func range(in total: Int) -> Range<Int> {
            let start = min(from, total)
            let rest = total - start
            return start..<(start + min(count ?? rest, rest))
        }
    }

    public typealias Result = [Node]
}
