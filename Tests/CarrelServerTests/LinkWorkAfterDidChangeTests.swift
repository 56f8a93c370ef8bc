import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

@testable import CarrelServer
@testable import CarrelWorkspace

/// A rename's `carrel/didChange` waits for no link work: the links as they
/// were are rebuilt after the move, so the binder shows the change before
/// the index is read and the question asked.
final class LinkWorkAfterDidChangeTests: StateFolderTestCase {
    /// Keeps what the server sends, and how many files the link index had
    /// read when the move's `carrel/didChange` went out.
    final class Recorder: MessageSink, @unchecked Sendable {
        weak var server: Server?
        let lock = NSLock()
        var messages: [JSONValue] = []
        var readsAtDidChange: Int?

        func send(_ body: [UInt8]) {
            let m = (try? JSONParser.parse(body)) ?? .null
            let moved = (m["params"]?["changes"]?.arrayValue ?? []).contains { $0["type"] == "moved" }
            lock.lock()
            defer { lock.unlock() }
            if m["method"] == "carrel/didChange", moved, readsAtDidChange == nil {
                readsAtDidChange = server?.workspace.linkIndexReads
            }
            messages.append(m)
        }

        func index(_ match: (JSONValue) -> Bool) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            return messages.firstIndex(where: match)
        }
    }

    func testTheRenameIsToldBeforeTheIndexIsReadAndTheQuestionAsked() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Characters/Ada.md = # Ada
            P/Draft/One.md = See [Ada](../Characters/Ada.md).
            P/Draft/Two.md = And [[Ada]] again.
            """)
        let recorder = Recorder()
        let server = Server(sink: recorder, log: Log()) { _ in }
        recorder.server = server
        defer { server.stopWatching() }
        func send(_ m: JSONValue) { server.receive(m.encoded()) }
        send([
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": [
                "capabilities": ["experimental": ["carrel": ["didChange": true]]],
                "workspaceFolders": [["uri": .string(fx.uri()), "name": "W"]],
            ],
        ])
        send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        send([
            "jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
            "params": [
                "command": "carrel.rename",
                "arguments": [["uri": .string(fx.uri("P/Characters/Ada.md")), "newName": "Ada Lovelace.md"]],
            ],
        ])
        let asked = { (m: JSONValue) in m["method"] == "window/showMessageRequest" }
        let deadline = Date().addingTimeInterval(10)
        while recorder.index(asked) == nil, Date() < deadline { usleep(10_000) }
        let question = try XCTUnwrap(recorder.index(asked), "the writer is asked about the two links")
        let didChange = try XCTUnwrap(
            recorder.index { m in
                m["method"] == "carrel/didChange"
                    && (m["params"]?["changes"]?.arrayValue ?? []).contains { $0["type"] == "moved" }
            })
        XCTAssertLessThan(didChange, question)
        XCTAssertEqual(recorder.readsAtDidChange, 0, "no file was read for links before the binder was told")
        XCTAssertGreaterThan(server.workspace.linkIndexReads, 0, "the index was read after it")
    }
}
