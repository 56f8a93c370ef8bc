import XCTest

@testable import CarrelWorkspace

/// The table counts the files each folder holds, so `mayHold` is false
/// exactly when a folder holds none, however its files came and went.
final class LinkTableFolderCountTests: XCTestCase {
    let link = IndexedLink(
        kind: .inline, resolved: ["P", "Ada.md"], name: "../Ada.md", start: 0, end: 9, line: 0, startCharacter: 0,
        endCharacter: 9)

    func folder(_ path: [String]) -> Int { LinkTable.pathHash(path[...]) }

    func testAFolderMayHoldFilesOnlyWhileItHoldsOne() {
        var table = LinkTable()
        XCTAssertFalse(table.mayHold(inFolder: folder(["P", "Draft"])))
        table.set(["P", "Draft", "One.md"], [link])
        table.set(["P", "Draft", "Two.md"], [link])
        table.set(["P", "Draft", "Two.md"], [link, link])
        XCTAssertTrue(table.mayHold(inFolder: folder(["P", "Draft"])))
        XCTAssertFalse(table.mayHold(inFolder: folder(["P"])), "a folder above holds none itself")
        table.set(["P", "Draft", "One.md"], [])
        XCTAssertTrue(table.mayHold(inFolder: folder(["P", "Draft"])), "Two.md is still held")
        table.set(["P", "Draft", "Three.md"], nil)
        table.remove(under: ["P", "Draft"])
        XCTAssertFalse(table.mayHold(inFolder: folder(["P", "Draft"])))
        XCTAssertTrue(table.files.isEmpty)
    }
}
