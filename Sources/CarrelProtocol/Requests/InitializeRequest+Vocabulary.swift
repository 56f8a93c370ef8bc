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

        /// A compile format: `id` for `carrel.compile`, `title` to show,
        /// and whether pandoc makes it.
        public struct Format: Equatable {
            public var id: String
            public var title: String
            public var pandoc: Bool
            public init(id: String, title: String, pandoc: Bool) {
                self.id = id
                self.title = title
                self.pandoc = pandoc
            }
        }

        /// A built-in recipe of a project type: `name` for `carrel.compile`, its title and format.
        public struct Recipe: Equatable {
            public var name: String
            public var title: String
            public var format: String
            public init(name: String, title: String, format: String) {
                self.name = name
                self.title = title
                self.format = format
            }
        }

        /// A submission status: `id` for `carrel.setSubmissionStatus`, `title` to show.
        public struct Status: Equatable {
            public var id: String
            public var title: String
            public init(id: String, title: String) {
                self.id = id
                self.title = title
            }
        }

        public var projectTypes: [ProjectType]
        public var formats: [Format] = []
        /// A piece's statuses at a market, in listing order.
        public var submissionStatuses: [Status] = []
        /// Each project type's built-in recipes, by type id, the default first.
        public var recipes: [String: [Recipe]] = [:]
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
                "submissions": [
                    "statuses": .array(submissionStatuses.map { ["id": .string($0.id), "title": .string($0.title)] })
                ],
                "compile": [
                    "formats": .array(
                        formats.map { ["id": .string($0.id), "title": .string($0.title), "pandoc": .bool($0.pandoc)] }),
                    "recipes": .object(
                        recipes.mapValues { list in
                            .array(
                                list.map {
                                    [
                                        "name": .string($0.name), "title": .string($0.title),
                                        "format": .string($0.format),
                                    ]
                                })
                        }),
                ],
            ]
        }
    }
}
