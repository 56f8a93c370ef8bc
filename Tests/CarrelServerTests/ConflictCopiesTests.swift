import CarrelJSON
import CarrelTestSupport
import Glibc
import XCTest

/// A sync engine's copy of a writer's file is shown right after its
/// original, marked with the original's URI, and counted apart: the writer
/// sees the conflict and chooses. Nothing is merged or removed.
final class ConflictCopiesTests: XCTestCase {
    var fx: Fixture!
    var client: InProcessClient!

    override func tearDown() {
        client = nil
        fx = nil
    }

    static let syncthing = "p1.sync-conflict-20261123-101500-ABCDEFG.md"
    static let dropbox = "p1 (Ada's conflicted copy 2026-11-23).md"
    static let orphan = "gone.sync-conflict-20261123-101500-ABCDEFG.md"

    func start(locale: String = "en") throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/p1.md = mine
            P/Draft/\(Self.syncthing) = theirs
            P/Draft/\(Self.dropbox) = another
            P/Draft/p10.md = ten
            P/Draft/p1 notes.md = notes
            P/Draft/\(Self.orphan) = orphan
            P/Trash/x.sync-conflict-20261123-101500-ABCDEFG.md = trashed
            """)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()], locale: locale)
    }

    func node(_ relative: String) throws -> JSONValue {
        try XCTUnwrap(client.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 1])[0])
    }

    func testCopiesFollowTheirOriginalMarkedAndCountedApart() throws {
        try start()
        let draft = try node("P/Draft")
        let names = draft["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        XCTAssertEqual(
            names, [Self.orphan, "p1 notes.md", "p1.md", Self.dropbox, Self.syncthing, "p10.md"],
            "each copy right after its original; a copy without one where its name puts it")
        let children = draft["children"]?.arrayValue ?? []
        for child in children {
            let name = child["name"]?.stringValue ?? ""
            if name == Self.syncthing || name == Self.dropbox {
                XCTAssertEqual(child["conflictOf"]?.stringValue, fx.uri("P/Draft/p1.md"), name)
                XCTAssertTrue(child["summary"]?.stringValue?.hasPrefix("conflict copy") == true, name)
            } else if name == Self.orphan {
                let original = child["conflictOf"]?.stringValue
                XCTAssertEqual(original, fx.uri("P/Draft/gone.md"), "the original may not exist")
            } else {
                XCTAssertNil(child["conflictOf"], name)
            }
        }
        let all = try client.result("carrel/tree", ["uri": .string(fx.uri("P/.carrel/all")), "depth": 1])[0]
        let listed = all?["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        XCTAssertEqual(
            listed, [Self.orphan, "p1 notes.md", "p1.md", Self.dropbox, Self.syncthing, "p10.md"],
            "in All too, each copy right after its original")
        XCTAssertEqual(draft["fileTotal"], 3)
        XCTAssertEqual(draft["fileCount"], 3)
        XCTAssertEqual(draft["conflictTotal"], 3)
        // Words follow once counted: "3 files · 3 conflicts · 6 words".
        XCTAssertTrue(draft["summary"]?.stringValue?.hasPrefix("3 files · 3 conflicts") == true, "\(draft)")
        let project = try node("P")
        XCTAssertEqual(project["conflictTotal"], 3, "the Trash's copy is out of the project's counts")
        XCTAssertTrue(project["summary"]?.stringValue?.hasPrefix("3 files · 3 conflicts") == true, "\(project)")
        XCTAssertNil(try node("P/Ready")["conflictTotal"], "absent when there are none")
        XCTAssertEqual(try node("P/Trash")["conflictTotal"], 1)
        XCTAssertEqual(fx.read("P/Draft/" + Self.syncthing), "theirs", "nothing merged or removed")
    }

    func testTheSummaryIsSaidInFrench() throws {
        try start(locale: "fr")
        XCTAssertTrue(try node("P/Draft")["summary"]?.stringValue?.hasPrefix("3 fichiers · 3 conflits") == true)
        let copy = try node("P/Draft/" + Self.syncthing)
        // Its words follow once counted: "copie en conflit · 1 mot".
        XCTAssertTrue(copy["summary"]?.stringValue?.hasPrefix("copie en conflit") == true, "\(copy)")
    }

    /// A name that is not UTF-8 cannot name its original: it is a file.
    func testANameThatIsNotUTF8IsNeverACopy() throws {
        try start()
        let name = "p2\u{FF}.sync-conflict-20261123-101500-ABCDEFG.md"
        var bytes = Array(name.utf8)
        bytes.replaceSubrange(2..<4, with: [0xFF])
        let path = fx.bytes("P/Ready") + [UInt8(ascii: "/")] + bytes
        let fd = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { creat($0.baseAddress!, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        client = InProcessClient()
        _ = try client.initialize([fx.uri()])
        let ready = try node("P/Ready")
        XCTAssertEqual(ready["fileTotal"], 1)
        XCTAssertNil(ready["conflictTotal"])
        XCTAssertNil(ready["children"]?[0]?["conflictOf"])
    }

    /// A rename can make a file a copy or a copy a file: counts follow.
    func testRenamingIntoAndOutOfACopysNameMovesItsCount() throws {
        try start()
        _ = try client.command(
            "carrel.rename", ["uri": .string(fx.uri("P/Draft/" + Self.syncthing)), "newName": "p1 theirs.md"])
        XCTAssertEqual(try node("P/Draft")["conflictTotal"], 2)
        XCTAssertEqual(try node("P/Draft")["fileTotal"], 4)
        _ = try client.command(
            "carrel.rename",
            ["uri": .string(fx.uri("P/Draft/p10.md")), "newName": "p10.sync-conflict-20261123-101500-ABCDEFG.md"])
        XCTAssertEqual(try node("P/Draft")["conflictTotal"], 3)
        XCTAssertEqual(try node("P/Draft")["fileTotal"], 3)
    }
}
