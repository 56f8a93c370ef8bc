import CarrelModel
import XCTest

/// The names sync engines give the copy of a file two machines changed at once.
final class ConflictCopyTests: XCTestCase {
    func testSyncthingAndDropboxCopiesNameTheirOriginal() {
        let copies = [
            "Nightfall.sync-conflict-20261123-101500-ABCDEFG.md": "Nightfall.md",
            "project.sync-conflict-20261123-101500-7QXJ2MZ.json": "project.json",
            "Notes.sync-conflict-20261123-101500-ABCDEFG": "Notes",
            "a.b.sync-conflict-20261123-101500-ABCDEFG.md": "a.b.md",
            "Nightfall (Ada's conflicted copy 2026-11-23).md": "Nightfall.md",
            "project (Ada's conflicted copy 2026-11-23 (1)).json": "project.json",
            "Été (conflicted copy).md": "Été.md",
        ]
        for (copy, original) in copies { XCTAssertEqual(ConflictCopy.original(of: copy), original, copy) }
    }

    func testWritersOwnNamesAreNoCopies() {
        let names = [
            "Nightfall.md", "Nightfall (draft).md", "sync-conflict.md", "x.sync-conflict-2026-ABCDEFG.md",
            ".sync-conflict-20261123-101500-ABCDEFG.md", "Nightfall.sync-conflict-20261123-101500-ABC.md",
            "Nightfall.sync-conflict-20261123-101500-ABCDEFGH.md", "(conflicted copy).md",
            "Nightfall (Ada's conflicted copy 2026-11-23)x.md", "Nightfall (conflicted copy",
        ]
        for name in names { XCTAssertNil(ConflictCopy.original(of: name), name) }
    }
}
