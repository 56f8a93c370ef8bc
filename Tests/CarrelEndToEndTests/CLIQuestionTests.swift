import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// The CLI's one question (delete for good?), asked on a terminal and
/// through a pipe: the answer is read from stdin either way, no answer
/// names --yes, and nothing is asked when there is nothing to delete.
final class CLIQuestionTests: XCTestCase {
    static let tree = """
        P/.carrel/project.json = {"type":"blank"}
        P/Trash/old.md = gone
        Empty/.carrel/project.json = {"type":"blank"}
        Empty/Trash/
        """

    /// A pseudo-terminal whose input already holds `typed`: the child's stdin.
    func terminal(typing typed: String) throws -> PseudoTerminal {
        do {
            let terminal = try PseudoTerminal()
            terminal.type(typed)
            return terminal
        } catch let e as PseudoTerminal.Unavailable { throw XCTSkip(e.description) }
    }

    func testOnATerminalYesDeletes() throws {
        let fx = try Fixture(Self.tree)
        let tty = try terminal(typing: "y\n")
        let r = try CLIRunner().run(["empty-trash", "P"], in: fx.path, input: tty.slave)
        XCTAssertEqual(r.status, 0, r.stderr)
        let question = "Delete the 1 item in the Trash of “\(fx.path)/P” forever? This cannot be undone. [y/N]"
        XCTAssertTrue(r.stderr.contains(question), r.stderr)
        XCTAssertTrue(r.stdout.contains("Deleted 1 item from the Trash of \(fx.path)/P for good."), r.stdout)
        XCTAssertFalse(fx.exists("P/Trash/old.md"))
    }

    func testOnATerminalAnythingElseCancels() throws {
        let fx = try Fixture(Self.tree)
        let tty = try terminal(typing: "n\n")
        let r = try CLIRunner().run(["empty-trash", "P"], in: fx.path, input: tty.slave)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Cancelled: nothing was deleted."), r.stderr)
        XCTAssertTrue(fx.exists("P/Trash/old.md"))
    }

    func testOnATerminalAnEmptyTrashAsksNothing() throws {
        let fx = try Fixture(Self.tree)
        let tty = try terminal(typing: "y\n")
        let r = try CLIRunner().run(["empty-trash", "Empty"], in: fx.path, input: tty.slave)
        XCTAssertEqual(r.status, 0)
        XCTAssertFalse((r.stdout + r.stderr).contains("[y/N]"), r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("The Trash of \(fx.path)/Empty is already empty"), r.stdout)
    }

    func testThroughAPipeTheAnswerIsRead() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["rm", "P/Trash/old.md"], in: fx.path, stdin: "yes\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("Delete “\(fx.path)/P/Trash/old.md” forever?"), r.stderr)
        XCTAssertTrue(r.stdout.contains("Deleted \(fx.path)/P/Trash/old.md for good."), r.stdout)
        XCTAssertFalse(fx.exists("P/Trash/old.md"))
    }

    func testThroughAPipeNoMeansNo() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["empty-trash", "P"], in: fx.path, stdin: "n\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Cancelled: nothing was deleted."), r.stderr)
        XCTAssertTrue(fx.exists("P/Trash/old.md"))
    }

    func testThroughAClosedPipeItSaysToPassYes() throws {
        let fx = try Fixture(Self.tree)
        let r = try CLIRunner().run(["empty-trash", "P"], in: fx.path, stdin: "")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Pass --yes to delete without a question."), r.stderr)
        XCTAssertTrue(fx.exists("P/Trash/old.md"))
        let yes = try CLIRunner().run(["empty-trash", "P", "--yes"], in: fx.path)
        XCTAssertEqual(yes.status, 0, yes.stderr)
        XCTAssertFalse((yes.stdout + yes.stderr).contains("[y/N]"))
        XCTAssertFalse(fx.exists("P/Trash/old.md"))
    }
}
