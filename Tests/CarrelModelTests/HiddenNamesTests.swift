import CarrelModel
import XCTest

/// What the binder hides: editors', sync engines' and version control's
/// files beside the writer's own, and nothing a writer would name.
final class HiddenNamesTests: XCTestCase {
    func testEditorAndSyncDroppingsAreHidden() {
        let droppings = [
            ".carrel", ".git", ".Nightfall.md.swp", ".#Nightfall.md", ".syncthing.Nightfall.md.tmp", ".dropbox.cache",
            "#Nightfall.md#", "##", "Été.md~", "~", "4913", "~syncthing~Nightfall.md.tmp", "~$Draft.docx",
            "Nightfall.md.orig", "Icon\r", ".stversions", ".stfolder", ".dropbox", ".Nightfall.md.icloud",
        ]
        for name in droppings { XCTAssertTrue(HiddenNames.contains(name), name) }
    }

    func testWritersNamesAreShown() {
        let names = [
            "Nightfall.md", "#1 Draft.md", "Chapter #2", "4913.md", "49130", "491", "~ Tilde poem.md", "~draft",
            "Été.md", "a", "#", "orig", "orig.md", "Poem.original", "Icon", "Icons\r.md", "Georg",
            "Nightfall.sync-conflict-20261123-101500-ABCDEFG.md", "Nightfall (Ada's conflicted copy 2026-11-23).md",
        ]
        for name in names { XCTAssertFalse(HiddenNames.contains(name), name) }
    }

    /// A name the binder would hide cannot be given, or the writer's new
    /// file would vanish as it is made.
    func testNamesTheBinderHidesAreRefusedWithTheReason() {
        for name in ["#x#", "Poem.md~", "4913", "~$x.docx", "Poem.md.orig"] {
            XCTAssertThrowsError(try NameRules.validate(name)) {
                XCTAssertEqual(($0 as? Failure)?.message, .nameLooksLikeEditorFile(name: name))
                XCTAssertEqual(($0 as? Failure)?.reason, .invalidName)
            }
        }
    }
}
