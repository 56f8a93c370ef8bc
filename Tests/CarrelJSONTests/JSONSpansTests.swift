import CarrelJSON
import XCTest

/// A document written twice, the first time keeping only its first bytes:
/// the second writing, skipping the spans those bytes hold, must give
/// exactly the rest, wherever the cut falls.
final class JSONSpansTests: XCTestCase {
    /// A tree of nodes, each a span, written the way the server writes rows:
    /// fields, then children, then more fields.
    struct Row {
        let name: String
        var children: [Row] = []

        func write(to w: inout JSONWriter) {
            guard let span = w.beginSpan() else { return }
            defer { w.endSpan(span) }
            w.beginObject()
            w.key(literal: "children")
            w.beginArray()
            for child in children { child.write(to: &w) }
            w.endArray()
            w.key(literal: "name")
            w.string(name)
            w.key(literal: "size")
            w.int(children.count * 1_234)
            w.endObject()
        }
    }

    static let document: Row = {
        func rows(_ prefix: String, depth: Int) -> [Row] {
            guard depth > 0 else { return [] }
            return (0..<3).map { i in
                Row(name: "\(prefix)\(i) \"é\"", children: rows("\(prefix)\(i).", depth: depth - 1))
            }
        }
        return Row(name: "root", children: rows("r", depth: 3) + [Row(name: "empty")])
    }()

    func envelope(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("result")
        w.beginArray()
        Self.document.write(to: &w)
        Self.document.write(to: &w)
        w.endArray()
        w.endObject()
    }

    func testTheSecondWritingGivesExactlyWhatFollowsTheKeptBytes() throws {
        var whole = JSONWriter()
        envelope(&whole)
        let expected = whole.bytes
        XCTAssertNoThrow(try JSONParser.parse(expected))

        for cut in stride(from: 1, through: expected.count, by: 7) {
            var kept: [UInt8]?
            var first = JSONWriter(piece: 64, firstPiece: cut, capacity: 16) { if kept == nil { kept = $0 } }
            first.recordSpans()
            envelope(&first)
            first.finish()
            XCTAssertEqual(first.count, expected.count, "the first writing measures the whole document")
            let prefix = try XCTUnwrap(kept, "cut at \(cut)")
            XCTAssertEqual(prefix, Array(expected.prefix(prefix.count)))

            var rest: [UInt8] = []
            var second = JSONWriter(
                replaying: try XCTUnwrap(first.spanLog), after: prefix.count, piece: 50, capacity: 16
            ) { rest += $0 }
            envelope(&second)
            second.finish()
            let got = prefix + rest
            guard got != expected else { continue }
            let at = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? expected.count
            return XCTFail("cut at \(prefix.count): the writings part at byte \(at) of \(expected.count)")
        }
    }

    func testASpanTheKeptBytesHoldIsNotWrittenAgain() throws {
        var whole = JSONWriter()
        envelope(&whole)
        var kept: [UInt8]?
        // Three quarters in: past the first of the two copies of the document.
        var first = JSONWriter(piece: 64, firstPiece: whole.count * 3 / 4, capacity: 16) {
            if kept == nil { kept = $0 }
        }
        first.recordSpans()
        envelope(&first)
        var second = JSONWriter(replaying: first.spanLog!, after: kept!.count, piece: 64, capacity: 16) { _ in }
        second.beginObject()
        second.key("result")
        second.beginArray()
        XCTAssertNil(second.beginSpan(), "the first copy ends within the kept bytes")
        XCTAssertNotNil(second.beginSpan(), "the second does not")
    }
}
