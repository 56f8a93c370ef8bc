import CarrelJSON
import Foundation
import Glibc
import XCTest

/// Flows run both in process and over pipes against the real binary, so
/// the end-to-end suite covers every error reason and confirmation answer.
public enum Scenarios {
    static func errorReason(_ r: JSONValue) -> String? { r["error"]?["data"]?["reason"]?.stringValue }

    public static func confirmationAnswers(_ client: some LSPTestClient) throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"blank"}
            P/a.md
            P/b.md
            P/c.md
            """)
        _ = try client.initialize([fx.uri()])
        for answer in [ConfirmAnswer.null, .title("Cancel"), .error, .title("Something else")] {
            client.answer = answer
            let r = try client.command("carrel.delete", ["uri": .string(fx.uri("P/a.md"))])
            XCTAssertEqual(Self.errorReason(r), "cancelled", "\(answer)")
            XCTAssertTrue(fx.exists("P/a.md"))
        }
        let question = client.asked.last!["params"]!
        XCTAssertEqual(
            question["actions"],
            [["title": "Cancel"], ["title": "Delete"], ["title": "Delete and Don't Ask Again"]],
            "the harmless action first, for clients that pre-select the first")
        XCTAssertEqual(question["message"], "Move “a.md” to the Trash?")
        client.answer = .title("Delete")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/a.md"))])
        XCTAssertTrue(fx.exists("P/Trash/a.md"))
        client.answer = .title("Delete and Don't Ask Again")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/b.md"))])
        let settings = try JSONParser.parse(Array(fx.read("P/.carrel/project.json")!.utf8))
        XCTAssertEqual(settings["preferences"]?["confirmDelete"]?["value"], false)
        client.asked = []
        client.answer = .null
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/c.md"))])
        XCTAssertTrue(client.asked.isEmpty, "don't ask again is remembered")
        XCTAssertTrue(fx.exists("P/Trash/c.md"))
        // Deleting for good always asks, with no "don't ask again".
        let r = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Trash/c.md"))])
        XCTAssertEqual(Self.errorReason(r), "cancelled")
        XCTAssertEqual(client.asked.last?["params"]?["actions"], [["title": "Cancel"], ["title": "Delete"]])
        client.answer = .title("Delete")
        XCTAssertEqual(
            try client.command("carrel.delete", ["uri": .string(fx.uri("P/Trash/c.md"))])["result"], ["deleted": 1])
        XCTAssertFalse(fx.exists("P/Trash/c.md"))
        client.answer = .null
        XCTAssertEqual(
            Self.errorReason(try client.command("carrel.emptyTrash", ["projectUri": .string(fx.uri("P"))])), "cancelled"
        )
        XCTAssertEqual(fx.listing("P/Trash"), ["a.md", "b.md"])
        client.answer = .title("Delete")
        XCTAssertEqual(
            try client.command("carrel.emptyTrash", ["projectUri": .string(fx.uri("P"))])["result"], ["deleted": 2])
        XCTAssertEqual(fx.listing("P/Trash"), [])
    }

    /// `serverUser`: the uid the server runs as, when not this process's;
    /// the library is given to it. `io` needs a folder the server may not
    /// write, which root can always write: a caller running the server as
    /// root passes `checksIO: false` and says where `io` is checked instead.
    public static func everyErrorReason(
        _ client: some LSPTestClient, serverUser: uid_t? = nil,
        checksIO: Bool = true
    ) throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md
            P/Draft/b.md
            P/Draft/F/
            Q/.carrel/project.json = {"type":"poetry","version":42}
            Loose/
            """)
        if let uid = serverUser { XCTAssertEqual(Fixture.sh("chown -R \(uid):\(uid) '\(fx.path)'"), 0) }
        _ = try client.initialize([fx.uri()])
        func cmd(_ name: String, _ args: JSONValue) throws -> String? {
            Self.errorReason(try client.command(name, args))
        }
        XCTAssertEqual(
            try cmd("carrel.newFile", ["parentUri": .string(fx.uri("P/Draft")), "name": "x/y"]), "invalidName")
        XCTAssertEqual(
            try cmd("carrel.rename", ["uri": .string(fx.uri("P/Draft/a.md")), "newName": "B.MD"]), "nameTaken")
        XCTAssertEqual(
            try cmd("carrel.delete", ["uri": .string(fx.uri("P/Draft")), "confirmed": true]), "permanentFolder")
        XCTAssertEqual(
            try cmd("carrel.rename", ["uri": .string(fx.uri("P/Draft/zzz.md")), "newName": "y"]), "notFound")
        XCTAssertEqual(try cmd("carrel.rename", ["uri": "file:///etc/passwd", "newName": "y"]), "outsideWorkspace")
        XCTAssertEqual(
            try cmd("carrel.rename", ["uri": .string(fx.uri("P/Draft") + "/%2e%2e/Draft/a.md"), "newName": "y"]),
            "outsideWorkspace")
        XCTAssertEqual(try cmd("carrel.rename", ["uri": "untitled:Untitled-1", "newName": "y"]), "outsideWorkspace")
        XCTAssertEqual(
            try cmd("carrel.rename", ["uri": .string(fx.uri("P/Draft/a.md") + "?x"), "newName": "y"]),
            "outsideWorkspace")
        XCTAssertEqual(
            try cmd(
                "carrel.moveTo", ["uri": .string(fx.uri("P/Draft/F")), "destinationUri": .string(fx.uri("P/Draft/F"))]),
            "intoItself")
        XCTAssertEqual(try cmd("carrel.restore", ["uri": .string(fx.uri("P/Draft/a.md"))]), "notInTrash")
        XCTAssertEqual(
            try cmd("carrel.reorder", ["uri": .string(fx.uri("P/Draft/a.md")), "after": .string(fx.uri("P/Draft"))]),
            "notSibling")
        XCTAssertEqual(
            try cmd("carrel.reorder", ["uri": .string(fx.uri("P/Trash")), "after": .string(fx.uri("P/Draft"))]),
            "permanentFolder")
        XCTAssertEqual(
            try cmd("carrel.setTarget", ["uri": .string(fx.uri("Loose")), "words": 500]), "notInProject")
        XCTAssertEqual(
            try cmd("carrel.setTarget", ["uri": .string(fx.uri("P/Draft")), "session": 500]), "notAProject")
        XCTAssertEqual(
            try cmd("carrel.compile", ["projectUri": .string(fx.uri("P")), "format": "pdf"]), "cannotCompile")
        XCTAssertEqual(
            try cmd("carrel.setMarket", ["uri": .string(fx.uri("P/Draft/F")), "fields": ["fee": "£3"]]), "notAMarket")
        let both = try client.command(
            "carrel.reorder",
            [
                "uri": .string(fx.uri("P/Draft/a.md")), "after": .string(fx.uri("P/Draft/b.md")),
                "before": .string(fx.uri("P/Draft/b.md")),
            ])
        XCTAssertEqual(both["error"]?["code"], -32602)
        XCTAssertEqual(
            both["error"]?["message"], "Invalid params: give exactly one of “before” and “after”.")
        client.answer = .null
        XCTAssertEqual(try cmd("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md"))]), "cancelled")
        try "x".write(toFile: fx.path + "/P/Ready/a.md", atomically: false, encoding: .utf8)
        let raced = try client.command(
            "carrel.moveTo", ["uri": .string(fx.uri("P/Draft/a.md")), "destinationUri": .string(fx.uri("P/Ready"))])
        if Self.errorReason(raced) == "nameTaken" {
            // The watcher saw the file first: the plain clash, also no overwrite.
            XCTAssertTrue(raced["error"]!["message"]!.stringValue!.contains("“a.md” already exists in “Ready”"))
        } else {
            XCTAssertEqual(Self.errorReason(raced), "conflict")
            XCTAssertEqual(
                raced["error"]?["message"],
                "“a.md” appeared in “Ready” while Carrel was working; nothing was overwritten. Choose another name or try again."
            )
        }
        XCTAssertEqual(
            try cmd("carrel.newFile", ["parentUri": .string(fx.uri("Q")), "name": "x"]), "unsupportedVersion")
        chmod(fx.path + "/P/Draft/F", 0o555)
        defer { chmod(fx.path + "/P/Draft/F", 0o755) }
        if checksIO {
            XCTAssertNotEqual(serverUser ?? getuid(), 0, "a server running as root writes any folder: no io to check")
            XCTAssertEqual(try cmd("carrel.newFile", ["parentUri": .string(fx.uri("P/Draft/F")), "name": "x"]), "io")
        }
        XCTAssertTrue(fx.exists("P/Draft/a.md"))
        XCTAssertEqual(fx.read("P/Ready/a.md"), "x")
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/b.md")), "confirmed": true])
        _ = try client.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true])
        XCTAssertEqual(
            try cmd(
                "carrel.reorder", ["uri": .string(fx.uri("P/Trash/b.md")), "before": .string(fx.uri("P/Trash/a.md"))]),
            "inTrash")
        XCTAssertFalse(fx.exists("P/Draft/.carrel-order"), "no refusal wrote an order")
    }
}
