import CarrelModel
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// Where inotify is out of instances, folders are polled; a file rewritten
/// in place leaves its folder's mtime alone, so polling stats files too,
/// and the file's words are counted again.
final class WordsPollingTests: XCTestCase {
    func testWithoutInotifyARewrittenFileIsCountedAgain() throws {
        let home = try Fixture()
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        defer { unsetenv("XDG_STATE_HOME") }
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = one two
            """)
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        let state = WatchState(watcher: nil, log: { _ in })
        ws.watching = state
        for library in ws.libraries { state.watchTree(library.root, library: library, workspace: ws) }
        XCTAssertTrue(ws.needsPolling)
        ws.queueUncountedWords()
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
        let root = ws.libraries[0].root
        XCTAssertEqual(root.wordTotal, 2)
        usleep(20_000)  // a later mtime, in whole milliseconds
        try "one two three four".write(to: fx.url("P/Draft/a.md"), atomically: false, encoding: .utf8)
        let changes = ws.poll()
        XCTAssertEqual(changes.map(\.kind), [.changed])
        XCTAssertEqual(changes.first?.path, fx.bytes("P/Draft/a.md"))
        ws.recountWords(after: changes)
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
        XCTAssertEqual(root.wordTotal, 4)
    }
}
