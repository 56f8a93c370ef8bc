import CarrelJSON

/// The commands of `workspace/executeCommand`, with their typed arguments.
public enum CarrelCommand: Equatable {
    public enum Name: String, CaseIterable {
        case newProject = "carrel.newProject"
        case newFolder = "carrel.newFolder"
        case newFile = "carrel.newFile"
        case rename = "carrel.rename"
        case moveTo = "carrel.moveTo"
        case delete = "carrel.delete"
        case restore = "carrel.restore"
        case emptyTrash = "carrel.emptyTrash"
        case setSort = "carrel.setSort"
        case setConfirmDelete = "carrel.setConfirmDelete"
        case setLinkUpdates = "carrel.setLinkUpdates"
        case reorder = "carrel.reorder"
        case setTarget = "carrel.setTarget"
        case duplicate = "carrel.duplicate"
        case compile = "carrel.compile"
        case setCompileIncluded = "carrel.setCompileIncluded"
        case setByline = "carrel.setByline"
        case snapshot = "carrel.snapshot"
        case snapshots = "carrel.snapshots"
        case compareSnapshot = "carrel.compareSnapshot"
        case rollBack = "carrel.rollBack"
        case undo = "carrel.undo"
        case redo = "carrel.redo"
        case setMarket = "carrel.setMarket"
        case submit = "carrel.submit"
        case setSubmissionStatus = "carrel.setSubmissionStatus"
        case withdrawOthers = "carrel.withdrawOthers"
    }

    /// The fields of a market's details `carrel.setMarket` sets.
    public static let marketFields = ["name", "url", "deadline", "readingPeriod", "fee", "simultaneous", "notes"]
    /// The statuses `carrel.setSubmissionStatus` takes.
    public static let submissionStatuses = [
        "pending", "shortlisted", "accepted", "rejected", "withdrawn", "noResponse",
    ]

    /// Which target `carrel.setTarget` sets: the item's words, or a project's words per day.
    public enum TargetKind: Equatable { case words, session }

    /// The largest target accepted, as `ProjectMetadata.maxTarget`.
    public static let maxTarget = 100_000_000

    case newProject(parentUri: String, name: String, type: String)
    case newFolder(parentUri: String, name: String)
    case newFile(parentUri: String, name: String)
    case rename(uri: String, newName: String)
    /// `before` or `after`: a child of the destination to place the item beside.
    case moveTo(uri: String, destinationUri: String, before: String? = nil, after: String? = nil)
    case delete(uri: String, confirmed: Bool)
    case restore(uri: String)
    case emptyTrash(projectUri: String, confirmed: Bool)
    case setSort(uri: String, by: String, descending: Bool)
    case setConfirmDelete(uri: String, confirm: Bool)
    /// `mode`: "always", "ask" or "never"; the server checks which.
    case setLinkUpdates(uri: String, mode: String)
    /// Exactly one of `before` and `after`, a sibling of `uri`; the server checks which.
    case reorder(uri: String, before: String?, after: String?)
    /// `words: N|null` on a project, folder or file; or `session: N|null` on a project. Null clears.
    case setTarget(uri: String, kind: TargetKind, value: Int?)
    /// A copy of a file or folder beside it ("Spring copy.md").
    case duplicate(uri: String)
    /// `recipe` and `format` default to the project type's first recipe and
    /// its format; `output` is an absolute path or `file:` URI the writer named.
    case compile(projectUri: String, recipe: String?, format: String?, output: String?)
    case setCompileIncluded(uri: String, included: Bool)
    /// The title page's author and contact lines; one left out stays as it
    /// is, an empty one clears it. At least one of them.
    case setByline(projectUri: String, author: String?, contact: [String]?)
    /// A snapshot of a file, or of each file in a folder; `title` is the writer's.
    case snapshot(uri: String, title: String?)
    /// A file's snapshots, newest first.
    case snapshots(uri: String)
    /// `snapshot` and `other` are snapshot names from `carrel.snapshots`;
    /// without `other`, the snapshot is compared with the file on disk.
    case compareSnapshot(uri: String, snapshot: String, other: String?)
    case rollBack(uri: String, snapshot: String)
    /// `library`: any URI in the library to undo in; without it, the only
    /// library, else the one last changed.
    case undo(library: String?)
    case redo(library: String?)
    /// `fields`: each a string, a boolean for `simultaneous`, or null to clear.
    case setMarket(uri: String, fields: [String: JSONValue])
    /// `items`: the pieces' URIs; `date` YYYY-MM-DD; `packetUri`: the compiled packet they went out in.
    case submit(items: [String], marketUri: String, date: String?, packetUri: String?, confirmed: Bool)
    /// `piece`: its key in the record, its path in the project, or its URI; every piece when absent.
    case setSubmissionStatus(
        record: String, piece: String?, status: String, date: String?, note: String?, fee: String? = nil)
    case withdrawOthers(record: String, piece: String?)

