import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Rewriting a closed file's text: atomic, and never over a file that
/// changed since it was read.
final class ReplaceTextTests: XCTestCase {
    func testReplacesTheFileReadKeepingItsMode() throws {
        let fx = try Fixture("a.md = [x](old.md)")
        chmod(fx.path + "/a.md", 0o600)
        let dir = try Directory.open(root: Array(fx.path.utf8), components: [])
        let read = try XCTUnwrap(dir.readText(Array("a.md".utf8)))
        try dir.replaceText(Array("a.md".utf8), readAs: read.stamp, with: Array("[x](new.md)".utf8))
        XCTAssertEqual(try String(contentsOf: fx.url("a.md"), encoding: .utf8), "[x](new.md)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fx.path), ["a.md"])
        var st = Glibc.stat()
        XCTAssertEqual(stat(fx.path + "/a.md", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
    }

    func testRefusesAFileWrittenSinceItWasRead() throws {
        let fx = try Fixture("a.md = [x](old.md)")
        let dir = try Directory.open(root: Array(fx.path.utf8), components: [])
        let read = try XCTUnwrap(dir.readText(Array("a.md".utf8)))
        try "[x](old.md) and a new line, longer".write(to: fx.url("a.md"), atomically: false, encoding: .utf8)
        XCTAssertThrowsError(
            try dir.replaceText(Array("a.md".utf8), readAs: read.stamp, with: Array("[x](new.md)".utf8))
        ) { XCTAssertEqual($0 as? Directory.ReplaceRefusal, .changedMeanwhile) }
        XCTAssertEqual(
            try String(contentsOf: fx.url("a.md"), encoding: .utf8), "[x](old.md) and a new line, longer")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fx.path), ["a.md"])
    }

    func testRefusesALinkAndAHardLink() throws {
        let fx = try Fixture("a.md = [x](old.md)\nb.md = b")
        let dir = try Directory.open(root: Array(fx.path.utf8), components: [])
        let read = try XCTUnwrap(dir.readText(Array("a.md".utf8)))
        XCTAssertEqual(link(fx.path + "/a.md", fx.path + "/hard.md"), 0)
        XCTAssertThrowsError(try dir.replaceText(Array("a.md".utf8), readAs: read.stamp, with: [0x78]))
        XCTAssertEqual(try String(contentsOf: fx.url("hard.md"), encoding: .utf8), "[x](old.md)")
        XCTAssertEqual(symlink(fx.path + "/b.md", fx.path + "/l.md"), 0)
        XCTAssertThrowsError(try dir.replaceText(Array("l.md".utf8), readAs: read.stamp, with: [0x78]))
        XCTAssertEqual(try String(contentsOf: fx.url("b.md"), encoding: .utf8), "b")
    }
}
