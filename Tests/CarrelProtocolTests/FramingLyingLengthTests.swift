import CarrelProtocol
import XCTest

/// A Content-Length larger than the body that follows, however large: the
/// framer resumes at the next header, so one lie costs that one message.
final class FramingLyingLengthTests: XCTestCase {
    func body(_ id: Int) -> [UInt8] { Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"carrel/tree"}"#.utf8) }

    /// Every frame `stream` yields, fed in chunks of `chunk` bytes.
    func frames(_ stream: [UInt8], chunk: Int = 1 << 16) -> [MessageFramer.Frame] {
        var f = MessageFramer()
        var out: [MessageFramer.Frame] = []
        var i = 0
        while i < stream.count {
            f.feed(stream[i..<min(stream.count, i + chunk)])
            while let frame = f.next() { out.append(frame) }
            i += chunk
        }
        return out
    }

    func testLiesAroundTheLimitCostOnlyTheLyingMessage() {
        let limit = MessageFramer.maxBody
        for declared in [limit - 1, limit, limit + 1, 999_999_999_999] {
            let lie = Array("Content-Length: \(declared)\r\n\r\n{}".utf8)
            let stream = lie + MessageFramer.frame(body(2)) + MessageFramer.frame(body(3))
            let got = frames(stream)
            XCTAssertEqual(
                Array(got.suffix(2)), [.body(body(2)), .body(body(3))],
                "declared \(declared): the next two are read")
            XCTAssertEqual(got.count, 3, "declared \(declared): one frame lost, nothing invented")
        }
    }

    func testAShortBodyIsCutAtTheNextHeaderWhateverTheChunking() {
        let stream =
            Array("Content-Length: 500\r\n\r\n{\"id\":1".utf8) + MessageFramer.frame(body(2))
            + Array("content-length:\t7 \n\n{\"a\":1}".utf8)
        for chunk in [1, 2, 3, 7, 16, stream.count] {
            let expected: [MessageFramer.Frame] = [
                .cutShort(declared: 500, received: 7), .body(body(2)), .body(Array(#"{"a":1}"#.utf8)),
            ]
            XCTAssertEqual(frames(stream, chunk: chunk), expected, "chunks of \(chunk)")
        }
    }

    func testWellFormedBodiesThatMentionTheHeaderAreNotCut() {
        let mentions = [
            #"{"note":"Content-Length: 12"}"#, #"{"Content-Length: 12":"\r\n"}"#,
            #"{"a":"content-length:1\\n"}"#,
        ]
        for text in mentions {
            let b = Array(text.utf8)
            let stream = MessageFramer.frame(b) + MessageFramer.frame(body(2))
            XCTAssertEqual(frames(stream, chunk: 1), [.body(b), .body(body(2))], text)
        }
    }

    func testAnHonestOversizedBodyIsSkippedWhole() {
        let size = MessageFramer.maxBody + 10
        var junk = [UInt8](repeating: 0x20, count: size)
        let mention = Array(#""Content-Length: 5 is text""#.utf8)  // no line break: not a header
        junk.replaceSubrange(1000..<(1000 + mention.count), with: mention)
        let got = frames(Array("Content-Length: \(size)\r\n\r\n".utf8) + junk + MessageFramer.frame(body(2)))
        XCTAssertEqual(got, [.tooLarge(size), .body(body(2))])
    }
}
