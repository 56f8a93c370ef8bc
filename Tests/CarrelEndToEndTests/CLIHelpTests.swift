import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// `carrel --help` and `carrel help SUBCOMMAND` against what the binary
/// really does: every subcommand the overview lists is explained, and the
/// `lsp` help names every command the server advertises, so neither list
/// can fall behind the code.
final class CLIHelpTests: XCTestCase {
    var fx: Fixture!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        fx = try Fixture("Poems/.carrel/project.json = {\"type\":\"poetry\"}")
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli = nil
        fx = nil
    }

    func testEverySubcommandTheOverviewListsIsExplained() throws {
        let overview = cli.run(["--help"], in: fx.path).stdout
        guard let start = overview.range(of: "SUBCOMMANDS:"),
            let end = overview.range(of: "\n\n", range: start.upperBound..<overview.endIndex)
        else { return XCTFail("no SUBCOMMANDS section:\n\(overview)") }
        let listed = overview[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line -> String? in
            // A subcommand starts its line at two spaces; continuation lines are indented further.
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        XCTAssertGreaterThanOrEqual(listed.count, 15, "\(listed)")
        for sub in listed where sub != "help" {
            let help = cli.run(["help", sub], in: fx.path)
            XCTAssertEqual(help.status, 0, sub)
            XCTAssertTrue(help.stdout.contains("USAGE: carrel \(sub)"), "carrel help \(sub):\n\(help.stdout)")
        }
    }

    func testTheLspHelpNamesEveryCommandTheServerOffers() throws {
        let client = try ProcessClient()
        let result = try client.initialize([fx.uri()])
        let offered = result["capabilities"]?["executeCommandProvider"]?["commands"]?.arrayValue?.compactMap(
            \.stringValue)
        XCTAssertGreaterThanOrEqual(offered?.count ?? 0, 12)
        let help = cli.run(["help", "lsp"], in: fx.path).stdout
        for command in offered ?? [] {
            XCTAssertTrue(help.contains(command), "carrel help lsp never names \(command)")
        }
    }
}
