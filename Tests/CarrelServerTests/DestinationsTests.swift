import CarrelJSON
import CarrelTestSupport
import XCTest

/// `carrel/destinations` offers exactly the folders a move would accept
/// and change something by, labelled as the binder shows them.
final class DestinationsTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    func start(locale: String = "en") throws {
        fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/Cycle/Inner/x.md = x
            Poems/Draft/a.md = a
            Poems/Own/
            Poems/Trash/Old/
            Novel/.carrel/project.json = {"type":"novel"}
            plain/sub/
            """)
        Fixture.sh("ln -s '\(fx.path)/plain' '\(fx.path)/plain/link'")
        client = InProcessClient()
        _ = try client.initialize([fx.uri("")], locale: locale)
    }

    func labels(_ relative: String, purpose: String? = nil) throws -> [String] {
        var params: [String: JSONValue] = ["uri": .string(fx.uri(relative))]
        if let purpose { params["purpose"] = .string(purpose) }
        let found = try client.result("carrel/destinations", .object(params)).arrayValue!
        return found.map { row in row["label"]!.arrayValue!.compactMap(\.stringValue).dropFirst().joined(separator: "/")
        }
    }

    func testAFileCanGoToEveryFolderButItsOwnAndOtherTrashes() throws {
        try start()
        let found = try labels("Poems/Draft/a.md")
        XCTAssertEqual(found.first, "", "the library root first")
        XCTAssertTrue(found.contains("Poems/Draft/Cycle/Inner"))
        XCTAssertTrue(found.contains("Poems/Trash"), "its own project's Trash: a delete")
        XCTAssertTrue(found.contains("Novel/Chapters"))
        XCTAssertTrue(found.contains("plain/sub"))
        XCTAssertTrue(found.contains("Poems/Own"), "the project root's own folders")
        for refused in ["Poems/Draft", "Novel/Trash", "Poems/Trash/Old", "Poems/All", "plain/link"] {
            XCTAssertFalse(found.contains(refused), refused)
        }
        let order = [
            "Poems", "Poems/Draft/Cycle", "Poems/Draft/Cycle/Inner", "Poems/Ready", "Poems/Research", "Poems/Own",
            "Poems/Trash",
        ]
        XCTAssertEqual(
            found.filter(order.contains), order,
            "display order: permanent folders in template order, each folder's own under it, then the root's own")
    }

    /// "New folder…" in a Move picker: the folder is made first, then the
    /// item moved into it, so its own folder is a fine place and a Trash is
    /// not (nothing can be moved into a folder in the Trash).
    func testWhereANewFolderToMoveIntoMayBeMade() throws {
        try start()
        let found = try labels("Poems/Draft/a.md", purpose: "newFolder")
        XCTAssertTrue(found.contains("Poems/Draft"), "its own folder")
        XCTAssertTrue(found.contains("Poems/Ready"))
        XCTAssertFalse(found.contains("Poems/Trash"))
        XCTAssertFalse(found.contains("Poems/Trash/Old"))
        XCTAssertEqual(try labels("Poems/Draft/a.md", purpose: "move"), try labels("Poems/Draft/a.md"))
        let folder = try labels("Poems/Draft/Cycle", purpose: "newFolder")
        XCTAssertFalse(folder.contains("Poems/Draft/Cycle"), "never inside itself")
        let wrong = try client.request(
            "carrel/destinations", ["uri": .string(fx.uri("Poems/Draft/a.md")), "purpose": "x"])
        XCTAssertEqual(wrong["error"]?["code"], -32602)
        XCTAssertEqual(wrong["error"]?["data"]?["field"], "purpose")
    }

    func testAFolderCannotGoIntoItself() throws {
        try start()
        let found = try labels("Poems/Draft/Cycle")
        XCTAssertFalse(found.contains("Poems/Draft/Cycle"))
        XCTAssertFalse(found.contains("Poems/Draft/Cycle/Inner"))
        XCTAssertFalse(found.contains("Poems/Draft"), "already there")
        XCTAssertTrue(found.contains("Poems/Ready"))
    }

    /// Every destination offered is one `carrel.moveTo` accepts.
    func testEveryDestinationIsAccepted() throws {
        try start()
        let found = try client.result("carrel/destinations", ["uri": .string(fx.uri("Poems/Draft/a.md"))]).arrayValue!
        var current = fx.uri("Poems/Draft/a.md")
        for destination in found {
            let moved = try client.command(
                "carrel.moveTo", ["uri": .string(current), "destinationUri": destination["uri"]!])
            XCTAssertNil(moved["error"], "\(destination)")
            current = moved["result"]?["uri"]?.stringValue ?? current
        }
    }

    /// The Trashes not offered are refused by a move too, and nothing moves.
    func testAMoveIntoAnotherProjectsTrashOrAFolderInATrashIsRefused() throws {
        try start()
        for (destination, message) in [
            ("Novel/Trash", "“a.md” cannot go into the Trash of “Novel”"),
            ("Poems/Trash/Old", "“a.md” cannot be moved into a folder in the Trash"),
        ] {
            let refused = try client.command(
                "carrel.moveTo",
                ["uri": .string(fx.uri("Poems/Draft/a.md")), "destinationUri": .string(fx.uri(destination))])
            XCTAssertEqual(refused["error"]?["data"]?["reason"], "inTrash", destination)
            XCTAssertTrue(refused["error"]?["message"]?.stringValue?.hasPrefix(message) == true, "\(refused)")
            XCTAssertTrue(fx.exists("Poems/Draft/a.md"), destination)
        }
        XCTAssertFalse(fx.exists("Novel/Trash/a.md"))
        XCTAssertFalse(fx.exists("Poems/Trash/Old/a.md"))
        let own = try client.command(
            "carrel.moveTo",
            ["uri": .string(fx.uri("Poems/Draft/a.md")), "destinationUri": .string(fx.uri("Poems/Trash"))])
        XCTAssertNil(own["error"], "its own project's Trash is a delete")
        XCTAssertTrue(fx.exists("Poems/Trash/a.md"))
    }

    func testLabelsAreInTheClientsLanguageAndPermanentFoldersCannotMove() throws {
        try start(locale: "fr")
        XCTAssertTrue(try labels("Poems/Draft/a.md").contains("Poems/Prêts"))
        let refused = try client.request("carrel/destinations", ["uri": .string(fx.uri("Poems/Draft"))])
        XCTAssertEqual(refused["error"]?["data"]?["reason"], "permanentFolder")
    }

    func testASubmitPickerOffersTheProjectsMarketsOnly() throws {
        fx = try Fixture(
            """
            Poems/.carrel/project.json = {"type":"poetry"}
            Poems/Draft/a.md = a
            Poems/Magazines/Granta/
            Poems/Magazines/Aeon/
            Poems/Competitions/Bridport/
            Poems/Magazines/notes.md = not a market
            Poems/Trash/b.md = b
            Other/.carrel/project.json = {"type":"poetry"}
            Other/Magazines/Elsewhere/
            plain/c.md = c
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri("")], locale: "en")
        XCTAssertEqual(
            try labels("Poems/Draft/a.md", purpose: "submit"),
            ["Poems/Magazines/Aeon", "Poems/Magazines/Granta", "Poems/Competitions/Bridport"],
            "the markets of its own project, in template order, then by name")
        XCTAssertEqual(try labels("Poems/Trash/b.md", purpose: "submit"), [], "nothing in the Trash goes out")
        XCTAssertEqual(try labels("plain/c.md", purpose: "submit"), [], "outside a project there is no market")
    }
}
