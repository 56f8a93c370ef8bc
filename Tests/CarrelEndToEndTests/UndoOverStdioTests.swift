import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Undo through the real `carrel lsp` over pipes: a step made before a
/// restart is taken back after it, and the CLI shares the same journal.
final class UndoOverStdioTests: XCTestCase {
    func testAStepSurvivesARestartAndTheCLISharesTheJournal() throws {
        let fx = try Fixture(
            """
            N/.carrel/project.json = {"type":"novel"}
            N/Scenes/Rain.md = rain
            N/Chapters/
            """)
        let home = try Fixture("state/")
        let environment = ["XDG_STATE_HOME": home.path + "/state"]
        let u = { (rel: String) -> JSONValue in .string(fx.uri(rel)) }

        let first = try ProcessClient(environment: environment)
        _ = try first.initialize([fx.uri()])
        let renamed = try first.command("carrel.rename", ["uri": u("N/Scenes/Rain.md"), "newName": "Storm"])
        XCTAssertEqual(renamed["result"]?["name"], "Storm.md", renamed.text())
        let moved = try first.command(
            "carrel.moveTo", ["uri": u("N/Scenes/Storm.md"), "destinationUri": u("N/Chapters")])
        XCTAssertNotNil(moved["result"], moved.text())
        first.closeInput()
        XCTAssertNotNil(first.waitForExit(), "the first server ended")

        let second = try ProcessClient(environment: environment)
        _ = try second.initialize([fx.uri()])
        let undone = try second.command("carrel.undo", [:])
        XCTAssertEqual(undone["result"]?["uri"], u("N/Scenes/Storm.md"), undone.text())
        XCTAssertTrue(fx.exists("N/Scenes/Storm.md"))

        // The CLI takes the next step back from the same journal, and redo comes after.
        let cli = try CLIRunner()
        let back = cli.run(["undo"], in: fx.path, environment: environment)
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(back.stdout, "Renamed “Storm.md” back to “Rain.md”.\n")
        XCTAssertEqual(fx.read("N/Scenes/Rain.md"), "rain")
        let again = cli.run(["redo"], in: fx.path, environment: environment)
        XCTAssertEqual(again.stdout, "Renamed “Rain.md” to “Storm.md” again.\n", again.stderr)
        second.closeInput()
        _ = second.waitForExit()
    }
}
