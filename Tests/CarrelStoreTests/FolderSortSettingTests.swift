import CarrelJSON
import CarrelModel
import CarrelStore
import XCTest

/// A folder's own sort is a setting like the project's: stamped when set,
/// and cleared with a stamp of its own, so a merge neither brings a cleared
/// sort back nor makes two machines that cleared it disagree.
final class FolderSortSettingTests: XCTestCase {
    func testAClearedFolderSortStaysClearedAndTwoClearsWriteTheSameLines() throws {
        var meta = ProjectMetadata(type: ProjectType.named("poetry")!, created: 1)
        meta.folderSorts = ["Draft": .manual]
        let set = ProjectFile.encode(meta, over: [:], now: 1_000)
        XCTAssertEqual(set["folderSorts"]?["Draft"]?["changed"]?.intValue, 1_000)
        XCTAssertEqual(try ProjectFile.decode(set).folderSorts, ["Draft": .manual])

        meta.folderSorts = [:]
        let clearedHere = ProjectFile.encode(meta, over: set, now: 5_000)
        let clearedThere = ProjectFile.encode(meta, over: set, now: 9_000)
        XCTAssertEqual(clearedHere, clearedThere, "the clock plays no part in a clear")
        XCTAssertEqual(clearedHere["folderSorts"]?["Draft"]?["value"], .null)
        XCTAssertEqual(try ProjectFile.decode(clearedHere).folderSorts, [:])
    }

    func testTheOlderBareFormIsStillRead() throws {
        let raw: [String: JSONValue] = [
            "type": "poetry", "folderSorts": ["Draft": ["by": "manual"], "Ready": ["by": "name", "descending": true]],
        ]
        let meta = try ProjectFile.decode(raw)
        XCTAssertEqual(meta.folderSorts["Draft"], .manual)
        XCTAssertEqual(meta.folderSorts["Ready"], SortSetting(by: .name, descending: true))
    }
}
