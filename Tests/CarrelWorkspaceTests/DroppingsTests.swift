import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// Editors' and sync engines' files beside the writer's own are neither
/// rows nor counted, whether they were there at the scan or come later.
final class DroppingsTests: XCTestCase {
    let droppings = [
        "#Nightfall.md#", "Été.md~", ".#Nightfall.md", ".Nightfall.md.swp", "4913", "~syncthing~Été.md.tmp",
    ]

    func names(_ ws: Workspace, _ item: Item) -> [String] { ws.children(item).map { ws.describe($0, .english).name } }

    func testTheScanSkipsDroppingsAndCountsOnlyTheWritersFiles() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Nightfall.md = n
            P/Draft/Été.md = e
            """ + droppings.map { "\nP/Draft/\($0) = x" }.joined())
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        guard case .entry(let draft, let lib) = try ws.locate(fx.bytes("P/Draft"), uri: "d") else { return XCTFail() }
        XCTAssertEqual(names(ws, .entry(draft, lib)), ["Été.md", "Nightfall.md"])
        XCTAssertEqual(ws.describe(.entry(draft, lib), .english).fileCount, 2)
    }

    func testDroppingsMadeWhileWatchingChangeNothing() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Nightfall.md = n
            """)
        let (ws, inbox) = watchedWorkspace(fx)
        for name in droppings {
            XCTAssertTrue(FileManager.default.createFile(atPath: fx.path + "/P/Draft/" + name, contents: Data()))
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: fx.path + "/P/Draft/Dawn.md", contents: Data()))
        let deadline = Date().addingTimeInterval(5)
        var applied: [Change] = []
        while Date() < deadline, !applied.contains(where: { $0.path == fx.bytes("P/Draft/Dawn.md") }) {
            applied += ws.apply(inbox.take(until: { _ in true }, timeout: 0.05))
        }
        XCTAssertEqual(applied.map { String(decoding: $0.path, as: UTF8.self) }, [fx.path + "/P/Draft/Dawn.md"])
        guard case .entry(let draft, let lib) = try ws.locate(fx.bytes("P/Draft"), uri: "d") else { return XCTFail() }
        XCTAssertEqual(names(ws, .entry(draft, lib)), ["Dawn.md", "Nightfall.md"])
    }
}
