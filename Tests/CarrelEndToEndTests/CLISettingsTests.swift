import CarrelJSON
import CarrelTestSupport
import XCTest

/// `carrel ask-before-deleting` is the editors' "Ask before deleting" for
/// scripts: it undoes "Delete and Don't Ask Again".
final class CLISettingsTests: XCTestCase {
    func testAskBeforeDeletingTurnsTheQuestionOnAndOff() throws {
        let fx = try Fixture(
            "P/.carrel/project.json = {\"type\":\"poetry\",\"preferences\":{\"confirmDelete\":false}}\nP/Draft/a.md = a"
        )
        let cli = try CLIRunner()
        var r = cli.run(["ask-before-deleting", "P/Draft/a.md", "yes"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Deleting in \(fx.path)/P now asks first.\n")
        XCTAssertEqual(try confirmDelete(fx), true)
        r = cli.run(["ask-before-deleting", "P", "off"], in: fx.path)
        XCTAssertEqual(r.stdout, "Deleting in \(fx.path)/P no longer asks first.\n")
        XCTAssertEqual(try confirmDelete(fx), false)
    }

    func confirmDelete(_ fx: Fixture) throws -> JSONValue? {
        try JSONParser.parse(Array(fx.read("P/.carrel/project.json")!.utf8))["preferences"]?["confirmDelete"]?["value"]
    }

    func testAnythingButYesOrNoIsRefusedAndChangesNothing() throws {
        let fx = try Fixture("P/.carrel/project.json = {\"type\":\"poetry\"}")
        let before = fx.read("P/.carrel/project.json")
        let r = try CLIRunner().run(["ask-before-deleting", "P", "maybe"], in: fx.path)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("Say yes or no, not “maybe”."), r.stderr)
        XCTAssertEqual(fx.read("P/.carrel/project.json"), before)
    }
}
