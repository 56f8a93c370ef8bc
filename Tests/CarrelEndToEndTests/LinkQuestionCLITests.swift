import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// `carrel rename` stopped at its links prompt (the terminal closed) leaves
/// the question, which the editor's next server asks.
final class LinkQuestionCLITests: XCTestCase {
    func testARenameStoppedAtItsPromptIsAskedByTheNextServer() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Novel/Characters/Ada.md = Ada was born.
            P/Novel/One.md = Meet [Ada](Characters/Ada.md).
            """)
        let cli = try CLIRunner()
        // `script` gives the CLI a terminal, so it asks and waits.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = [
            "-qec", "'\(ProcessClient.binary)' rename P/Novel/Characters/Ada.md 'Ada Lovelace.md'", "/dev/null",
        ]
        p.currentDirectoryURL = URL(fileURLWithPath: fx.path)
        p.environment = cli.environment
        let input = Pipe()
        p.standardInput = input
        p.standardOutput = Pipe()
        p.standardError = Pipe()
        try p.run()
        let renamed = fx.path + "/P/Novel/Characters/Ada Lovelace.md"
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: renamed), Date() < deadline { usleep(20_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: renamed))
        // At the prompt: closing the terminal hangs the CLI up.
        usleep(300_000)
        p.terminate()
        p.waitUntilExit()
        XCTAssertEqual(
            try String(contentsOf: fx.url("P/Novel/One.md"), encoding: .utf8), "Meet [Ada](Characters/Ada.md).")

        let c = try ProcessClient(environment: cli.environment)
        _ = try c.initialize([fx.uri()])
        let asked = try c.inbox.take("the question") { $0["method"] == "window/showMessageRequest" }
        XCTAssertEqual(asked["params"]?["message"], "1 link in 1 file points to “Ada.md”: update it?")
    }
}
