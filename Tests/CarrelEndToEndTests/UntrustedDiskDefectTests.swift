import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// The untrusted-disk defects one at a time, each with the exact outcome
/// and message: a lost Trash record reported as success, a refused restore
/// that left folders behind, the CLI following `.carrel` out of the
/// library, and messages that blamed the wrong thing. The table of every
/// kept name in every hostile form is `UntrustedDiskTests`.
final class UntrustedDiskDefectTests: XCTestCase {
    var home: Fixture!

    override func tearDown() { home = nil }

    func spawn(launcher: [String] = []) throws -> ProcessClient {
        if home == nil { home = try Fixture() }
        chmod(home.path, 0o777)
        return try ProcessClient(environment: environment, launcher: launcher)
    }

    var environment: [String: String] {
        ["HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_DATA_HOME": home.path + "/data"]
    }

    func reason(_ r: JSONValue) -> String? { r["error"]?["data"]?["reason"]?.stringValue }
    func message(_ r: JSONValue) -> String { r["error"]?["message"]?.stringValue ?? "" }

    /// `carrel ARGS --library LIBRARY` as a shell user runs it: exit status
    /// and stderr, killed after `timeout`.
    func cli(_ arguments: [String], library: String, timeout: TimeInterval = 10) throws -> (
        status: Int32?, stderr: String
    ) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ProcessClient.binary)
        p.arguments = arguments + ["--library", library]
        if home == nil { home = try Fixture() }
        p.environment = environment
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return (nil, "")
        }
        return (p.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    // MARK: The CLI opens libraries too

    func testCLITreeLeavesAPurgeLinkedOutsideAlone() throws {
        let outside = try Fixture("a.md = outside\nsub/b.md = outside too")
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"blank"}
            P/a.md = a
            P/.carrel/purge -> \(outside.path)
            """)
        let before = fingerprint(outside.path)
        let r = try cli(["tree"], library: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fingerprint(outside.path), before, "opening the library deleted nothing through the link")
    }

    func testCLIRemoveRefusesACarrelLinkedOutside() throws {
        let outside = try Fixture(#"project.json = {"type":"blank"}"#)
        let fx = try Fixture(
            """
            P/a.md = a
            P/Trash/
            P/.carrel -> \(outside.path)
            """)
        let before = fingerprint(outside.path)
        let r = try cli(["rm", fx.path + "/P/a.md"], library: fx.path)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains(fx.path + "/P/.carrel is a symbolic link"), r.stderr)
        XCTAssertEqual(fingerprint(outside.path), before, "no record, lock or spare was written outside")
        XCTAssertEqual(fx.read("P/a.md"), "a")
    }

    // MARK: A record that cannot be written

    /// A 1 MiB tmpfs with 64 inodes, unmounted when let go of: a disk that
    /// fills up when a test says so. Mounting needs root, which CI is.
    final class SmallDisk {
        let mountPoint: Fixture
        var path: String { mountPoint.path }

        init() throws {
            mountPoint = try Fixture()
            let mount = "mount -t tmpfs -o size=1m,nr_inodes=64 carrel-inodes '\(mountPoint.path)' 2>/dev/null"
            guard getuid() == 0, Fixture.sh(mount) == 0 else {
                throw XCTSkip("cannot mount a small tmpfs here (needs root)")
            }
        }

        deinit { _ = Fixture.sh("umount '\(mountPoint.path)'") }
    }

    func testDeleteWhoseRecordCannotBeWrittenFailsAndMovesNothing() throws {
        let disk = try SmallDisk()
        defer { withExtendedLifetime(disk) {} }
        let lib = disk.path
        // No Trash records folder yet, and one free inode: the folder takes it.
        let setup = """
            mkdir -p '\(lib)/P/.carrel' '\(lib)/P/Trash' &&
            printf '{"type":"blank"}' > '\(lib)/P/.carrel/project.json' &&
            printf 'keep me' > '\(lib)/P/a.md' &&
            i=0; while touch '\(lib)/.inode-'$i 2>/dev/null; do i=$((i+1)); done; rm '\(lib)/.inode-0'
            """
        XCTAssertEqual(Fixture.sh(setup), 0)
        let r = try cli(["rm", lib + "/P/a.md"], library: lib)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("could not record where “a.md” came from"), r.stderr)
        XCTAssertTrue(r.stderr.contains("No space left on device"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: lib + "/P/a.md", encoding: .utf8), "keep me", "the move was undone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: lib + "/P/Trash"), [])
        let projectFile = { try String(contentsOfFile: lib + "/P/.carrel/project.json", encoding: .utf8) }
        XCTAssertEqual(try projectFile(), #"{"type":"blank"}"#)
        // With room again, the same delete records where the file came from.
        _ = Fixture.sh("rm -f '\(lib)'/.inode-*")
        XCTAssertEqual(try cli(["rm", lib + "/P/a.md"], library: lib).status, 0)
        XCTAssertEqual(Fixture.trashRecords(atProject: lib + "/P"), ["a.md": "a.md"])
    }

    /// A restore writes nothing: it moves the item and removes its record,
    /// so a full disk does not stop it.
    func testRestoreOnAFullDiskStillWorks() throws {
        let disk = try SmallDisk()
        defer { withExtendedLifetime(disk) {} }
        let lib = disk.path
        let record = #"{"name":"a.md","from":"Draft/a.md","deleted":1}"#
        let setup = """
            mkdir -p '\(lib)/P/.carrel/trash' '\(lib)/P/Trash' '\(lib)/P/Draft' &&
            printf '{"type":"blank"}' > '\(lib)/P/.carrel/project.json' &&
            printf '%s' '\(record)' > '\(lib)/P/.carrel/trash/1-a.json' &&
            printf 'keep me' > '\(lib)/P/Trash/a.md' &&
            i=0; while touch '\(lib)/.inode-'$i 2>/dev/null; do i=$((i+1)); done
            """
        XCTAssertEqual(Fixture.sh(setup), 0)
        let r = try cli(["restore", lib + "/P/Trash/a.md"], library: lib)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOfFile: lib + "/P/Draft/a.md", encoding: .utf8), "keep me")
        XCTAssertEqual(Fixture.trashRecords(atProject: lib + "/P"), [:], "the record went with it")
    }

    func testRefusedRestoreRemovesTheFoldersItMade() throws {
        guard let launcher = unprivilegedLauncher() else { throw XCTSkip("running as root without setpriv") }
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry","trash":{"Scene":{"from":"Act 1/Part 2/Scene","deleted":1}}}
            P/Draft/
            P/Trash/Scene/line.md = l
            """)
        if getuid() == 0 {
            // The server runs as nobody; the folder in Trash stays root's, and
            // moving a folder to another parent needs write access to it.
            chmod(fx.path, 0o755)
            XCTAssertEqual(Fixture.sh("chown -R 65534:65534 '\(fx.path)'"), 0)
            XCTAssertEqual(Fixture.sh("chown -R 0:0 '\(fx.path)/P/Trash/Scene'"), 0)
        } else {
            chmod(fx.path + "/P/Trash/Scene", 0o555)
        }
        defer { chmod(fx.path + "/P/Trash/Scene", 0o755) }
        let c = try spawn(launcher: launcher)
        _ = try c.initialize([fx.uri()])
        // Carrel's own files may change: the older record moves to a file of its own.
        let visible = { fingerprint(fx.path).filter { !$0.key.hasPrefix("P/.carrel/") } }
        let before = visible()
        let r = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/Scene"))])
        XCTAssertEqual(reason(r), "io", r.text())
        XCTAssertTrue(message(r).contains("Permission denied") && message(r).contains("Nothing was changed"), r.text())
        XCTAssertFalse(fx.exists("P/Act 1"), "the folders made for the origin are gone again")
        XCTAssertEqual(visible(), before, "nothing was changed")
        let tree = try c.result("carrel/tree", ["uri": .string(fx.uri("P")), "depth": 1])[0]!
        XCTAssertFalse(tree["children"]!.arrayValue!.contains { $0["name"] == "Act 1" }, "nor shown")
    }

    // MARK: Messages

    func testProjectFileOver16MiBIsCalledTooLarge() throws {
        let fx = try Fixture("P/Draft/a.md = a")
        try fx.add("P/.carrel/")
        let big = #"{"type":"poetry","notes":""# + String(repeating: "x", count: 17 << 20) + #""}"#
        try Data(big.utf8).write(to: fx.url("P/.carrel/project.json"))
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let r = try c.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true])
        XCTAssertEqual(reason(r), "io")
        XCTAssertEqual(
            message(r),
            "\(fx.path)/P/.carrel/project.json is larger than 16 MiB (16777216 bytes), "
                + "the most Carrel reads; it was left untouched. Make it smaller or remove it.")
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
    }

    func testDeletingA255ByteNameWhoseTwinIsInTrashShortensTheStem() throws {
        let ascii = String(repeating: "a", count: 252) + ".md"
        let accented = String(repeating: "é", count: 126) + ".md"  // 255 bytes, two to a character
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/\(ascii) = new
            P/Trash/\(ascii) = old
            P/Draft/\(accented) = new
            P/Trash/\(accented) = old
            """)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let rows = [
            (ascii, String(repeating: "a", count: 250) + " 2.md"),
            (accented, String(repeating: "é", count: 125) + " 2.md"),
        ]
        for (name, expected) in rows {
            let r = try c.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/" + name)), "confirmed": true])
            XCTAssertEqual(r["result"]?["name"], .string(expected), r.text())
            XCTAssertEqual(expected.utf8.count, 255)
            XCTAssertEqual(fx.read("P/Trash/" + expected), "new")
            XCTAssertEqual(fx.read("P/Trash/" + name), "old")
        }
    }

    func testTrashThatIsALinkIsCalledALink() throws {
        let outside = try Fixture("x.md = outside")
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Trash -> \(outside.path)
            """)
        let before = fingerprint(outside.path)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let r = try c.command("carrel.delete", ["uri": .string(fx.uri("P/Draft/a.md")), "confirmed": true])
        XCTAssertEqual(reason(r), "io")
        XCTAssertEqual(
            message(r),
            "\(fx.path)/P/Trash is a symbolic link where Carrel keeps a folder; "
                + "Carrel does not follow or open it. Nothing was changed: remove it or put a folder there.")
        let empty = try c.command("carrel.emptyTrash", ["projectUri": .string(fx.uri("P")), "confirmed": true])
        XCTAssertEqual(reason(empty), "io", "a linked Trash is not emptied as if it were empty")
        XCTAssertEqual(fingerprint(outside.path), before)
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
    }

    func testTrashRecordsWhoseOriginCannotBeRecreatedAreCalledUnusable() throws {
        let fx = try Fixture(
            #"""
            P/.carrel/project.json = {"type":"poetry","trash":{" w.md":{"from":"Draft/ w.md","deleted":1},"x.md":{"from":".carrel/x.md","deleted":1},"y.md":{"from":"Dra\u001bft/y.md","deleted":1}}}
            P/Draft/
            P/Trash/x.md = x
            P/Trash/y.md = y
            P/Trash/ w.md = w
            """#)
        let c = try spawn()
        _ = try c.initialize([fx.uri()])
        let before = fingerprint(fx.path)
        let rows = [("x.md", "“.carrel/x.md”"), ("y.md", "“Dra\\u{1B}ft/y.md”")]
        for (name, origin) in rows {
            let r = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/" + name))])
            XCTAssertEqual(reason(r), "io", r.text())
            XCTAssertEqual(
                message(r),
                "The Trash record of “\(name)” names an origin Carrel cannot recreate (\(origin)): "
                    + "the record is unusable, and nothing was changed. "
                    + "Move “\(name)” out of the Trash into the folder where it belongs.")
        }
        XCTAssertEqual(fingerprint(fx.path), before)
        // A name another program made with a leading space is unusual, not unusable.
        let restored = try c.command("carrel.restore", ["uri": .string(fx.uri("P/Trash/ w.md"))])
        XCTAssertEqual(restored["result"]?["name"], " w.md", restored.text())
        XCTAssertEqual(fx.read("P/Draft/ w.md"), "w")
    }
}
