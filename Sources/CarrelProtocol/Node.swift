import CarrelJSON

/// One row of the binder on the wire. Written straight to bytes: the full
/// tree of a large library is the server's biggest response.
public struct Node {
    public var uri: String?
    /// The URI already percent-encoded (plain ASCII, nothing to escape),
    /// written as is; when set, `uri` is not used. The renderer builds URIs
    /// as bytes, and a tree has one per node.
    public var encodedURI: [UInt8]?
    public var name: String
    public var title: String
    public var kind: String
    public var role: String?
    public var icon: String
    public var permanent: Bool
    public var virtual: Bool
    public var projectType: String?
    public var folderCount: Int
    public var fileCount: Int
    public var created: Int64?
    public var modified: Int64?
    public var hasChildren: Bool
    public var children: [Node]?
    /// On the row of a paged `carrel/tree`: how many children it has in
    /// all, so the client knows when it holds every page.
    public var childCount: Int?
    public var inTrash = false
    /// The writer left the row out of compiling (`carrel.setCompileIncluded`).
    public var leftOut = false
    public var link = false
    public var unreadable = false
    /// False on a project or library whose deletes no longer ask first.
    public var confirmDelete = true
    /// "always" or "never" on a project or library row; "ask", the default, is left out.
    public var linkUpdates = "ask"
    /// Files below the row, each counted once; nil on files.
    public var fileTotal: Int?
    /// Sync engines' conflict copies below the row, apart from `fileTotal`;
    /// nil when there are none.
    public var conflictTotal: Int?
    /// On a sync engine's conflict copy: the URI of its original (which
    /// may not exist), percent-encoded ASCII.
    public var conflictOf: [UInt8]?
    /// A row's identity where its URI is not enough (sections have none; a
    /// row under "All" repeats a file shown in its folder), percent-encoded
    /// ASCII. Clients key rows by `id` when present, else by `uri`.
    public var id: [UInt8]?
    /// The row's counts in the client's words ("3 files · 1,243 words"); nil when there is nothing to say.
    public var summary: String?
    /// The row's subtree is not read yet (the first scan is still under
    /// way below it), so its counts are partial.
    public var counting = false
    /// Words in the row (a file's own, a container's sum); nil until counted.
    public var words: Int?
    /// The file's words are an open buffer's, not saved yet.
    public var wordsUnsaved = false
    /// The writer's word target for the row.
    public var target: Int?
    /// On projects: today's words on this device, and the day's target.
    public var sessionWords: Int?
    public var sessionTarget: Int?

    public init(
        uri: String?, name: String, title: String, kind: String, role: String? = nil, icon: String,
        permanent: Bool = false, virtual: Bool = false, projectType: String? = nil,
        folderCount: Int = 0, fileCount: Int = 0, created: Int64? = nil, modified: Int64? = nil,
        hasChildren: Bool = false, children: [Node]? = nil
    ) {
        self.uri = uri
        self.name = name
        self.title = title
        self.kind = kind
        self.role = role
        self.icon = icon
        self.permanent = permanent
        self.virtual = virtual
        self.projectType = projectType
        self.folderCount = folderCount
        self.fileCount = fileCount
        self.created = created
        self.modified = modified
        self.hasChildren = hasChildren
        self.children = children
    }

    /// Keys in sorted order, like every other message, so output is stable.
    public func write(to w: inout JSONWriter) {
        write(to: &w, children: children.map { list in { (w: inout JSONWriter) in for c in list { c.write(to: &w) } } })
    }

    /// `children`, when given, writes the child objects; the array around them is written here.
    public func write(to w: inout JSONWriter, children writeChildren: ((inout JSONWriter) -> Void)?) {
        w.beginObject()
        if let childCount { w.key(literal: "childCount"); w.int(childCount) }
        if let writeChildren {
            w.key(literal: "children")
            w.beginArray()
            writeChildren(&w)
            w.endArray()
        }
        if !confirmDelete { w.key(literal: "confirmDelete"); w.bool(false) }
        if let conflictOf { w.key(literal: "conflictOf"); w.asciiString(conflictOf) }
        if let conflictTotal { w.key(literal: "conflictTotal"); w.int(conflictTotal) }
        if counting { w.key(literal: "counting"); w.bool(true) }
        if let created { w.key(literal: "created"); w.int(Int(created)) }
        w.key(literal: "fileCount"); w.int(fileCount)
        if let fileTotal { w.key(literal: "fileTotal"); w.int(fileTotal) }
        w.key(literal: "folderCount"); w.int(folderCount)
        w.key(literal: "hasChildren"); w.bool(hasChildren)
        w.key(literal: "icon"); w.string(icon)
        if let id { w.key(literal: "id"); w.asciiString(id) }
        if inTrash { w.key(literal: "inTrash"); w.bool(true) }
        w.key(literal: "kind"); w.string(kind)
        if leftOut { w.key(literal: "leftOut"); w.bool(true) }
        if link { w.key(literal: "link"); w.bool(true) }
        if linkUpdates != "ask" { w.key(literal: "linkUpdates"); w.string(linkUpdates) }
        if let modified { w.key(literal: "modified"); w.int(Int(modified)) }
        w.key(literal: "name"); w.string(name)
        w.key(literal: "permanent"); w.bool(permanent)
        if let projectType { w.key(literal: "projectType"); w.string(projectType) }
        if let role { w.key(literal: "role"); w.string(role) }
        if let sessionTarget { w.key(literal: "sessionTarget"); w.int(sessionTarget) }
        if let sessionWords { w.key(literal: "sessionWords"); w.int(sessionWords) }
        if let summary { w.key(literal: "summary"); w.string(summary) }
        if let target { w.key(literal: "target"); w.int(target) }
        w.key(literal: "title"); w.string(title)
        if unreadable { w.key(literal: "unreadable"); w.bool(true) }
        if let encodedURI {
            w.key(literal: "uri")
            w.asciiString(encodedURI)
        } else if let uri {
            w.key(literal: "uri")
            w.string(uri)
        }
        w.key(literal: "virtual"); w.bool(virtual)
        if let words { w.key(literal: "words"); w.int(words) }
        if wordsUnsaved { w.key(literal: "wordsUnsaved"); w.bool(true) }
        w.endObject()
    }

    public var json: JSONValue {
        var w = JSONWriter()
        write(to: &w)
        return (try? JSONParser.parse(w.bytes)) ?? .null
    }
}
