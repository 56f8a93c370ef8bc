import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelServer

/// The search index (every name folded into one buffer, 4 MiB at 110,000
/// entries) is built by the first `workspace/symbol`, not after the scan:
/// a writer who never searches never holds it.
final class SymbolIndexOnFirstSearchTests: XCTestCase {
    /// Keeps every message the server sends.
    final class Recorder: MessageSink, @unchecked Sendable {
        let lock = NSLock()
        var messages: [JSONValue] = []

        func send(_ body: [UInt8]) {
            guard let m = try? JSONParser.parse(body) else { return }
            lock.lock()
            messages.append(m)
            lock.unlock()
        }

        func first(_ matching: (JSONValue) -> Bool) -> JSONValue? {
            lock.lock()
            defer { lock.unlock() }
            return messages.first(where: matching)
        }
    }

    var fx: Fixture!

    override func tearDown() { fx = nil }

    func waitFor(_ what: String, _ found: () -> JSONValue?) -> JSONValue? {
        let deadline = Date().addingTimeInterval(20)
        while found() == nil, Date() < deadline { usleep(5_000) }
        let message = found()
        XCTAssertNotNil(message, what)
        return message
    }

    /// The entries the server's search indexes hold, read on the work thread.
    func indexed(_ server: Server) -> Int {
        let done = DispatchSemaphore(value: 0)
        var total = 0
        server.work.async {
            total = server.symbolIndexes.values.reduce(0) { $0 + $1.count }
            done.signal()
        }
        done.wait()
        return total
    }

    func testNoIndexUntilTheFirstSearchThenEveryName() throws {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/Été indien.md = e
            P/Draft/Sonnet.md = s
            P/Research/Notes.md = n
            """)
        let recorder = Recorder()
        let server = Server(sink: recorder, log: Log()) { _ in }
        defer { server.stopWatching() }
        let root = fx.uri()
        func send(_ message: JSONValue) { server.receive(message.encoded()) }
        send([
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": [
                "capabilities": ["experimental": ["carrel": ["didChange": true]]],
                "workspaceFolders": [["uri": .string(root), "name": "W"]],
            ],
        ])
        send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        send(["jsonrpc": "2.0", "id": 2, "method": "carrel/tree", "params": ["depth": 1]])
        _ = waitFor("the library counted") { recorder.first(Self.counted(root)) }
        // Past the moment the index used to be warmed after `initialized`.
        usleep(800_000)
        XCTAssertEqual(indexed(server), 0, "no name folded before a search")

        send(["jsonrpc": "2.0", "id": 3, "method": "workspace/symbol", "params": ["query": "ete"]])
        let answer = waitFor("the search answered") { recorder.first { $0["id"] == 3 } }
        XCTAssertEqual(answer?["result"]?.arrayValue?.first?["name"], "Été indien.md")
        // The project, its folders and the three files, the root aside.
        XCTAssertGreaterThanOrEqual(indexed(server), 6)
    }

    static func counted(_ root: String) -> (JSONValue) -> Bool {
        { m in
            m["method"] == "carrel/didChange"
                && (m["params"]?["changes"]?.arrayValue ?? []).contains {
                    $0["type"] == "changed" && $0["uri"]?.stringValue == root
                }
        }
    }
}
