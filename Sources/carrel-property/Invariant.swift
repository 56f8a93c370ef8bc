/// The invariant a violation broke, for the summary line that counts them.
enum Invariant: String, CaseIterable {
    case crashed = "the server or the CLI crashed"
    case hung = "a request was not answered in time"
    case outside = "a file outside the library changed"
    case destroyed = "a writer's file was destroyed"
    case unexplained = "a refusal without its reason"
    case unreadable = "a file Carrel cannot read was replaced"
    case leftInTrash = "a restore left its item in the Trash"
    case misplaced = "a restore put its item where no record says"
    case unlisted = "a listing did not skip a forged file with its reason"
    case harness = "the harness could not set up"
}
