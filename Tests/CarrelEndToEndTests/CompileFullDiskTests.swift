import CarrelTestSupport
import Foundation
import XCTest

/// A compile that runs out of room, by the real CLI under a file size limit
/// (`ulimit -f`, with SIGXFSZ ignored, so a write past it fails with EFBIG
/// as a full disk fails with ENOSPC): a clear error, no partial document,
/// and the library exactly as it was.
final class CompileFullDiskTests: XCTestCase {
    /// About 60 KiB of writing in two scenes, far past the limit below.
    func story() throws -> Fixture {
        let scene = String(repeating: "The sea was calm that night, and the boats lay still. ", count: 600)
        return try Fixture(
            """
            Story/.carrel/project.json = {"type":"shortStory"}
            Story/Draft/1 Opening.md = \(scene)
            Story/Draft/2 Storm.md = \(scene)
            """)
    }

    /// `carrel args` in `directory`, each file it (or a program it runs)
    /// writes limited to `blocks` of 512 bytes.
    func runLimited(_ cli: CLIRunner, _ args: [String], in directory: String, blocks: Int) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "trap '' XFSZ; ulimit -f \(blocks) && exec \"$0\" \"$@\"", ProcessClient.binary] + args
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        p.environment = cli.environment
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try? p.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (
            status: p.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }

    func testNoRoomForTheDocumentSaysSoAndChangesNothing() throws {
        let fx = try story()
        let cli = try CLIRunner()
        // The first open makes the project's permanent folders; the compile must make nothing.
        XCTAssertEqual(cli.run(["tree", "Story"], in: fx.path).status, 0)
        let before = fingerprint(fx.path)
        for format in ["markdown", "html", "docx"] {
            let r = runLimited(cli, ["compile", "Story", "--to", format], in: fx.path, blocks: 16)
            XCTAssertEqual(r.status, 1, "\(format): \(r.stdout)\(r.stderr)")
            XCTAssertTrue(
                r.stderr.contains("There is no room to write the compiled document in “Compiled” (File too large)"),
                "\(format): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("nothing was written"), r.stderr)
            XCTAssertEqual(fingerprint(fx.path), before, "\(format): no partial document, no Compiled folder made")
        }
    }

    func testAnEarlierDocumentAndItsFolderStayAsTheyWere() throws {
        let fx = try story()
        let cli = try CLIRunner()
        XCTAssertEqual(cli.run(["compile", "Story", "--to", "markdown"], in: fx.path).status, 0)
        let earlier = try XCTUnwrap(fx.read("Story/Compiled/Story.md"))
        let before = fingerprint(fx.path)
        let r = runLimited(cli, ["compile", "Story", "--to", "markdown"], in: fx.path, blocks: 16)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("no room"), r.stderr)
        XCTAssertEqual(fingerprint(fx.path), before, "no “Story 2.md”, whole or half, and no temporary")
        XCTAssertEqual(fx.read("Story/Compiled/Story.md"), earlier)
        // With room again, the same compile takes the next free name.
        XCTAssertEqual(cli.run(["compile", "Story", "--to", "markdown"], in: fx.path).status, 0)
        XCTAssertEqual(fx.read("Story/Compiled/Story 2.md"), earlier)
    }
}
