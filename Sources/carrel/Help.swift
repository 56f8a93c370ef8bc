/// `carrel --help` and `carrel help SUBCOMMAND`.
enum Help {
    static let overview = """
    carrel: a writer's binder over plain files.

    USAGE: carrel <subcommand> [arguments]

    SUBCOMMANDS:
      lsp                          Serve editors over LSP on stdin/stdout.
      init DIR --type TYPE         Make DIR a project (blank, poetry, shortStory, novel, script).
      tree [DIR] [--json]          Show the binder: sections, icons and counts.
      new-folder PARENT NAME       Create a folder.
      new-file PARENT NAME         Create an empty file (".md" added when NAME has no extension).
      rename PATH NEW-NAME         Rename a file or folder.
      mv PATH DESTINATION-FOLDER   Move a file or folder into another folder.
      rm PATH [--yes]              Move to the project's Trash (inside Trash: delete for good).
      restore PATH                 Put an item in Trash back where it came from.
      empty-trash PROJECT [--yes]  Delete everything in a project's Trash for good.
      help SUBCOMMAND              Explain one subcommand.

    OPTIONS:
      --library DIR   The library (workspace folder) to work in. Default: the
                      folder holding the nearest project, else the current folder.
      --version       Print the version.

    Errors go to stderr with a non-zero exit code. Messages are in French when
    LANG starts with "fr".
    """

    static let subcommands: [String: String] = [
        "lsp": """
        USAGE: carrel lsp [--stdio] [--log-file PATH]

        Speaks the Language Server Protocol on stdin and stdout; logs go to stderr.
        --stdio is accepted for clients that pass it. --log-file appends every
        message in and out to PATH, for debugging. The protocol is documented in
        editors/PROTOCOL.md.
        """,
        "init": """
        USAGE: carrel init DIR --type blank|poetry|shortStory|novel|script

        Creates DIR as a project of that type, with its permanent folders. If DIR
        already exists it becomes a project in place; nothing in it is changed.
        """,
        "tree": """
        USAGE: carrel tree [DIR] [--json] [--depth N]

        Shows DIR (default: the current folder) as the binder: projects, their
        sections and permanent folders, then folders and files, each with its
        icon name and counts (folders ▸ files). --json prints the same nodes as
        the protocol's carrel/tree.
        """,
        "new-folder": "USAGE: carrel new-folder PARENT NAME\n\nCreates the folder NAME inside PARENT. Names are trimmed, must be unique in\ntheir folder (ignoring case), and may not contain \"/\" or control characters.",
        "new-file": "USAGE: carrel new-file PARENT NAME\n\nCreates an empty file NAME inside PARENT. When NAME has no extension the\nproject's default (\"md\") is added.",
        "rename": "USAGE: carrel rename PATH NEW-NAME\n\nRenames a file or folder. Permanent folders cannot be renamed. Nothing is\never overwritten.",
        "mv": "USAGE: carrel mv PATH DESTINATION-FOLDER\n\nMoves a file or folder (with everything in it) into DESTINATION-FOLDER in the\nsame library. A name clash is an error, never an overwrite.",
        "rm": "USAGE: carrel rm PATH [--yes]\n\nMoves PATH to its project's Trash, remembering where it came from. Outside\nprojects it goes to the system trash. Inside Trash it deletes for good,\nafter asking (or with --yes).",
        "restore": "USAGE: carrel restore PATH\n\nPuts an item in Trash back into the folder it came from, recreating missing\nfolders. A name clash gets a \" 2\" suffix.",
        "empty-trash": "USAGE: carrel empty-trash PROJECT [--yes]\n\nDeletes everything in PROJECT's Trash for good. Asks first unless --yes.",
        "help": "USAGE: carrel help [SUBCOMMAND]\n\nExplains a subcommand.",
    ]
}
