import Foundation
import Glibc
import XCTest

/// A test whose process keeps its device-local state (`XDG_STATE_HOME`:
/// word counts, link records, the undo journal) in a folder of its own,
/// gone with the test, so no test reads another's.
open class StateFolderTestCase: XCTestCase {
    public var state: Fixture!

    open override func setUpWithError() throws {
        try super.setUpWithError()
        state = try Fixture()
        setenv("XDG_STATE_HOME", state.path, 1)
    }

    open override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        state = nil
        super.tearDown()
    }
}
