import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// The real binary finishes, on its next open, the link updates a stopped
/// Carrel recorded in the state folder, and refuses a forged record.
final class LinkUpdateRecoveryCLITests: XCTestCase {
    static let before = "See [Ada](../Characters/Ada.md)."

    func fnv(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }

    /// The device as statx gives it: major in the high 32 bits, minor in the low.
    func device(_ dev: UInt64) -> UInt64 {
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
        let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        return major << 32 | minor
    }

    /// A record as `writeLinkEdits` leaves it when stopped before One.md.
    func plantRecord(_ cli: CLIRunner, library root: String, path: [String] = ["P", "Draft", "One.md"]) throws
        -> String
    {
        let real = try XCTUnwrap(realpath(root, nil))
        defer { free(real) }
        let library = String(cString: real)
        var st = stat()
        XCTAssertEqual(stat(root + "/" + path.joined(separator: "/"), &st), 0)
        let after = "See [Ada](../Characters/Ada%20Lovelace.md)."
        let record: [String: Any] = [
            "carrelLinkUpdate": 1, "library": library,
            "files": [
                [
                    "path": path,
                    "before": [
                        "device": String(device(UInt64(st.st_dev))), "inode": String(st.st_ino),
                        "size": String(st.st_size),
                        "modifiedNs": String(Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)),
                        "hash": fnv(Array(Self.before.utf8)),
                    ],
                    "after": ["size": String(after.utf8.count), "hash": fnv(Array(after.utf8))],
                    "edits": [["start": 10, "end": 30, "newText": "../Characters/Ada%20Lovelace.md"]],
                ]
            ],
        ]
        let folder = cli.sandbox.path + "/state/carrel/links"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let hash = fnv(Array(library.utf8))
        let name = "library-\(String(repeating: "0", count: 16 - hash.count))\(hash)-999999999-5-ab.json"
        let data = try JSONSerialization.data(withJSONObject: record)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: data))
        return folder + "/" + name
    }

    func testTheNextOpenFinishesTheUpdate() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Characters/Ada Lovelace.md = # Ada
            P/Draft/One.md = \(Self.before)
            """)
        let cli = try CLIRunner()
        let record = try plantRecord(cli, library: fx.path)
        let r = cli.run(["tree", "P/Draft"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada%20Lovelace.md).")
        XCTAssertTrue(r.stderr.contains("it has now finished updating 1 file."), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: record))
    }

    func testARecordNamingAFileOutsideTheLibraryIsRefused() throws {
        let fx = try Fixture(
            """
            Library/P/.carrel/project.json = {"type":"novel"}
            Library/P/Draft/One.md = \(Self.before)
            P/Draft/One.md = \(Self.before)
            """)
        let cli = try CLIRunner()
        // One.md beside the library, reached by climbing out of it.
        let lib = fx.path + "/Library"
        let record = try plantRecord(cli, library: lib, path: ["..", "P", "Draft", "One.md"])
        let r = cli.run(["tree", "P/Draft"], in: lib)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("it names a file outside the library"), r.stderr)
        XCTAssertEqual(fx.read("P/Draft/One.md"), Self.before)
        XCTAssertTrue(FileManager.default.fileExists(atPath: record))
    }
}
