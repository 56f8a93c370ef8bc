import CarrelJSON
import Foundation
import Glibc
import XCTest

/// A test of one library served in process, with a state folder of its own
/// (`XDG_STATE_HOME`, for link records, sessions, the undo journal) and a
/// data folder for the system Trash (`XDG_DATA_HOME`), so no test reads
/// another's device-local state or touches the user's.
open class ServedLibraryTestCase: XCTestCase {
    public var fx: Fixture!
    public var home: Fixture!
    public var client: InProcessClient!

    /// Makes the library from `tree` (and whatever `prepare` adds to it
    /// that a literal cannot hold), then initializes the server over it as
    /// the Carrel plugins do, every extension declared.
    public func serve(_ tree: String, locale: String = "en", prepare: (Fixture) throws -> Void = { _ in }) throws {
        try makeLibrary(tree, prepare: prepare)
        _ = try client.initialize([fx.uri()], locale: locale)
    }

    /// As `serve`, for a stock LSP client: no Carrel extension, only
    /// `capabilities`.
    public func serveStock(
        _ tree: String, capabilities: JSONValue = [:], prepare: (Fixture) throws -> Void = { _ in }
    ) throws {
        try makeLibrary(tree, prepare: prepare)
        _ = try client.result(
            "initialize",
            ["capabilities": capabilities, "workspaceFolders": [["uri": .string(fx.uri()), "name": "W"]]])
        client.notify("initialized")
    }

    private func makeLibrary(_ tree: String, prepare: (Fixture) throws -> Void) throws {
        home = try Fixture()
        setenv("XDG_DATA_HOME", home.path + "/data", 1)
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        fx = try Fixture(tree)
        try prepare(fx)
        client = InProcessClient()
    }

    /// The row of the item at `relative` in the library, as `carrel/tree` gives it.
    public func row(_ relative: String) throws -> JSONValue {
        try client.result("carrel/tree", ["uri": .string(fx.uri(relative)), "depth": 0]).arrayValue![0]
    }

    // XCTest keeps every test case object until the run ends, so a
    // fixture held here is removed only when let go of.
    open override func tearDown() {
        unsetenv("XDG_DATA_HOME")
        unsetenv("XDG_STATE_HOME")
        client = nil
        fx = nil
        home = nil
        super.tearDown()
    }
}
