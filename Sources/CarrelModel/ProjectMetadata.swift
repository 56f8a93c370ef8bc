/// What a project remembers beyond its files: its settings and where each
/// Trash item came from.
/// The Store converts it to and from JSON; nothing here knows the format.
public struct ProjectMetadata: Sendable, Equatable {
    public static let currentVersion = 1

    public struct TrashRecord: Sendable, Equatable {
        /// Where the item was, relative to the project root, "/"-separated.
        public var originalPath: String
        /// When it was deleted, in ms since the epoch.
        public var deleted: Int64
        /// Which stored record this is, opaque to the model; empty until stored.
        public var id: String
        /// The name the item was deleted under, when a sync engine renamed
        /// it since (a conflict copy) and the record was matched to it by
        /// a guess; nil for a record written by the item's own deletion.
        public var deletedAs: String?
        public init(originalPath: String, deleted: Int64, id: String = "", deletedAs: String? = nil) {
            self.originalPath = originalPath
            self.deleted = deleted
            self.id = id
            self.deletedAs = deletedAs
        }
    }

    public var version: Int
    public var type: ProjectType
    /// Creation time, in ms since the epoch.
    public var created: Int64
    /// Which path (relative to the project root) is which permanent folder.
    public var folders: [FolderRole: String]
    /// Items in Trash, keyed by their name in the Trash folder.
    public var trash: [String: TrashRecord]
    public var sort: SortSetting
    /// Sorts the writer set on single folders, by path relative to the
    /// project root; every other folder follows `sort`.
    public var folderSorts: [String: SortSetting]
    /// False once the writer chose "Delete and Don't Ask Again".
    public var confirmDelete: Bool
    /// Whether a rename or move through Carrel updates the links it would break.
    public var linkUpdates: LinkUpdates
    public var defaultExtension: String
    /// Word targets by path relative to the project root ("Draft/Spring.md");
    /// the project's own total target under `projectTargetKey`.
    public var targets: [String: Int]
    public static let projectTargetKey = "."
    /// Items the writer left out of compiling, by path relative to the
    /// project root; what lies below one is left out with it.
    public var leftOut: Set<String>
    /// Who wrote the project, for a compiled manuscript's title page.
    public var author: String?
    /// Contact lines under the author's name (address, email), in order.
    public var contact: [String]
    /// The largest word target kept: more than any book, well inside every integer type.
    public static let maxTarget = 100_000_000
    /// A new project's `defaultExtension`, and the one outside projects.
    public static let standardExtension = "md"

    public init(type: ProjectType, created: Int64) {
        self.version = Self.currentVersion
        self.type = type
        self.created = created
        self.folders = Dictionary(uniqueKeysWithValues: type.directories.map { ($0.role, $0.diskName!) })
        self.trash = [:]
        self.sort = .byName
        self.folderSorts = Dictionary(
            uniqueKeysWithValues: type.directories.filter(\.startsInBinderOrder).map { ($0.diskName!, .manual) })
        self.confirmDelete = true
        self.linkUpdates = .ask
        self.defaultExtension = Self.standardExtension
        self.targets = [:]
        self.leftOut = []
        self.author = nil
        self.contact = []
    }

    /// Whether the item at `path` is left out of compiling, itself or through a folder above it.
    public func isLeftOut(_ path: String) -> Bool {
        guard !leftOut.isEmpty else { return false }
        var p = Substring(path)
        while true {
            if leftOut.contains(String(p)) { return true }
            guard let slash = p.lastIndex(of: "/") else { return false }
            p = p[..<slash]
        }
    }

    /// Targets after an item moved from `old` to `new` (relative paths), or
    /// left the project (`new` nil): its own target and those below it follow it.
    public mutating func moveTargets(from old: String, to new: String?) {
        for (key, value) in targets where key == old || key.hasPrefix(old + "/") {
            targets[key] = nil
            if let new { targets[new + key.dropFirst(old.count)] = value }
        }
        for key in leftOut where key == old || key.hasPrefix(old + "/") {
            leftOut.remove(key)
            if let new { leftOut.insert(new + key.dropFirst(old.count)) }
        }
    }

    /// The sort in force inside the folder at `path` (relative to the project root).
    public func sort(at path: String) -> SortSetting { folderSorts[path] ?? sort }

    /// The on-disk path of a permanent folder, falling back to the declared name.
    public func path(of folder: PermanentFolder) -> String? {
        folders[folder.role] ?? folder.diskName
    }
}
