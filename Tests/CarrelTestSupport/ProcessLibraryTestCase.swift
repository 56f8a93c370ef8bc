import Foundation
import XCTest

/// A test of one library served by the real `carrel lsp` over pipes, with a
/// home and state folder of its own (`ProcessClient(home:)`).
open class ProcessLibraryTestCase: XCTestCase {
    public var fx: Fixture!
    public var home: Fixture!
    public var c: ProcessClient!

    /// Makes the library from `tree`, then starts the server and
    /// initializes it over the library as the Carrel plugins do.
    public func serve(_ tree: String) throws {
        home = try Fixture()
        fx = try Fixture(tree)
        c = try ProcessClient(home: home)
        _ = try c.initialize([fx.uri()])
    }

    open override func tearDown() {
        c = nil
        fx = nil
        home = nil
        super.tearDown()
    }
}
