import CarrelJSON

/// `carrel/compileOptions`: what compiling one project offers and is set
/// to, for a client's Compile… and Set Byline…: the recipes the project
/// offers (its type's built-in ones, from the catalog, then its own
/// `.carrel/recipes` files), and the title page's byline.
public enum CompileOptionsRequest {
    public static let method = "carrel/compileOptions"

    public struct Params: Equatable {
        public var projectUri: String

        public init(projectUri: String) { self.projectUri = projectUri }

        public init(json: JSONValue) throws(ParamError) {
            projectUri = try Fields(json).string("projectUri")
        }
    }

    /// One recipe row: its `name` for `carrel.compile`, its `title` to
    /// show, and its own format; a recipe file that cannot be used has no
    /// format, and compiling it says why.
    public struct Recipe: Equatable {
        public var name: String
        public var title: String
        public var format: String?

        public init(name: String, title: String, format: String?) {
            self.name = name
            self.title = title
            self.format = format
        }

        public var json: JSONValue {
            var out: [String: JSONValue] = ["name": .string(name), "title": .string(title)]
            if let format { out["format"] = .string(format) }
            return .object(out)
        }
    }

    public static func result(recipes: [Recipe], author: String?, contact: [String]) -> JSONValue {
        [
            "recipes": .array(recipes.map(\.json)),
            "byline": ["author": author.map { .string($0) } ?? .null, "contact": .array(contact.map { .string($0) })],
        ]
    }
}
