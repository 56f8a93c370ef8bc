import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import XCTest

/// A rename made on machine A reaches machine B through two real Syncthing
/// instances; B's server, which offers a links' update for a shell's `mv`,
/// offers none for it: A kept its links (or chose not to), and B writing
/// them would make conflicts.
final class SyncthingLinkOfferTests: XCTestCase {
    static let project = """
        P/.carrel/project.json = {"type":"poetry"}
        P/Draft/p1.md = first poem
        P/Draft/p2.md = after [the first](p1.md) and [[p1]]
        P/Draft/Part/c.md = see [the first](../p1.md)
        P/Ready/
        P/Trash/
        """

    func testRenamesThatArriveBySyncAreNotOffered() throws {
        guard Syncthing.binary != nil else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("syncthing is not installed") }
            throw XCTSkip("syncthing is not installed: apt-get install syncthing")
        }
        let st = try Syncthing(tree: Self.project)
        let onA = try CLIRunner()
        let onB = try CLIRunner()
        let server = try ProcessClient(environment: onB.environment)
        server.answer = .title("Don't Update")
        _ = try server.initialize([FileURI.uri(Array(st.b.folder.utf8))])
        // B's index is built, as an editor's link requests build it.
        _ = try server.result(
            "textDocument/documentLink",
            ["textDocument": ["uri": .string(FileURI.uri(Array((st.b.folder + "/P/Draft/p2.md").utf8)))]])
        let uri = { (path: String) in JSONValue.string(FileURI.uri(Array((st.b.folder + "/" + path).utf8))) }
        // A file renamed on A, then a folder (Syncthing moves its files through temporaries).
        for (args, arrives) in [
            (["rename", "P/Draft/p1.md", "First"], "P/Draft/First.md"),
            (["rename", "P/Draft/Part", "Chapter"], "P/Draft/Chapter/c.md"),
        ] {
            let r = onA.run(args + ["--library", st.a.folder], in: st.a.folder)
            XCTAssertEqual(r.status, 0, r.stderr)
            let deadline = Date().addingTimeInterval(30)
            var arrived = false
            while !arrived, Date() < deadline {
                let m = try server.inbox.take("carrel/didChange", timeout: 30) { $0["method"] == "carrel/didChange" }
                arrived = (m["params"]?["changes"]?.arrayValue ?? []).contains { $0["uri"] == uri(arrives) }
            }
            XCTAssertTrue(arrived, "\(arrives) never reached B's client")
            // A question would have gone out with its batch, before this answer.
            _ = try server.result("carrel/tree", ["depth": 0])
            XCTAssertEqual(server.asked.map { $0["params"]?["message"] }, [], "B asked about A's \(args)")
        }
    }
}
