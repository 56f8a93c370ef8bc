import CarrelTestSupport
import Foundation
import XCTest

/// `carrel tree` reads like tree(1): titles first, counts in the words the
/// editors show, icon names only when asked, colour only on a terminal.
final class CLITreeTests: XCTestCase {
    static let tree = """
        Poems/.carrel/project.json = {"type":"poetry"}
        Poems/Draft/Été.md = e
        Poems/Draft/Café.md = c
        Poems/Ready/Ode.md = o
        """

    func testTitlesAndCountsWithoutIconNames() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["tree", "Poems", "--depth", "3"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            r.stdout.hasPrefix("Poems (Poetry)  3 files · 3 words\n├── YOUR POETRY  3 files · 3 words\n"), r.stdout)
        XCTAssertTrue(
            r.stdout.contains(
                "│   ├── Draft  2 files · 2 words\n│   │   ├── Café.md  1 word\n│   │   └── Été.md  1 word\n"), r.stdout
        )
        XCTAssertFalse(r.stdout.contains("doc.text"), "no SF Symbol names unless --icons")
        XCTAssertFalse(r.stdout.contains("▸"))
        XCTAssertFalse(r.stdout.contains("\u{1B}["), "no colour through a pipe")
        let french = try CLIRunner().run(
            ["tree", "Poems", "--depth", "1"], in: fx.path, environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertTrue(french.stdout.hasPrefix("Poems (Poésie)  3 fichiers · 3 mots\n"), french.stdout)
    }

    func testIconNamesOnRequest() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["tree", "Poems/Draft", "--icons"], in: fx.path)
        XCTAssertEqual(
            r.stdout,
            "[doc.badge.ellipsis] Draft  2 files · 2 words\n├── [doc.text] Café.md  1 word\n└── [doc.text] Été.md  1 word\n"
        )
    }

    /// On a terminal counts are dimmed, unless NO_COLOR says otherwise.
    func testCountsAreDimOnATerminalUnlessNoColor() throws {
        let fx = try Fixture(Self.tree)
        func onTerminal(_ environment: [String: String]) throws -> String {
            let terminal: PseudoTerminal
            do { terminal = try PseudoTerminal() } catch { throw XCTSkip("\(error)") }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: ProcessClient.binary)
            p.arguments = ["tree", "Poems/Ready"]
            p.currentDirectoryURL = URL(fileURLWithPath: fx.path)
            p.environment = (try CLIRunner()).environment.merging(environment) { $1 }
            p.standardOutput = terminal.slave
            try p.run()
            p.waitUntilExit()
            try terminal.slave.close()
            return terminal.readAll()
        }
        XCTAssertTrue(try onTerminal([:]).contains("Ready  \u{1B}[2m1 file · 1 word\u{1B}[0m"))
        let plain = try onTerminal(["NO_COLOR": "1"])
        XCTAssertTrue(plain.contains("Ready  1 file · 1 word"), plain)
        XCTAssertFalse(plain.contains("\u{1B}["), plain)
    }
}
