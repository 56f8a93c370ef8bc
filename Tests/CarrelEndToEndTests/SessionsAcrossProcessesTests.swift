import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Today's words on one device are one story whichever Carrel tells it: a
/// real `carrel lsp` and the real CLI share `sessions.json`, and neither
/// loses or ignores what the other wrote there.
final class SessionsAcrossProcessesTests: XCTestCase {
    func testTheServerAndTheCLIAgreeOnTodaysWords() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = one two three
            Q/.carrel/project.json = {"type":"poetry"}
            Q/Draft/q.md = q
            """)
        let cli = try CLIRunner()
        let server = try ProcessClient(environment: cli.environment)
        _ = try server.initialize([fx.uri()])
        server.notify("initialized")
        func row(_ relative: String) throws -> JSONValue {
            try server.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 0]).arrayValue?.first ?? .null
        }
        func waitFor(_ what: String, _ done: () throws -> Bool) throws {
            let deadline = Date().addingTimeInterval(10)
            while try !done() {
                guard Date() < deadline else { return XCTFail("never: \(what); P is \(try row("P"))") }
                usleep(20_000)
            }
        }
        func cliLine(_ project: String) -> String {
            let r = cli.run(["tree", project, "--depth", "0"], in: fx.path)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        try waitFor("the server's first count") { try row("P")["sessionWords"] == 0 }

        // The CLI's daily target reaches the running server.
        let set = cli.run(["target", "P", "500", "--daily"], in: fx.path)
        XCTAssertEqual(set.status, 0, set.stderr)
        try waitFor("the server shows the CLI's target") { try row("P")["sessionTarget"] == 500 }

        // The server's own write keeps it.
        let q = try server.command("carrel.setTarget", ["uri": .string(fx.uri("Q")), "session": 300])
        XCTAssertEqual(q["result"]?["sessionTarget"], 300, q.text())
        XCTAssertEqual(cliLine("P"), "P (Poetry)  1 file · 3 words · today 0 / 500\n")
        XCTAssertEqual(cliLine("Q"), "Q (Poetry)  1 file · 1 word · today 0 / 300\n")

        // Words written count the same for both.
        try "one two three four five".write(to: fx.url("P/Draft/a.md"), atomically: false, encoding: .utf8)
        try waitFor("the server counts the new words") { try row("P")["sessionWords"] == 2 }
        XCTAssertEqual(try row("P")["summary"], "1 file · 5 words · today 2 / 500")
        XCTAssertEqual(cliLine("P"), "P (Poetry)  1 file · 5 words · today 2 / 500\n")
    }
}
