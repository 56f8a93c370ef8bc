import CarrelModel
import CarrelTestSupport

@testable import CarrelWorkspace

/// What the links index's suites share: a library whose Markdown and
/// Fountain files link to Ada every way there is, beside a file with no
/// link and a text file whose brackets are no link, and the links to Ada
/// as a query finds them.
class LinkIndexTestCase: StateFolderTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"novel"}
        P/Characters/Ada.md = # Ada
        P/Draft/One.md = See [Ada](../Characters/Ada.md) and [[Ada]].
        P/Draft/Two.md = No link here at all.
        P/Draft/Three.fountain = INT. HOUSE\\n[her](../Characters/Ada.md)
        P/Notes/plain.txt = [not](a link file)
        """

    /// Each link to Ada as "file@start-end:line".
    func backlinks(_ ws: Workspace, _ library: Library) -> [String] {
        ws.backlinks(to: ["P", "Characters", "Ada.md"], in: library).map {
            "\($0.file.joined(separator: "/"))@\($0.link.start)-\($0.link.end):\($0.link.line)"
        }
    }
}