    /// Decodes the argument object of the named command.
    public init(_ name: Name, _ argument: JSONValue) throws(ParamError) {
        let f = try Fields(argument, name: "arguments[0]")
        switch name {
        case .newProject:
            self = .newProject(
                parentUri: try f.string("parentUri"), name: try f.string("name"), type: try f.string("type"))
        case .newFolder: self = .newFolder(parentUri: try f.string("parentUri"), name: try f.string("name"))
        case .newFile: self = .newFile(parentUri: try f.string("parentUri"), name: try f.string("name"))
        case .rename: self = .rename(uri: try f.string("uri"), newName: try f.string("newName"))
        case .moveTo:
            self = .moveTo(
                uri: try f.string("uri"), destinationUri: try f.string("destinationUri"),
                before: try f.optionalString("before"), after: try f.optionalString("after"))
        case .delete: self = .delete(uri: try f.string("uri"), confirmed: try f.optionalBool("confirmed") ?? false)
        case .restore: self = .restore(uri: try f.string("uri"))
        case .emptyTrash:
            self = .emptyTrash(
                projectUri: try f.string("projectUri"), confirmed: try f.optionalBool("confirmed") ?? false)
        case .setSort:
            self = .setSort(
                uri: try f.string("uri"), by: try f.string("by"), descending: try f.optionalBool("descending") ?? false)
        case .setConfirmDelete: self = .setConfirmDelete(uri: try f.string("uri"), confirm: try f.bool("confirm"))
        case .setLinkUpdates: self = .setLinkUpdates(uri: try f.string("uri"), mode: try f.string("mode"))
        case .reorder:
            self = .reorder(
                uri: try f.string("uri"), before: try f.optionalString("before"), after: try f.optionalString("after"))
        case .duplicate: self = .duplicate(uri: try f.string("uri"))
        case .compile:
            self = .compile(
                projectUri: try f.string("projectUri"), recipe: try f.optionalString("recipe"),
                format: try f.optionalString("format"), output: try f.optionalString("output"))
        case .setCompileIncluded:
            self = .setCompileIncluded(uri: try f.string("uri"), included: try f.bool("included"))
        case .setByline:
            let projectUri = try f.string("projectUri")
            let author = try f.optionalString("author")
            var contact: [String]?
            if let items = try f.optionalArray("contact") {
                contact = []
                for item in items {
                    guard let line = item.stringValue else {
                        throw ParamError("contact", .wrongType(expected: "an array of strings", found: item.typeName))
                    }
                    contact?.append(line)
                }
            }
            if author == nil && contact == nil { throw ParamError("author", .missing) }
            self = .setByline(projectUri: projectUri, author: author, contact: contact)
        case .snapshot: self = .snapshot(uri: try f.string("uri"), title: try f.optionalString("title"))
        case .snapshots: self = .snapshots(uri: try f.string("uri"))
        case .compareSnapshot:
            self = .compareSnapshot(
                uri: try f.string("uri"), snapshot: try f.string("snapshot"), other: try f.optionalString("other"))
        case .rollBack: self = .rollBack(uri: try f.string("uri"), snapshot: try f.string("snapshot"))
        case .undo: self = .undo(library: try f.optionalString("library"))
        case .redo: self = .redo(library: try f.optionalString("library"))
        case .setMarket:
            let uri = try f.string("uri")
            guard case .object(let fields)? = f.object["fields"] else {
                throw ParamError(
                    "fields",
                    f.object["fields"] == nil
                        ? .missing : .wrongType(expected: "an object", found: f.object["fields"]!.typeName))
            }
            for key in fields.keys where !Self.marketFields.contains(key) {
                throw ParamError(
                    "fields", .invalidValue("“\(key)”: expected one of \(Self.marketFields.joined(separator: ", "))"))
            }
            self = .setMarket(uri: uri, fields: fields)
        case .submit:
            let items = try f.optionalArray("items") ?? []
            if f.object["items"] == nil { throw ParamError("items", .missing) }
            var uris: [String] = []
            for (i, item) in items.enumerated() {
                guard let s = item.stringValue else {
                    throw ParamError(
                        "items", .wrongType(expected: "an array of URIs", found: "\(item.typeName) at \(i)"))
                }
                uris.append(s)
            }
            self = .submit(
                items: uris, marketUri: try f.string("marketUri"), date: try f.optionalString("date"),
                packetUri: try f.optionalString("packetUri"), confirmed: try f.optionalBool("confirmed") ?? false)
        case .setSubmissionStatus:
            let status = try f.string("status")
            guard Self.submissionStatuses.contains(status) else {
                throw ParamError(
                    "status",
                    .invalidValue("“\(status)”: expected one of \(Self.submissionStatuses.joined(separator: ", "))"))
            }
            self = .setSubmissionStatus(
                record: try f.string("record"), piece: try f.optionalString("piece"), status: status,
                date: try f.optionalString("date"), note: try f.optionalString("note"), fee: try f.optionalString("fee")
            )
        case .withdrawOthers:
            self = .withdrawOthers(record: try f.string("record"), piece: try f.optionalString("piece"))
        case .setTarget:
            let uri = try f.string("uri")
            let words = try f.positiveIntOrNull("words", max: Self.maxTarget)
            let session = try f.positiveIntOrNull("session", max: Self.maxTarget)
            switch (words, session) {
            case (let w?, nil): self = .setTarget(uri: uri, kind: .words, value: w)
            case (nil, let s?): self = .setTarget(uri: uri, kind: .session, value: s)
            case (nil, nil): throw ParamError("words", .missing)
            case (_?, _?): throw ParamError("session", .invalidValue("both words and session"))
            }
        }
    }
}
