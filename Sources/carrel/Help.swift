import CarrelModel
import CarrelServer

/// `carrel --help` and `carrel help SUBCOMMAND`.
enum Help {
    static let overview = """
        carrel: a writer's binder over plain files.

        USAGE: carrel <subcommand> [arguments] [--library DIR]

        SUBCOMMANDS:
          lsp                          Serve editors over LSP on stdin/stdout.
          init DIR --type TYPE         Make DIR a project (Blank, Poetry, Short Story, Novel, Script).
          tree [FOLDER] [--json]       Show the binder: sections, folders, files and counts.
          conflicts [PATH] [--json]    List the conflict copies sync engines left, with their originals.
          new-folder PARENT NAME       Create a folder.
          new-file PARENT NAME         Create an empty file (".md" added when NAME has no extension).
          rename PATH NEW-NAME         Rename a file or folder (--dry-run: show what it would change).
          mv PATH DESTINATION-FOLDER   Move a file or folder into another folder (--dry-run too).
          rm PATH [--yes]              Move to the project's Trash (inside Trash: delete for good).
          restore PATH                 Put an item in Trash back where it came from.
          duplicate PATH               Copy a file or folder beside itself ("Spring copy.md").
          undo                         Take back the library's last binder operation.
          redo                         Do again what undo took back.
          empty-trash PROJECT [--yes]  Delete everything in a project's Trash for good (no undo).
          snapshot PATH [--title T]    Keep a dated copy of a file's text (of each file, for a folder).
          snapshots PATH [--json]      List a file's snapshots, newest first: date, words, title, name.
          compare PATH SNAPSHOT        Words the file adds to a snapshot and removes ("+120 −40 words").
          rollback PATH SNAPSHOT       Put a snapshot's text back, keeping the current text as a snapshot.
          sort PATH ORDER              Sort a project or folder: manual, name, modified, created [--descending].
          reorder PATH --before|--after SIBLING
                                       Place an item before or after another of its folder.
          ask-before-deleting PATH yes|no
                                       Whether the editors ask before deleting in PATH's project.
          links PATH always|ask|never  Whether renames and moves in PATH's project update links.
          target PATH N|none [--daily] Set or clear a word target (--daily: a project's, per day).
          compile PROJECT [--recipe R] [--to FORMAT] [-o FILE]
                                       Make the manuscript or packet, in binder order.
          include PATH yes|no          Whether PATH goes into the compiled manuscript.
          byline PROJECT [--author NAME] [--contact "LINE | LINE"]
                                       The name and contact lines of the title page.
          market PATH [--deadline D] [--simultaneous yes|no] …
                                       Show or set a market's details (a folder in Magazines, Competitions…).
          submit PATH... --to MARKET [--date D]
                                       Record pieces sent to a market, keeping the text sent.
          submission-status RECORD STATUS [--piece P]
                                       pending, shortlisted, accepted, rejected, withdrawn or noResponse.
          withdraw-others RECORD [--piece P]
                                       Withdraw an accepted piece from every other market.
          submissions [PATH] [--pending] [--json | --csv]
                                       List submissions, pending first: all, a piece's or a market's.
          import-submissions FILE.csv PROJECT
                                       Record submissions tracked in Chillsubs (its CSV export).
          help SUBCOMMAND              Explain one subcommand.

        THE LIBRARY:
          Like an editor's workspace folder, the CLI works in one library and
          refuses any path outside it. The library is, first found:
            --library DIR      (anywhere on the command line)
            CARREL_LIBRARY     (environment variable)
            the library around the first path given, from any folder,
            else the library around the current folder,
            else the current folder itself.
          The library around a path is the folder holding the nearest project
          at or above it, else the nearest folder at or above it that holds
          projects. For init, the path is the new project's folder: the library
          it is in, else that folder itself (a first project makes it a library).
          The root, a folder directly in it (/home, /tmp…) and home folders
          (yours, the one holding it, those beside it) are never the library
          unless named with --library. Projects sit directly inside their library; projects
          cannot be nested.

        OPTIONS:
          --library DIR   The library to work in (see above).
          --version       Print the version.
          --              Ends the options: what follows are paths and names.

        EXIT CODES:
          0 done; 1 refused (nothing changed); 2 a mistake in the command line,
          or a path outside the library (nothing changed).

        Results go to stdout, errors and questions to stderr. A question reads
        its answer from stdin, terminal or pipe ("echo y | carrel empty-trash P");
        --yes answers yes. Messages are in French when LANG starts with "fr".
        """

