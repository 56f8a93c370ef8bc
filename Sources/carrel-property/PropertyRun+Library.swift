import Foundation
import Glibc

/// The writer's side of a fresh library: projects made by the CLI, as a
/// writer makes them, and files and folders of unique contents in them.
extension PropertyRun {
    /// Each type's permanent folders (Sources/CarrelModel/Catalog.swift),
    /// written out again so the checks do not trust the code they check.
    static let writing = [
        "Draft", "Ready", "Set Aside", "Published", "Collections", "Submissions", "Research", "Magazines",
        "Competitions", "Commissions", "Other",
    ]
    static let writerFolders: [String: [String]] = [
        "blank": [],
        "poetry": writing,
        "shortStory": writing,
        "novel": ["Novel", "Chapters", "Scenes", "Characters", "Locations", "Set Aside", "Research", "Other"],
        "script": ["Script", "Acts", "Scenes", "Characters", "Locations", "Set Aside", "Research", "Other"],
    ]
    static let cliTypes = [
        "blank": "Blank", "poetry": "Poetry", "shortStory": "Short Story", "novel": "Novel", "script": "Script",
    ]

    func makeLibrary() {
        for name in ["P1", "P2"] {
            // Most runs use writing projects, whose Draft and Ready two machines delete from.
            let type = pick(["poetry", "poetry", "shortStory", "novel", "script", "blank"])!
            let r = CLIProcess.run(
                opts.carrel, ["init", box.path(name), "--type", Self.cliTypes[type]!, "--library", box.lib],
                env: box.env, errors: box.root + "/cli-stderr.txt", timeout: Self.cliBound)
            guard r.status == 0 else { return fail(.harness, "carrel init \(name) failed: \(r.stderr)") }
            projects.append((name, type))
        }
        mkdir(box.path("Notes"), 0o755)
        writeFile("Notes/idea.md")
        for (name, type) in projects {
            let folders = Self.writerFolders[type]!
            for i in 0..<(3 + random(4)) {
                let folder = pick(folders).map { name + "/" + $0 } ?? name
                if chance(25) {
                    mkdir(box.path(folder + "/part\(i)"), 0o755)
                    writeFile(folder + "/part\(i)/scene\(i).md")
                } else {
                    writeFile(folder + "/poem\(i).md")
                }
            }
            // Something in the Trash, deleted by Carrel before this run began.
            writeTrashItem(name, type, "old.md", origin: folders.first.map { $0 + "/old.md" } ?? "old.md")
        }
    }

    /// A writer's file of unique content at `rel`.
    func writeFile(_ rel: String) {
        let c = ledger.newContent(rel)
        if !Disk.create(box.path(rel), c) { ledger.forget(c) } else { ledger.seen(c, at: rel) }
    }

    /// The writer folders of a project, by its type.
    func writerFolders(_ project: String) -> [String] {
        guard let p = projects.first(where: { $0.name == project }) else { return [] }
        return Self.writerFolders[p.type] ?? []
    }
}
