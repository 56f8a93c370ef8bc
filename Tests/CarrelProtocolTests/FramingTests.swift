import CarrelProtocol
import XCTest

final class FramingTests: XCTestCase {
    func frames(_ chunks: [String]) -> [MessageFramer.Frame] {
        var f = MessageFramer()
        var out: [MessageFramer.Frame] = []
        for c in chunks {
            f.feed(Array(c.utf8))
            while let frame = f.next() { out.append(frame) }
        }
        return out
    }

    func testBodiesSplitAcrossAnyChunking() {
        let msg = "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
        let whole = msg + msg
        for cut in 0...whole.utf8.count {
            let bytes = Array(whole.utf8)
            var f = MessageFramer()
            var got: [MessageFramer.Frame] = []
            f.feed(bytes[0..<cut])
            while let x = f.next() { got.append(x) }
            f.feed(bytes[cut...])
            while let x = f.next() { got.append(x) }
            XCTAssertEqual(got, [.body(Array("{}".utf8)), .body(Array("{}".utf8))], "cut at \(cut)")
        }
    }

    func testMalformedHeadersAreReportedAndSkipped() {
        XCTAssertEqual(
            frames(["Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}"]),
            [.malformedHeader("no Content-Length header"), .body(Array("{}".utf8))])
        XCTAssertEqual(
            frames(["Content-Length: -5\r\n\r\n"]),
            [.malformedHeader("Content-Length is not a non-negative integer: “-5”")])
        XCTAssertEqual(
            frames(["Content-Length: abc\r\n\r\n"]),
            [.malformedHeader("Content-Length is not a non-negative integer: “abc”")])
        XCTAssertEqual(frames(["garbage\r\n\r\n"]), [.malformedHeader("header line without ':'")])
    }

    func testHugeBodiesAreSkippedWithoutBuffering() {
        var f = MessageFramer()
        f.feed(Array("Content-Length: 67108865\r\n\r\n".utf8))
        XCTAssertEqual(f.next(), .tooLarge(67_108_865))
        f.feed([UInt8](repeating: 0x20, count: 67_108_865))
        f.feed(Array("Content-Length: 2\r\n\r\n{}".utf8))
        XCTAssertEqual(f.next(), .body(Array("{}".utf8)))
    }

    func testShortBodyWaitsForMoreBytes() {
        XCTAssertEqual(frames(["Content-Length: 10\r\n\r\n{}"]), [])
    }

    func testFrameWritesContentLengthInBytes() {
        XCTAssertEqual(
            String(decoding: MessageFramer.frame(Array("é".utf8)), as: UTF8.self), "Content-Length: 2\r\n\r\né")
    }
}

final class FileURITests: XCTestCase {
    func testRoundTripOfOddNames() throws {
        let path: [UInt8] = Array("/tmp/My Poems/Café ?#%.md".utf8) + [0xFF]
        let uri = FileURI.uri(path)
        XCTAssertEqual(uri, "file:///tmp/My%20Poems/Caf%C3%A9%20%3F%23%25.md%FF")
        XCTAssertEqual(try FileURI.path(uri), path)
        XCTAssertEqual(try FileURI.path("file://localhost/tmp/a"), Array("/tmp/a".utf8))
    }

    func testRejectsWhatIsNotAPlainFileURI() {
        for bad in [
            "http://x/y", "untitled:Untitled-1", "/tmp/a", "tmp/a", "file:///tmp/a?x=1", "file:///tmp/a#f",
            "file://host/tmp/a", "file:///tmp/%zz", "file:///tmp/a%2fb", "file:///tmp/a%00",
        ] {
            XCTAssertThrowsError(try FileURI.path(bad), bad)
        }
        XCTAssertEqual(
            try FileURI.path("file:///tmp/%2e%2e/etc"), Array("/tmp/../etc".utf8),
            "decoded; the workspace refuses the dots")
    }
}
