import CarrelJSON

extension InitializeRequest {
    /// What the catalog declares that clients show, in the `initialize`
    /// locale: project types, sort choices and the name limits. Sent in
    /// `capabilities.experimental.carrel`, so clients read them instead of
    /// keeping tables of their own.
    public struct Vocabulary: Equatable {
        public struct ProjectType: Equatable {
            public var id: String
            public var title: String
            public init(id: String, title: String) {
                self.id = id
                self.title = title
            }
        }

        public struct Sort: Equatable {
            public var by: String
            public var descending: Bool
            public var title: String
            public init(by: String, descending: Bool, title: String) {
                self.by = by
                self.descending = descending
                self.title = title
            }
        }

        public var projectTypes: [ProjectType]
        public var sorts: [Sort]
        /// The longest name, in UTF-8 bytes.
        public var maxNameBytes: Int
        /// Added to a new file's name when it has none.
        public var defaultExtension: String

        public init(projectTypes: [ProjectType], sorts: [Sort], maxNameBytes: Int, defaultExtension: String) {
            self.projectTypes = projectTypes
            self.sorts = sorts
            self.maxNameBytes = maxNameBytes
            self.defaultExtension = defaultExtension
        }

        public var json: JSONValue {
            [
                "projectTypes": .array(projectTypes.map { ["id": .string($0.id), "title": .string($0.title)] }),
                "sorts": .array(
                    sorts.map {
                        ["by": .string($0.by), "descending": .bool($0.descending), "title": .string($0.title)]
                    }),
                "names": ["maxBytes": .int(maxNameBytes), "defaultExtension": .string(defaultExtension)],
            ]
        }
    }
}
