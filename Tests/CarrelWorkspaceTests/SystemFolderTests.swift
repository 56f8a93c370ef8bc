import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// The folders the CLI never takes as a library unless it is named: the
/// root, the folders directly in it, and the home folders.
final class SystemFolderTests: XCTestCase {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testTheRootItsFoldersAndTheHomesAreSystemFolders() {
        let home = bytes("/home/ada")
        for path in ["/", "/home", "/tmp", "/usr", "/home/ada", "/home/bob"] {
            XCTAssertTrue(Workspace.isSystemFolder(bytes(path), home: home), path)
        }
        for path in ["/home/ada/Writing", "/tmp/carrel/Writing", "/usr/share", "/home/bob/Writing"] {
            XCTAssertFalse(Workspace.isSystemFolder(bytes(path), home: home), path)
        }
        XCTAssertFalse(Workspace.isSystemFolder(bytes("/srv/writing"), home: nil), "no HOME: only the top")
    }

    /// A home reached through a link is the same home.
    func testAHomeIsKnownByItsRealPathToo() throws {
        let fx = try Fixture("real/ada/Writing/\nlinks/\n")
        try FileManager.default.createSymbolicLink(
            atPath: fx.path + "/links/ada", withDestinationPath: fx.path + "/real/ada")
        let home = bytes(fx.path + "/links/ada")
        XCTAssertTrue(Workspace.isSystemFolder(bytes(fx.path + "/real/ada"), home: home))
        XCTAssertTrue(Workspace.isSystemFolder(bytes(fx.path + "/links/ada"), home: home))
        XCTAssertFalse(Workspace.isSystemFolder(bytes(fx.path + "/real/ada/Writing"), home: home))
    }
}
