import CarrelJSON
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

@testable import CarrelServer
@testable import CarrelWorkspace

/// The background scan leaves the cores to the first view: it reads
/// nothing until the first `carrel/tree` is answered, or, for a client
/// that asks for none, until shortly after `initialize` is answered.
final class FirstViewBeforeDeepReadingTests: XCTestCase {
    /// Notes, as each answer is sent, whether the background scan was
    /// reading and whether folders were left for it to read. Answers are
    /// sent on the thread that owns the model, so its pending folders are
    /// read there, not from the test's thread.
    final class Recorder: MessageSink, @unchecked Sendable {
        let lock = NSLock()
        weak var server: Server?
        var readingAtAnswer: [Int: Bool] = [:]
        var pendingAtAnswer: [Int: Bool] = [:]

        func send(_ body: [UInt8]) {
            guard let m = try? JSONParser.parse(body), let id = m["id"]?.intValue, m["method"] == nil else { return }
            let reading = server?.workspace.isReadingDeepFolders ?? false
            let pending = server?.workspace.libraries.first.map { !$0.pending.isEmpty } ?? false
            lock.lock()
            readingAtAnswer[id] = reading
            pendingAtAnswer[id] = pending
            lock.unlock()
        }

        func pending(at id: Int) -> Bool? {
            lock.lock()
            defer { lock.unlock() }
            return pendingAtAnswer[id]
        }

        func reading(at id: Int) -> Bool? {
            lock.lock()
            defer { lock.unlock() }
            return readingAtAnswer[id]
        }
    }

    var fx: Fixture!

    override func tearDown() { fx = nil }

    /// A library with more deep entries than opening reads, so some
    /// folders are left to the background scan.
    func start() throws -> (Server, Recorder) {
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            """)
        for f in 0..<45 {
            let folder = fx.path + "/P/Draft/Folder \(f)"
            XCTAssertEqual(mkdir(folder, 0o755), 0)
            for n in 0..<50 {
                let fd = Glibc.open(folder + "/file \(n).md", O_CREAT | O_EXCL | O_WRONLY, 0o644)
                XCTAssertGreaterThanOrEqual(fd, 0)
                close(fd)
            }
        }
        let recorder = Recorder()
        let server = Server(sink: recorder, log: Log()) { _ in }
        recorder.server = server
        server.receive(
            JSONValue.object([
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": [
                    "capabilities": ["experimental": ["carrel": ["didChange": true]]],
                    "workspaceFolders": [["uri": .string(fx.uri()), "name": "W"]],
                ],
            ]).encoded())
        return (server, recorder)
    }

    func waitFor(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline { usleep(5_000) }
        XCTAssertTrue(condition(), what)
    }

    func testNothingDeepIsReadUntilTheFirstTreeIsAnswered() throws {
        let (server, recorder) = try start()
        defer { server.stopWatching() }
        server.receive(JSONValue.object(["jsonrpc": "2.0", "method": "initialized", "params": [:]]).encoded())
        server.receive(
            JSONValue.object(["jsonrpc": "2.0", "id": 2, "method": "carrel/tree", "params": ["depth": 1]]).encoded())
        waitFor("the first tree answered") { recorder.reading(at: 2) != nil }
        XCTAssertEqual(recorder.reading(at: 1), false, "reading when initialize was answered")
        XCTAssertEqual(recorder.reading(at: 2), false, "reading when the first tree was answered")
        XCTAssertEqual(recorder.pending(at: 2), true, "deep folders left to the background at the first tree")
        waitFor("the background scan reading after the first tree") { server.workspace.isReadingDeepFolders }
    }

    func testWithoutATreeTheBackgroundScanStartsSoonAfterInitialize() throws {
        let (server, recorder) = try start()
        defer { server.stopWatching() }
        waitFor("initialize answered") { recorder.reading(at: 1) != nil }
        XCTAssertEqual(recorder.reading(at: 1), false)
        waitFor("the background scan reading") { server.workspace.isReadingDeepFolders }
    }
}
