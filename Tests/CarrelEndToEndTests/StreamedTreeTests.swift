import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A tree too large to hold whole is streamed by the real `carrel lsp`:
/// written once to measure, then sent in pieces, skipping the rows the
/// first writing kept. Whatever the threshold, the client reads the same
/// tree, framed right, and the messages after it still arrive.
final class StreamedTreeTests: XCTestCase {
    var home: Fixture!
    var fx: Fixture!

    override func tearDown() {
        fx = nil
        home = nil
    }

    static let tree = """
        Poems/.carrel/project.json = {"type":"poetry"}
        Poems/Draft/Dawn.md = first light on the water
        Poems/Draft/Cycle/Été.md = the long days
        Poems/Draft/Cycle/Deep/Sea.md = salt
        Poems/Ready/Noon.md = noon
        Poems/Trash/gone.md = gone
        Novel/.carrel/project.json = {"type":"novel"}
        Novel/Chapters/One/Scene 1.md = it began
        Novel/Chapters/One/Scene 2.md = and went on
        Novel/Research/notes.txt = notes
        loose/a.md = a
        loose/b/c.md = c
        top.md = top
        """

    /// The full tree and a depth-limited one, once every word is counted (so
    /// that nothing moves between two servers), from a server started with
    /// `CARREL_STREAM_ABOVE` at `threshold`.
    func trees(streamingAbove threshold: Int?) throws -> [JSONValue] {
        var environment = ["XDG_STATE_HOME": home.path + "/state", "HOME": home.path]
        if let threshold { environment["CARREL_STREAM_ABOVE"] = String(threshold) }
        let client = try ProcessClient(environment: environment)
        _ = try client.initialize([fx.uri()])
        _ = try client.result("carrel/tree", ["depth": 1])
        let deadline = Date().addingTimeInterval(10)
        while try client.result("carrel/tree", ["depth": 0]).arrayValue?.first?["words"] == nil {
            guard Date() < deadline else { throw XCTSkip("the library was never counted") }
            usleep(10_000)
        }
        let full = try client.result("carrel/tree")
        let project = try client.result("carrel/tree", ["uri": .string(fx.uri("Novel")), "depth": 3])
        // The stream left the framing intact: a request after it is answered.
        XCTAssertNotNil(try client.result("carrel/tree", ["depth": 0]).arrayValue?.first)
        return [full, project]
    }

    func testEveryThresholdGivesTheSameTreesAsNoStreaming() throws {
        home = try Fixture()
        fx = try Fixture(Self.tree)
        // The first server makes the novel's missing folders, which dates its row.
        _ = try trees(streamingAbove: nil)
        let whole = try trees(streamingAbove: nil)
        let size = whole[0].encoded().count
        XCTAssertGreaterThan(size, 5_000, "the fixture makes a tree worth cutting")
        for threshold in [0, 1, 700, size / 3, size / 2, size - 200, size - 1] {
            let streamed = try trees(streamingAbove: threshold)
            XCTAssertEqual(streamed, whole, "streamed above \(threshold) bytes")
        }
    }
}
