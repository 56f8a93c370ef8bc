import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A compile of a submission packet carries what a client's "Submit this
/// packet…" needs: the pieces compiled, in order, and the document.
final class CompiledPacketTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!
    var home: Fixture!

    func start() throws {
        home = try Fixture()
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Ready/Spring.md = sea sea
            P/Ready/Moon.md = moon
            P/Draft/Unready.md = not yet
            P/Magazines/Granta/
            N/.carrel/project.json = {"type":"novel"}
            N/Chapters/One/Scene.md = once
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()])
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        client = nil
        fx = nil
        home = nil
    }

    func compile(_ project: String) throws -> JSONValue {
        let r = try client.command(
            "carrel.compile", ["projectUri": .string(fx.uri(project)), "format": "markdown"])
        return try XCTUnwrap(r["result"], r.text())
    }

    func testAPacketsResultNamesItsPiecesAndSubmitsWithThem() throws {
        try start()
        let compiled = try compile("P")
        XCTAssertEqual(compiled["submission"], true)
        XCTAssertEqual(
            compiled["pieceUris"], [.string(fx.uri("P/Ready/Moon.md")), .string(fx.uri("P/Ready/Spring.md"))])
        let packet = try XCTUnwrap(compiled["uri"])
        let sent = try client.command(
            "carrel.submit",
            [
                "items": try XCTUnwrap(compiled["pieceUris"]), "marketUri": .string(fx.uri("P/Magazines/Granta")),
                "packetUri": packet, "date": "2026-11-20",
            ])
        XCTAssertEqual(sent["result"]?["pieces"]?.arrayValue?.compactMap { $0["packetUri"] }, [packet, packet])
    }

    /// A novel's manuscript goes to no market: its pieces are named, with no offer.
    func testAManuscriptOfANovelIsNoSubmission() throws {
        try start()
        let compiled = try compile("N")
        XCTAssertNil(compiled["submission"])
        XCTAssertEqual(compiled["pieceUris"], [.string(fx.uri("N/Chapters/One/Scene.md"))])
    }
}
