import CarrelProtocol
import XCTest

/// A Content-Length larger than the body sent swallows the start of the next
/// frame. The framer then resumes at the next "Content-Length:" it finds, so
/// the session loses one message instead of every later one.
final class FramingResyncTests: XCTestCase {
    func body(_ id: Int) -> String { #"{"jsonrpc":"2.0","id":\#(id),"method":"carrel/tree"}"# }
    func frame(_ id: Int) -> String { "Content-Length: \(body(id).utf8.count)\r\n\r\n" + body(id) }

    func testAShortBodyCostsOneMessageNotTheRest() {
        for short in 1...30 {
            var f = MessageFramer()
            f.feed(Array(("Content-Length: \(2 + short)\r\n\r\n{}" + (2...6).map(frame).joined()).utf8))
            var bodies: [String] = []
            while let x = f.next() { if case .body(let b) = x { bodies.append(String(decoding: b, as: UTF8.self)) } }
            XCTAssertEqual(Array(bodies.suffix(4)), (3...6).map(body), "\(short) bytes short: frames 3 to 6 are read")
        }
    }

    func testOnlyAFollowingHeaderIsAResyncPoint() {
        var f = MessageFramer()
        f.feed(Array("Content-Type: x\r\n\r\n".utf8))
        XCTAssertEqual(f.next(), .malformedHeader("no Content-Length header"))
        f.feed(Array("xcontent-LENGTH: 2\r\n\r\n{}".utf8))
        XCTAssertEqual(f.next(), .malformedHeader("no Content-Length header"), "a header block that is only garbage")
        XCTAssertEqual(f.next(), .body(Array("{}".utf8)), "resumed at the Content-Length inside it, whatever its case")
    }
}
