import XCTest

@testable import CarrelWorkspace

/// The files linking to one target, held as one file until a second comes
/// and as one again when all but one leave, so a table changed file by file
/// equals one built afresh.
final class LinkingFilesTests: XCTestCase {
    let a = ["P", "A.md"]
    let b = ["P", "B.md"]
    let c = ["P", "C.md"]

    func files(_ linking: LinkingFiles) -> Set<[String]> {
        var out = Set<[String]>()
        linking.add(to: &out)
        return out
    }

    func testGrowsFromOneAndShrinksBackToOne() {
        var linking = LinkingFiles.one(a)
        linking.insert(a)
        XCTAssertEqual(linking, .one(a), "a file already there is not added twice")
        linking.insert(b)
        linking.insert(c)
        XCTAssertEqual(files(linking), [a, b, c])
        XCTAssertFalse(linking.remove(b))
        XCTAssertFalse(linking.remove(a))
        XCTAssertEqual(linking, .one(c))
        XCTAssertTrue(linking.remove(c), "none left")
    }

    func testRemovingAFileNotThereLeavesTheRest() {
        var linking = LinkingFiles.one(a)
        linking.insert(b)
        XCTAssertFalse(linking.remove(c))
        XCTAssertEqual(files(linking), [a, b])
    }
}
