import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Links through standard LSP: definition, references (backlinks),
/// documentLink, and the WorkspaceEdit that answers workspace/willRenameFiles.
final class LinksServerTests: ServedLibraryTestCase {
    override func setUpWithError() throws {
        try serveStock(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/Characters/Bea.md = See [[Ada]] and `[[Ada]]` in code.
            P/Research/Notes.md = Nothing here.
            P/Novel/Draft/
            """
        ) { fx in
            try
                "# One\nSee [Ada](../Characters/Ada.md#kid) and [[Ada|her]].\n[web](https://x.org/Ada.md) [gone](Gone.md)\n"
                .write(to: fx.url("P/Novel/Draft/One.md"), atomically: false, encoding: .utf8)
        }
    }

    func at(_ relative: String, _ line: Int, _ character: Int) -> JSONValue {
        [
            "textDocument": ["uri": .string(fx.uri(relative))],
            "position": ["line": .int(line), "character": .int(character)],
        ]
    }

    func location(_ relative: String, _ line: Int, _ start: Int, _ end: Int) -> JSONValue {
        [
            "uri": .string(fx.uri(relative)),
            "range": [
                "start": ["line": .int(line), "character": .int(start)],
                "end": ["line": .int(line), "character": .int(end)],
            ],
        ]
    }

    func testInitializeAdvertisesLinksAndWillRename() throws {
        let c = InProcessClient()
        let caps = try c.result("initialize", ["capabilities": [:], "workspaceFolders": []])["capabilities"]
        XCTAssertEqual(caps?["definitionProvider"], true)
        XCTAssertEqual(caps?["referencesProvider"], true)
        XCTAssertEqual(caps?["documentLinkProvider"], ["resolveProvider": false])
        let globs = caps?["workspace"]?["fileOperations"]?["willRename"]?["filters"]?.arrayValue?.map {
            "\($0["pattern"]?["glob"]?.stringValue ?? "") \($0["pattern"]?["matches"]?.stringValue ?? "")"
        }
        XCTAssertEqual(globs, ["**/*.md file", "**/*.fountain file", "** folder"])
    }

    func testDefinitionOnMarkdownLinkAndWikilink() throws {
        let ada = location("P/Novel/Characters/Ada.md", 0, 0, 0)
        XCTAssertEqual(try client.result("textDocument/definition", at("P/Novel/Draft/One.md", 1, 6)), ada)
        XCTAssertEqual(try client.result("textDocument/definition", at("P/Novel/Draft/One.md", 1, 42)), ada)
        XCTAssertEqual(try client.result("textDocument/definition", at("P/Novel/Draft/One.md", 1, 1)), .null)
        // A URL and a link to nothing lead nowhere.
        XCTAssertEqual(try client.result("textDocument/definition", at("P/Novel/Draft/One.md", 2, 2)), .null)
        XCTAssertEqual(try client.result("textDocument/definition", at("P/Novel/Draft/One.md", 2, 32)), .null)
        // Code is not a link.
        XCTAssertEqual(try client.result("textDocument/definition", at("P/Novel/Characters/Bea.md", 0, 18)), .null)
    }

    func testReferencesAreBacklinksIncludingAnOpenBuffersUnsavedLinks() throws {
        let expected: JSONValue = [
            location("P/Novel/Characters/Bea.md", 0, 6, 9),
            location("P/Novel/Draft/One.md", 1, 10, 30),
            location("P/Novel/Draft/One.md", 1, 42, 45),
        ]
        XCTAssertEqual(try client.result("textDocument/references", at("P/Novel/Characters/Ada.md", 0, 0)), expected)
        // On a link: the links to what it leads to.
        XCTAssertEqual(try client.result("textDocument/references", at("P/Novel/Draft/One.md", 1, 6)), expected)
        client.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(fx.uri("P/Research/Notes.md")), "languageId": "markdown", "version": 1,
                    "text": "Unsaved [[ada]]",
                ]
            ])
        let refs = try client.result("textDocument/references", at("P/Novel/Characters/Ada.md", 0, 0)).arrayValue
        XCTAssertEqual(refs?.last, location("P/Research/Notes.md", 0, 10, 13))
        XCTAssertEqual(try String(contentsOf: fx.url("P/Research/Notes.md"), encoding: .utf8), "Nothing here.")
    }

    func testDocumentLinksOnlyForItemsOfTheLibrary() throws {
        let links = try client.result(
            "textDocument/documentLink", ["textDocument": ["uri": .string(fx.uri("P/Novel/Draft/One.md"))]])
        let ada: JSONValue = .string(fx.uri("P/Novel/Characters/Ada.md"))
        XCTAssertEqual(
            links,
            [
                ["range": location("x", 1, 10, 30)["range"]!, "target": ada],
                ["range": location("x", 1, 42, 45)["range"]!, "target": ada],
            ])
    }

    /// The golden: every link into the renamed file, on the old URIs, and nothing written.
    func testWillRenameFilesAnswersTheWorkspaceEdit() throws {
        let before = try String(contentsOf: fx.url("P/Novel/Draft/One.md"), encoding: .utf8)
        let edit = try client.result(
            "workspace/willRenameFiles",
            [
                "files": [
                    [
                        "oldUri": .string(fx.uri("P/Novel/Characters/Ada.md")),
                        "newUri": .string(fx.uri("P/Novel/Characters/Ada Lovelace.md")),
                    ]
                ]
            ])
        func textEdit(_ line: Int, _ start: Int, _ end: Int, _ text: String) -> JSONValue {
            ["range": location("x", line, start, end)["range"]!, "newText": .string(text)]
        }
        XCTAssertEqual(
            edit,
            [
                "changes": [
                    fx.uri("P/Novel/Characters/Bea.md"): [textEdit(0, 6, 9, "Ada Lovelace")],
                    fx.uri("P/Novel/Draft/One.md"): [
                        textEdit(1, 10, 30, "../Characters/Ada%20Lovelace.md"), textEdit(1, 42, 45, "Ada Lovelace"),
                    ],
                ]
            ])
        XCTAssertEqual(try String(contentsOf: fx.url("P/Novel/Draft/One.md"), encoding: .utf8), before)
    }

    /// A folder's move carries the moved files' own relative links; an open
    /// buffer's edits are made on its text, under the URI the client used.
    func testWillRenameAFolderWithAnOpenBuffer() throws {
        let uri = fx.uri("P/Novel/Draft/One.md")
        client.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(uri), "languageId": "markdown", "version": 1,
                    "text": "[Ada](../Characters/Ada.md) [n](../../Research/Notes.md)",
                ]
            ])
        let edit = try client.result(
            "workspace/willRenameFiles",
            [
                "files": [
                    ["oldUri": .string(fx.uri("P/Novel/Draft")), "newUri": .string(fx.uri("P/Drafts"))]
                ]
            ])
        XCTAssertEqual(
            edit["changes"]?[uri]?.arrayValue?.map { $0["newText"] },
            ["../Novel/Characters/Ada.md", "../Research/Notes.md"])
        XCTAssertEqual(edit["changes"]?.objectValue?.count, 1)
    }

    func testWillRenameOutsideTheLibraryOrUnknownGivesNoEdits() throws {
        for (old, new) in [
            (fx.uri("P/Novel/Characters/Ada.md"), "file:///tmp/Ada.md"),
            (fx.uri("P/Nope.md"), fx.uri("P/Nope2.md")),
            ("https://example.com/a.md", fx.uri("P/a.md")),
        ] {
            let edit = try client.result(
                "workspace/willRenameFiles", ["files": [["oldUri": .string(old), "newUri": .string(new)]]])
            XCTAssertEqual(edit, ["changes": [:]], "\(old) → \(new)")
        }
    }

    func diagnostics() throws -> [String] {
        let m = try client.inbox.take("diagnostics") { $0["method"] == "textDocument/publishDiagnostics" }
        return m["params"]?["diagnostics"]?.arrayValue?.map { d in
            let r = d["range"]
            return "\(r?["start"]?["line"]?.intValue ?? -1):\(r?["start"]?["character"]?.intValue ?? -1)-"
                + "\(r?["end"]?["character"]?.intValue ?? -1) \(d["message"]?.stringValue ?? "")"
        } ?? []
    }

    /// Broken links into the library, in an open buffer: on open, on each change, cleared on close.
    func testBrokenLinksAreDiagnostics() throws {
        let uri = JSONValue.string(fx.uri("P/Novel/Draft/One.md"))
        client.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": uri, "languageId": "markdown", "version": 1,
                    "text": "[a](Nope.md) [[Ghost]] [[Ada]] [w](https://x.org/y.md)\n[up](../../../../x.md) `[[Code]]`",
                ]
            ])
        XCTAssertEqual(
            try diagnostics(),
            ["0:4-11 Nothing in the library is called “Nope.md”.", "0:15-20 Nothing in the library is called “Ghost”."])
        client.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 2],
                "contentChanges": [["text": "[[Ada]] [b](../Characters/Bea.md)"]],
            ])
        XCTAssertEqual(try diagnostics(), [])
        client.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        XCTAssertEqual(try diagnostics(), [])
    }
}
