import CarrelTestSupport
import Foundation
import XCTest

/// What the CLI's submission suites share: a poetry project with two
/// pieces in Draft and two magazines, and the real binary run in it.
class CLISubmissionsTestCase: XCTestCase {
    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Spring.md = sea sea
            P/Draft/Moon.md = moon
            P/Magazines/Granta/
            P/Magazines/Review/
            """)
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli = nil
        fx = nil
    }

    func run(_ args: [String], stdin: String? = nil) -> CLIRunner.Result {
        cli.run(args, in: fx.path, stdin: stdin)
    }
}
