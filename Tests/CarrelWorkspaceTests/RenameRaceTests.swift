import CarrelModel
import CarrelTestSupport
import Glibc
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// Server B opened folder A to move B into it; meanwhile server A moved A into
/// B. The kernel refuses B's rename with EINVAL ("into itself"): that must
/// reach the writer as a conflict (changed on disk, try again), not as
/// "Invalid argument". Found by ConcurrencyTests.
final class RenameRaceTests: XCTestCase {
    func testDestinationMovedIntoTheSourceMeanwhileIsAConflict() throws {
        let fx = try Fixture("D/A/a.md = a\nD/B/b.md = b")
        let d = try Directory.open(fx.bytes("D"))
        let a = try d.subdirectory(Array("A".utf8))  // B's server has the destination open…
        XCTAssertEqual(rename(fx.path + "/D/A", fx.path + "/D/B/A"), 0)  // …when A moves into B
        XCTAssertThrowsError(try d.move(Array("B".utf8), to: a, as: Array("B".utf8))) { error in
            let e = error as! SysError
            XCTAssertEqual(e.code, EINVAL)
            XCTAssertTrue(Directory.renameNoReplaceSupported)
            XCTAssertEqual(Workspace().failure(for: e).reason, .conflict)
        }
        XCTAssertEqual(fx.read("D/B/A/a.md"), "a")
        XCTAssertEqual(fx.read("D/B/b.md"), "b")
    }
}
