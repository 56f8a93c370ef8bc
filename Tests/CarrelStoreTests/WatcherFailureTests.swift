import Foundation
import Glibc
import XCTest

@testable import CarrelStore

/// A watcher's descriptor that reports an error or a hang-up is read, and
/// the read decides: what it still holds is handed on, and an end is told
/// to the owner, never a thread that silently stops watching.
final class WatcherFailureTests: XCTestCase {
    /// What a watcher handed on and said, as its thread does it.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [[WatchEvent]] = []
        private var failures: [String] = []

        func deliver(_ batch: [WatchEvent]) { lock.withLock { batches.append(batch) } }
        func fail(_ why: String) { lock.withLock { failures.append(why) } }
        var names: [String] { lock.withLock { batches.joined().map { String(decoding: $0.name, as: UTF8.self) } } }
        var said: [String] { lock.withLock { failures } }
    }

    /// One inotify event record as the kernel writes it: the header, then
    /// the name padded with zeros.
    func eventBytes(watch: Int32, mask: UInt32, name: String) -> [UInt8] {
        var padded = Array(name.utf8) + [0]
        while padded.count % 16 != 0 { padded.append(0) }
        var header: [UInt8] = []
        for field in [UInt32(bitPattern: watch), mask, 0, UInt32(padded.count)] {
            withUnsafeBytes(of: field) { header += $0 }
        }
        XCTAssertEqual(header.count, MemoryLayout<inotify_event>.size)
        return header + padded
    }

    /// A pipe's read end whose write end is closed reports POLLHUP alone
    /// once it is empty, as a failed descriptor would.
    func hungUpDescriptor(holding bytes: [UInt8]) throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        if !bytes.isEmpty {
            XCTAssertEqual(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress!, $0.count) }, bytes.count)
        }
        close(ends[1])
        return ends[0]
    }

    func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline { usleep(10_000) }
    }

    func testADescriptorThatHangsUpIsReportedNotSilentlyDropped() throws {
        let heard = Heard()
        let fd = try hungUpDescriptor(holding: [])
        let watcher = try XCTUnwrap(
            Watcher(descriptor: fd, deliver: { heard.deliver($0) }, failed: { heard.fail($0) }))
        watcher.start()
        waitUntil { !heard.said.isEmpty }
        XCTAssertEqual(heard.said, ["the kernel's change events ended"])
    }

    func testEventsReadBeforeTheDescriptorEndsAreHandedOn() throws {
        let heard = Heard()
        let fd = try hungUpDescriptor(holding: eventBytes(watch: 1, mask: UInt32(IN_CREATE), name: "Spring.md"))
        let watcher = try XCTUnwrap(
            Watcher(descriptor: fd, deliver: { heard.deliver($0) }, failed: { heard.fail($0) }))
        watcher.start()
        waitUntil { !heard.said.isEmpty }
        XCTAssertEqual(heard.names, ["Spring.md"])
        XCTAssertEqual(heard.said, ["the kernel's change events ended"])
    }
}
