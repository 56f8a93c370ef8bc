import CarrelJSON

/// One thing the generator does, printed as it is done so that a failure
/// lists the exact sequence its seed replays.
enum Step {
    /// `workspace/executeCommand` of one Carrel command to the running server.
    case command(String, JSONValue)
    /// `carrel/tree` below one row.
    case tree(String?)
    /// A listing that must skip, with its reason, each forged file it meets.
    case listing(String, JSONValue)
    /// The CLI, run beside the server on the same library.
    case cli([String])
    /// The server stops (gracefully, or SIGKILL) and a new one opens the library.
    case restart(graceful: Bool)
    /// Another program (a sync engine, git, the writer's shell) changes the
    /// disk while the server watches it.
    case outside(String, () -> Void)

    var text: String {
        switch self {
        case .command(let c, let a): return "lsp \(c) \(a.text())"
        case .tree(let uri): return "lsp carrel/tree \(uri ?? "(roots)")"
        case .listing(let m, let p): return "lsp \(m) \(p.text())"
        case .cli(let args): return "cli carrel \(args.joined(separator: " "))"
        case .restart(let graceful): return graceful ? "restart (shutdown, exit)" : "restart (SIGKILL)"
        case .outside(let what, _): return "outside: \(what)"
        }
    }
}

/// What a run may plant. Each run enables some, so that one defect's crash
/// does not hide the others in every run.
enum Hazard: CaseIterable {
    /// Settings stamped with extreme `changed` values, on kept and dropped entries.
    case forgedStamps
    /// `folders` naming a writer's folder as another role (the Trash as "Draft").
    case rolesOnWriterFolders
    /// A Syncthing conflict copy of project.json arriving with forged roles.
    case settingsConflictCopy
    /// A Trash record whose origin is 1,500 folders deep.
    case deepOrigin
    /// A Trash record whose origin is inside the Trash itself.
    case originInsideTrash
    /// Two machines deleted two items of one name; the Trash kept both.
    case twoMachines
    /// An order file over 1 MiB where the writer reorders.
    case hugeOrderFile
    /// `.gitattributes` a hard link to a file outside the library.
    case linkedGitattributes
    /// Markets and submission records forged: links, pipes, huge, torn, paths out of the project.
    case forgedSubmissions
    /// A file's snapshots forged: links, pipes, folders, huge, forged names, temporaries.
    case forgedSnapshots
}
