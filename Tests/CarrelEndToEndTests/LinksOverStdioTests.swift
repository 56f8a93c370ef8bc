import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A stock client against the real binary over pipes: go to a link's file,
/// a file's backlinks, clickable links and the edits of a rename its file
/// explorer announces, in a library whose files include a pipe, a link out
/// of the library and links that climb out of it.
final class LinksOverStdioTests: XCTestCase {
    func testAStockClientFollowsLinksAndGetsRenameEdits() throws {
        let home = try Fixture()
        let outside = try Fixture("Secret.md = [[Ada]] [a](Ada.md)")
        let fx = try Fixture(
            """
            Winter/.carrel/project.json = {"type":"novel"}
            Winter/Novel/Ada.md = Ada.
            Winter/Novel/One.md = [Ada](Ada.md) [up](../../../etc/passwd) [enc](%2E%2E/%2E%2E/%2E%2E/x.md)
            """)
        XCTAssertEqual(mkfifo(fx.path + "/Winter/Novel/Pipe.md", 0o644), 0)
        try FileManager.default.createSymbolicLink(
            atPath: fx.path + "/Winter/Novel/Linked.md", withDestinationPath: outside.path + "/Secret.md")
        let c = try ProcessClient(home: home)
        _ = try c.result("initialize", ["processId": .null, "rootUri": .string(fx.uri()), "capabilities": [:]])
        c.notify("initialized")
        let one = JSONValue.string(fx.uri("Winter/Novel/One.md"))
        let ada = JSONValue.string(fx.uri("Winter/Novel/Ada.md"))
        let definition = try c.result(
            "textDocument/definition", ["textDocument": ["uri": one], "position": ["line": 0, "character": 1]])
        XCTAssertEqual(definition["uri"], ada)
        for character in [16, 45] {
            XCTAssertEqual(
                try c.result(
                    "textDocument/definition",
                    ["textDocument": ["uri": one], "position": ["line": 0, "character": .int(character)]]), .null)
        }
        // The link's file outside the library is never read: only One.md links to Ada.
        let refs = try c.result(
            "textDocument/references",
            [
                "textDocument": ["uri": ada], "position": ["line": 0, "character": 0],
                "context": ["includeDeclaration": true],
            ])
        XCTAssertEqual(refs.arrayValue?.map { $0["uri"] }, [one])
        let links = try c.result("textDocument/documentLink", ["textDocument": ["uri": one]])
        XCTAssertEqual(links.arrayValue?.map { $0["target"] }, [ada])
        let edit = try c.result(
            "workspace/willRenameFiles",
            ["files": [["oldUri": ada, "newUri": .string(fx.uri("Winter/Novel/Ada Lovelace.md"))]]])
        XCTAssertEqual(
            edit,
            [
                "changes": [
                    fx.uri("Winter/Novel/One.md"): [
                        [
                            "newText": "Ada%20Lovelace.md",
                            "range": ["start": ["line": 0, "character": 6], "end": ["line": 0, "character": 12]],
                        ]
                    ]
                ]
            ])
        XCTAssertEqual(
            try String(contentsOf: fx.url("Winter/Novel/One.md"), encoding: .utf8),
            "[Ada](Ada.md) [up](../../../etc/passwd) [enc](%2E%2E/%2E%2E/%2E%2E/x.md)")
        XCTAssertEqual(try String(contentsOf: outside.url("Secret.md"), encoding: .utf8), "[[Ada]] [a](Ada.md)")
        _ = try c.result("shutdown")
        c.notify("exit")
        XCTAssertEqual(c.waitForExit(), 0)
    }
}
