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

    /// Glibc declares the pseudo-terminal calls only under _XOPEN_SOURCE,
    /// which Swift's Glibc module does not set: they are looked up by name.
    func libc<T>(_ name: String, as type: T.Type) throws -> T {
        guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { throw XCTSkip("no \(name) here") }
        return unsafeBitCast(f, to: type)
    }

    /// A pseudo-terminal whose input already holds `typed`: the child's stdin.
    func terminal(typing typed: String) throws -> (master: Int32, slave: FileHandle) {
        typealias IntCall = @convention(c) (Int32) -> Int32
        let posix_openpt = try libc("posix_openpt", as: IntCall.self)
        let grantpt = try libc("grantpt", as: IntCall.self)
        let unlockpt = try libc("unlockpt", as: IntCall.self)
        let ptsname = try libc("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw XCTSkip("no pseudo-terminal here")
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw XCTSkip("cannot open \(String(cString: name))") }
        _ = typed.withCString { write(master, $0, strlen($0)) }
        return (master, FileHandle(fileDescriptor: slave, closeOnDealloc: true))
    }

    func testOnATerminalYesDeletes() throws {
        let fx = try Fixture(Self.tree)
        let (master, tty) = try terminal(typing: "y\n")
        defer { close(master) }
        let r = try CLIRunner().run(["empty-trash", "P"], in: fx.path, input: tty)
        XCTAssertEqual(r.status, 0, r.stderr)
        let question = "Delete the 1 item in the Trash of “\(fx.path)/P” forever? This cannot be undone. [y/N]"
        XCTAssertTrue(r.stderr.contains(question), r.stderr)
        XCTAssertTrue(r.stdout.contains("Deleted 1 item from the Trash of \(fx.path)/P for good."), r.stdout)
        XCTAssertFalse(fx.exists("P/Trash/old.md"))
    }

    func testOnATerminalAnythingElseCancels() throws {
        let fx = try Fixture(Self.tree)
        let (master, tty) = try terminal(typing: "n\n")
        defer { close(master) }
        let r = try CLIRunner().run(["empty-trash", "P"], in: fx.path, input: tty)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Cancelled: nothing was deleted."), r.stderr)
        XCTAssertTrue(fx.exists("P/Trash/old.md"))
    }

    func testOnATerminalAnEmptyTrashAsksNothing() throws {
        let fx = try Fixture(Self.tree)
        let (master, tty) = try terminal(typing: "y\n")
        defer { close(master) }
        let r = try CLIRunner().run(["empty-trash", "Empty"], in: fx.path, input: tty)
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
