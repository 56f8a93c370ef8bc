import CarrelJSON
import CarrelProtocol
import Foundation
import XCTest

@testable import CarrelServer

/// A reply sent in pieces keeps the length its header declared, whatever
/// the pieces come to: one message may be spoilt, never the ones after it.
final class StreamedReplyTests: XCTestCase {
    /// What the transport writes for one streamed reply.
    func framed(length: Int, _ pieces: [String]) throws -> String {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let transport = StdioTransport(log: Log(), output: ends[1])
        transport.send(length: length) { piece in
            for p in pieces { piece(Array(p.utf8)) }
        }
        close(ends[1])
        let data = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    func testPiecesThatComeToTheLengthAreSentAsTheyAre() throws {
        XCTAssertEqual(try framed(length: 7, ["[1,2", ",3]"]), "Content-Length: 7\r\n\r\n[1,2,3]")
    }

    func testPiecesThatFallShortArePaddedWithSpaces() throws {
        let header = "Content-Length: 10\r\n\r\n"
        let sent = try framed(length: 10, ["[1,2", ",3]"])
        XCTAssertEqual(sent, header + "[1,2,3]   ")
        XCTAssertEqual(
            try JSONParser.parse(Array(sent.utf8.dropFirst(header.utf8.count))), [1, 2, 3],
            "JSON allows whitespace after a value")
    }

    func testPiecesThatRunOverAreCutAtTheLength() throws {
        XCTAssertEqual(try framed(length: 5, ["[1,2", ",3]"]), "Content-Length: 5\r\n\r\n[1,2,")
    }

    func testASinkThatKeepsMessagesWholeGetsTheSameBody() {
        final class Kept: MessageSink, @unchecked Sendable {
            var bodies: [[UInt8]] = []
            func send(_ body: [UInt8]) { bodies.append(body) }
        }
        let sink = Kept()
        sink.send(length: 9) { piece in
            piece(Array("[1,".utf8)); piece(Array("2]".utf8))
        }
        sink.send(length: 2) { piece in piece(Array("[1,2]".utf8)) }
        XCTAssertEqual(sink.bodies.map { String(decoding: $0, as: UTF8.self) }, ["[1,2]    ", "[1"])
    }
}
