import CarrelModel
import XCTest

/// Which temporary a sync engine puts a file in place through, and which
/// file it is for: how a rename made on another machine is paired.
final class SyncTemporaryTests: XCTestCase {
    func b(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testSyncthingsTemporariesNameTheirFile() {
        let pairs = [
            ".syncthing.Alpha.md.tmp": "Alpha.md",
            "~syncthing~Alpha.md.tmp": "Alpha.md",
            ".syncthing..carrel-order.tmp": ".carrel-order",
            ".syncthing.Été.md.tmp": "Été.md",
            ".syncthing.Part 1.tmp": "Part 1",
            ".syncthing.x.tmp.tmp": "x.tmp",
        ]
        for (temporary, name) in pairs {
            XCTAssertTrue(SyncTemporary.isTemporary(b(temporary)), temporary)
            XCTAssertTrue(SyncTemporary.isTemporary(b(temporary), of: b(name)), "\(temporary) is \(name)'s")
        }
    }

    func testATemporaryIsNoOtherFilesOne() {
        XCTAssertFalse(SyncTemporary.isTemporary(b(".syncthing.Alpha.md.tmp"), of: b("Beta.md")))
        XCTAssertFalse(SyncTemporary.isTemporary(b(".syncthing.Alpha.md.tmp"), of: b("alpha.md")))
        XCTAssertFalse(SyncTemporary.isTemporary(b(".syncthing.Alpha.md.tmp"), of: b("")))
        XCTAssertFalse(SyncTemporary.isTemporary(b("Alpha.md"), of: b("Alpha.md")))
    }

    func testNamesThatAreNoTemporaries() {
        let names = [
            "Alpha.md", ".syncthing.tmp", ".syncthing..tmp", ".syncthing.Alpha.md", "syncthing.Alpha.md.tmp",
            ".Syncthing.Alpha.md.tmp", "~syncthing~.tmp", ".stfolder", ".carrel-order.tmp-123", "Alpha.md.tmp",
            "~$Alpha.docx", "",
        ]
        for name in names { XCTAssertFalse(SyncTemporary.isTemporary(b(name)), name) }
        XCTAssertTrue(SyncTemporary.isTemporary(b(".syncthing.x.tmp")), "the shortest: one byte of name")
    }

    /// A name over 145 bytes is hashed into its temporary: such a temporary
    /// may be any long name's, and never a short one's.
    func testALongNamesTemporaryIsItsHash() {
        let long = b(String(repeating: "é", count: 73))  // 146 bytes
        let hashed = b(".syncthing." + String(repeating: "0a", count: 32) + ".tmp")
        XCTAssertTrue(SyncTemporary.isTemporary(hashed))
        XCTAssertTrue(SyncTemporary.isTemporary(hashed, of: long))
        XCTAssertFalse(SyncTemporary.isTemporary(hashed, of: b("Alpha.md")))
        XCTAssertFalse(
            SyncTemporary.isTemporary(b(".syncthing." + String(repeating: "0A", count: 32) + ".tmp"), of: long))
        XCTAssertFalse(SyncTemporary.isTemporary(b(".syncthing.") + long + b(".tmp"), of: long), "never kept whole")
        let longest = b(String(repeating: "a", count: 145))
        XCTAssertTrue(SyncTemporary.isTemporary(b(".syncthing.") + longest + b(".tmp"), of: longest), "kept whole")
    }

    /// Every temporary is a name the binder hides.
    func testEveryTemporaryIsHidden() {
        for name in [".syncthing.Alpha.md.tmp", "~syncthing~Alpha.md.tmp"] {
            XCTAssertTrue(HiddenNames.contains(name), name)
        }
    }
}
