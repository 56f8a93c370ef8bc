import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// The real `carrel lsp` answers `initialize` before it walks `.carrel`
/// for a crash's leftovers, and has removed them by the time it answers
/// any request sent after that answer.
final class LeftoversAfterInitializeTests: XCTestCase {
    func testASnapshotsTemporaryIsGoneByTheFirstRequestAfterInitialize() throws {
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let pid = dead.processIdentifier
        let folder = "N/.carrel/snapshots/Scenes/Rain.md"
        let fx = try Fixture(
            """
            N/.carrel/project.json = {"type":"novel"}
            N/Scenes/Rain.md = rain
            \(folder)/.carrel-snapshot-\(pid)-1 = half a snapshot
            \(folder)/2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1w.md = rain
            """)
        let home = try Fixture("state/")
        let server = try ProcessClient(environment: ["XDG_STATE_HOME": home.path + "/state"])
        _ = try server.initialize([fx.uri()])
        let tree = try server.request("carrel/tree", ["uri": .string(fx.uri("N")), "depth": 1])
        XCTAssertNotNil(tree["result"], tree.text())
        XCTAssertFalse(fx.exists("\(folder)/.carrel-snapshot-\(pid)-1"), "a dead process's temporary went")
        XCTAssertEqual(fx.read("\(folder)/2026-11-28T01-15-00.123Z a1b2c3d4-9f8e7d6c 1w.md"), "rain")
        server.closeInput()
        _ = server.waitForExit()
    }
}