    /// Names listed as the code declares them, so the help never lists
    /// fewer than there are; folded to the help's width.
    static func wrapped(_ names: [String], then last: String) -> String {
        var lines: [String] = []
        var line = ""
        for (index, name) in names.enumerated() {
            let word = name + (index == names.count - 1 ? last : ",")
            if !line.isEmpty && line.count + 1 + word.count > 72 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    static let subcommands: [String: String] = [
        "lsp": """
        USAGE: carrel lsp [--stdio] [--log-file PATH]

        Speaks the Language Server Protocol on stdin and stdout; logs go to
        stderr. Editors start it; you do not run it by hand. --stdio is
        accepted for clients that pass it. --log-file appends every message in
        and out to PATH, for debugging.

        The workspace folders of `initialize` are the libraries; the server
        never touches a path outside them. Besides the standard lifecycle, it
        answers `carrel/tree` (the binder's rows), `workspace/symbol` (files by
        fuzzy name) and `workspace/executeCommand` with
        \(wrapped(Server.commandNames, then: ","))
        whose arguments are file: URIs and names. Every change is announced
        with `carrel/didChange`. A refusal is an error whose `data.reason`
        names it, one of
        \(wrapped(Reason.allCases.map(\.rawValue), then: ","))
        and whose message is the sentence for the writer. Deletes ask first
        with `window/showMessageRequest`.
        """,
        "init": """
        USAGE: carrel init DIR --type TYPE

        Creates DIR as a project of that type, with its permanent folders. TYPE
        is Blank, Poetry, Short Story, Novel or Script, in any case, with or
        without spaces or hyphens ("short-story", shortStory).

        DIR goes directly in its library, the folder DIR is in; a folder
        inside a library or inside a project is refused. So "carrel init
        ~/Writing/Novel --type novel" works from any folder, and ~/Writing,
        holding no project before, becomes the library. The root, a folder
        directly in it and a home folder are refused unless named with
        --library.

        If DIR already exists it becomes a project in place; nothing in it is
        changed or moved. A folder whose name differs from a permanent
        folder's only in case or accents (draft for Draft) becomes that
        permanent folder under its own name; a file in the way is refused.
        A project inside a project, at any depth, is refused.
        """,
        "tree": """
        USAGE: carrel tree [FOLDER] [--json] [--icons] [--depth N]

        Shows FOLDER (default: the current folder, or the library when you are
        outside it) as the binder: projects, their sections and permanent
        folders, then folders and files in the project's order, each with the
        files it holds ("3 files", dimmed on a terminal unless NO_COLOR is
        set). FOLDER is shown in its own library, the same from any folder
        you run carrel in. --icons puts each row's icon name first, for those who map them
        to glyphs. --depth N stops N levels down. --json prints the same nodes
        as the protocol's carrel/tree.
        """,
        "conflicts": """
        USAGE: carrel conflicts [PATH] [--json]

        Lists the conflict copies sync engines left below PATH (default: the
        whole library), one per line: the original, a tab, then the copy.
        Syncthing names them "Name.sync-conflict-DATE-TIME-DEVICE.md", Dropbox
        "Name (… conflicted copy …).md"; the binder shows each right after
        its original. Carrel never merges or removes them: compare the two
        texts, keep what you want, and delete the copy. The Trash's copies
        are left out. --json prints [{"copy", "original", "originalExists"}].
        """,
        "new-folder": """
        USAGE: carrel new-folder PARENT NAME

        Creates the folder NAME inside PARENT. Names are trimmed, must be unique
        in their folder (ignoring case), and may not contain "/" or control
        characters.
        """,
        "new-file": """
        USAGE: carrel new-file PARENT NAME

        Creates an empty file NAME inside PARENT. When NAME has no extension the
        project's default (".md") is added, and counts towards the 255-byte limit.
        """,
        "rename": """
        USAGE: carrel rename PATH NEW-NAME [--dry-run]

        Renames a file or folder. Permanent folders cannot be renamed. Nothing
        is ever overwritten. Links to it (and its own relative links) are
        updated as carrel links sets for its project: always; ask (the
        default: asked on a terminal, else left and said so on stderr); never.
        With --dry-run nothing changes: it prints the rename and each link it
        would change, by file and line.
        """,
        "mv": """
        USAGE: carrel mv PATH DESTINATION-FOLDER [--dry-run]

        Moves a file or folder (with everything in it) into DESTINATION-FOLDER in
        the same library. A name clash is an error, never an overwrite. Links
        are updated as for carrel rename; --dry-run prints the move and each
        link it would change, and changes nothing.
        """,
        "rm": """
        USAGE: carrel rm PATH [--yes] [--system-trash]

        Moves PATH to its project's Trash, remembering where it came from.
        Inside Trash it deletes for good, after asking (or with --yes).
        Outside projects there is no Trash: the file goes to your system's
        trash, outside the library, only when you say so with --system-trash.
        """,
        "restore": """
        USAGE: carrel restore PATH

        Puts an item in Trash back into the folder it came from, recreating
        missing folders. A name clash gets a " 2" suffix. Prints where it
        went. An item with no usable record of where it came from goes to
        the project's top, and a record matched to sync's conflict copy is a
        guess: either way it says so on stderr.
        """,
        "snapshot": """
        USAGE: carrel snapshot PATH [--title T]

        Keeps a dated copy of a file's text, with an optional title, in the
        project's .carrel/snapshots/ under the file's own path; of a folder,
        one of each file in it. Prints each snapshot's path. A snapshot is a
        plain file, never changed, named by its date (UTC), this device, a
        random part, its words and its title. Refused for a file larger than
        16 MiB or outside a project; nothing is ever overwritten.
        """,
        "snapshots": """
        USAGE: carrel snapshots PATH [--json]

        Lists a file's snapshots, newest first: date, words, title and name,
        separated by tabs. What its snapshot folder holds that is not a
        usable snapshot (a link, a pipe, a file too large, a name of another
        shape) is skipped, and stderr says why.
        """,
        "compare": """
        USAGE: carrel compare PATH SNAPSHOT

        Compares a snapshot (its name, or a path to it) with the file's text
        now, word by word: prints the words the file adds and removes
        ("+120 −40 words"), then the snapshot's path for a diff program.
        """,
        "rollback": """
        USAGE: carrel rollback PATH SNAPSHOT

        Puts a snapshot's text back in the file. The text it replaces is
        first kept as a snapshot of its own ("Before rolling back"), and the
        file is replaced in one atomic step, only if nothing changed it since
        Carrel read it. Prints the file's path; stderr names both snapshots.
        """,
        "duplicate": """
        USAGE: carrel duplicate PATH

        Copies a file or folder (with everything in it) beside itself, named as
        Finder names a copy: "Spring copy.md", then "Spring copy 2.md". Links
        are copied as links; named pipes, sockets and devices are left out, and
        stderr says how many. Where the folder is in binder order, the copy
        comes right after the original. Refused in the Trash, on permanent
        folders, projects and the library; nothing is ever overwritten.
        """,
        "undo": """
        USAGE: carrel undo [--library DIR]

        Takes back the library's last operation done on this device, by
        the CLI or an editor: a rename, a move, a delete to the Trash, a
        restore, a new file or folder, a duplicate, a sort, a reorder, a word
        target, ask-before-deleting. A new item or a copy goes to the Trash,
        never away. A rename or move that updated links puts them back too.
        Refused, changing nothing, when another program or machine changed
        the item or setting since, or a link it updated. Says what it did, or
        "Nothing to undo.". Emptying the Trash and deleting for good are
        never undone.
        """,
        "redo": """
        USAGE: carrel redo [--library DIR]

        Does again the last operation undo took back. A new operation
        clears what could be redone.
        """,
        "empty-trash": """
        USAGE: carrel empty-trash PROJECT [--yes]

        Deletes everything in PROJECT's Trash for good (PROJECT may also be a
        folder inside it; a file is refused). Asks first unless --yes; says so
        and asks nothing when the Trash is already empty.
        """,
        "sort": """
        USAGE: carrel sort PATH manual|name|modified|created [--descending]

        Sets the order of a project, as the editors' Sort command does: PATH
        a project sets every folder in it; PATH a folder inside a project
        sets that folder's own. Outside projects it sets the library's order,
        kept on this computer only. By name or date, folders come first.
        manual is binder order: the order given with carrel reorder (or an
        editor's move up and move down), kept in the folder's .carrel-order.
        """,
        "reorder": """
        USAGE: carrel reorder PATH --before SIBLING | --after SIBLING

        Places PATH just before or just after SIBLING, another item of the
        same folder, as the editors' move up and move down do. SIBLING is a
        path, or just a name in PATH's folder. The folder is then in binder
        order (carrel sort FOLDER manual), kept in its .carrel-order file.
        """,
        "ask-before-deleting": """
        USAGE: carrel ask-before-deleting PATH yes|no

        Whether deleting asks first in the project PATH is in (or, outside
        projects, in the library), as the editors' "Ask before deleting" does.
        "yes" undoes "Delete and Don't Ask Again". The CLI itself asks only
        before deleting for good.
        """,
        "links": """
        USAGE: carrel links PATH always|ask|never

        Whether a rename or move through Carrel (an editor or this CLI) in the
        project PATH is in updates the links it would break: always, without
        asking; ask (the default); never. It is kept in the project's
        project.json, so it travels with the library; outside projects it is
        the library's, kept on this computer only.
        """,
        "target": """
        USAGE: carrel target PATH N|none [--daily]

        Sets the word target of PATH (a project, or a folder or file in one)
        to N words, or clears it with "none", as the editors' "Set Word
        Target" does. It is kept in the project's project.json, so it travels
        with the library. With --daily, PATH is a project and N its words a
        day, kept on this computer only. `carrel tree` shows each row's words
        and its progress ("1,243 / 1,500 words").
        """,
        "compile": """
        USAGE: carrel compile PROJECT [--recipe R] [--to FORMAT] [-o FILE] [--json] [--submit-to MARKET [--date YYYY-MM-DD] [--yes]]

        Makes one document of PROJECT's writing, in binder order, as the
        editors' "Compile…" does, and prints where it went and its words (a
        poetry packet: its lines). The recipe says which folders go in, the
        headings, the separators and the title page; each project type has
        its own (novel and short story: "manuscript", standard manuscript
        format; poetry: "packet"; script: "script"), and a project may add
        its own as .carrel/recipes/NAME.json. FORMAT is markdown, text, html,
        fountain, or through pandoc docx, odt, epub or pdf (pdf also needs a
        PDF engine). The document goes to the project's Compiled folder,
        whose words are counted in no total, or to FILE; an existing file is
        never replaced ("Name 2.docx" instead). Items left out with
        `carrel include PATH no` stay out. --submit-to MARKET then submits
        the pieces compiled to MARKET, the document as their packet, as
        carrel submit does (--date, --yes), and prints the record's id; only
        a submission packet (poetry's "packet", a short story's
        "manuscript") is, and a market or recipe refused writes nothing.
        """,
        "include": """
        USAGE: carrel include PATH yes|no

        Whether PATH (a file or folder in a project) goes into the compiled
        manuscript, as the editors' "Leave out of compile" and "Include in
        compile" do. Kept in the project's project.json; the binder shows
        "left out" on the row.
        """,
        "byline": """
        USAGE: carrel byline PROJECT [--author NAME] [--contact "LINE | LINE"]

        Sets the author's name and contact lines (address, email, split at
        "|") that a compiled manuscript's title page shows, kept in the
        project's project.json, as the editors' "Set byline…" does. An
        empty value clears it; one left out stays as it is. Says what the
        title page now reads.
        """,
        "market": """
        USAGE: carrel market PATH [--name N] [--url U] [--deadline YYYY-MM-DD]
                             [--reading-period P] [--fee F] [--simultaneous yes|no] [--notes N]

        A market is a folder in a project's Magazines, Competitions,
        Commissions or Other. Its details are kept in a hidden .carrel-market
        file in it, each field stamped, so two machines' edits merge. With no
        option, prints the details, one "field<TAB>value" a line; "none" or
        an empty value clears a field.
        """,
        "submit": """
        USAGE: carrel submit PATH... --to MARKET [--date YYYY-MM-DD] [--yes]

        Records that the files PATH... (of the market's project) were sent to
        MARKET on --date (default: today, UTC), keeping each text as sent in
        a snapshot titled "Sent to MARKET" (see carrel snapshots), and prints
        the record's id. When the market takes no simultaneous submissions
        and a piece is still out elsewhere, asks first (--yes: submit
        anyway). Says when the market's deadline is within a week.
        """,
        "submission-status": """
        USAGE: carrel submission-status RECORD STATUS [--piece P] [--date YYYY-MM-DD] [--note N] [--fee F] [--move-to-published]

        Sets the status of the pieces of submission RECORD (an id that carrel
        submit or carrel submissions printed), or of one piece (--piece: its
        number in the record, or its path): pending, shortlisted, accepted,
        rejected, withdrawn or noResponse. --note is the piece's note there,
        --fee what the submission cost (or paid). An acceptance says where
        the piece is still out, and offers its project's Published folder:
        --move-to-published moves each accepted piece there, as carrel mv
        does (its records, snapshots and links follow; carrel undo takes it
        back).
        """,
        "withdraw-others": """
        USAGE: carrel withdraw-others RECORD [--piece P]

        Marks a piece accepted in RECORD withdrawn at every other market where
        it is still out.
        """,
        "submissions": """
        USAGE: carrel submissions [PATH] [--pending] [--json | --csv]

        Lists submissions, those with a piece still out first, then newest
        first: every project's, or PATH's project's; a file's history; a
        market's. One line per piece: the day sent, the market, the piece,
        its status and when, the record's id. Records Carrel cannot use are
        named on stderr with the reason. --json prints what carrel/submissions
        answers. --csv prints Chillsubs' tracker columns (Title, Publisher,
        Method, Date Submitted, Result Date, Status, Notes), one row per
        piece, for its import; a shortlisted piece is Pending there, no
        response is Never Responded.
        """,
        "import-submissions": """
        USAGE: carrel import-submissions FILE.csv PROJECT

        Records the submissions of a CSV in Chillsubs' tracker columns (Title,
        Publisher, Method, Date Submitted, Result Date, Status, Notes) as
        PROJECT's. Each row's piece is the project's one file whose name,
        without its extension, is the Title; its market, the market folder
        (or the market whose details' name) is the Publisher. Dates are
        YYYY-MM-DD or M/D/YYYY; statuses Pending, Accepted, Rejected,
        Withdrawn, Never Responded. The text sent then is unknown, so no
        snapshot is taken. A row naming no file or no market, or recorded
        already, is left out and said on stderr; importing a file twice
        records nothing twice. The file is read without following a link, 4 MiB at most.
        """,
        "help": """
        USAGE: carrel help [SUBCOMMAND]

        Explains a subcommand.
        """,
    ]
}
