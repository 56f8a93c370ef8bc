import CarrelJSON
import XCTest

final class JSONTests: XCTestCase {
    func testRoundTripKeepsValuesAndSortsKeys() throws {
        let text = #"{"b":[1,-2,3.5,true,false,null],"a":{"z":"x\"y\\\n\u00e9"},"c":""}"#
        let v = try JSONParser.parse(text)
        XCTAssertEqual(v["b"], [1, -2, 3.5, true, false, nil])
        XCTAssertEqual(v["a"]?["z"], .string("x\"y\\\né"))
        XCTAssertEqual(v.text(), #"{"a":{"z":"x\"y\\\né"},"b":[1,-2,3.5,true,false,null],"c":""}"#)
    }

    func testSurrogatePairsDecodeAndLoneSurrogatesBecomeReplacement() throws {
        XCTAssertEqual(try JSONParser.parse(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertEqual(try JSONParser.parse(#""\ud83d""#), .string("\u{FFFD}"))
    }

    func testControlCharactersAreEscapedOnWrite() {
        XCTAssertEqual(JSONValue.string("a\u{1}b\tc").text(), #""a\u0001b\tc""#)
    }

    func testSlashesAreNotEscaped() {
        XCTAssertEqual(JSONValue.string("file:///tmp/x").text(), #""file:///tmp/x""#)
    }

    func testRejectsMalformedInputWithOffset() {
        for bad in [
            "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "\"abc", "\"\u{1}\"", "[1] x", "{\"a\":1,}", "-",
            "\"\\x\"",
        ] {
            XCTAssertThrowsError(try JSONParser.parse(bad), "accepted \(bad.debugDescription)")
        }
    }

    func testNestingIsBoundedInsteadOfOverflowingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { error in
            XCTAssertTrue("\(error)".contains("nesting"))
        }
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        XCTAssertNoThrow(try JSONParser.parse(ok))
    }

    func testBigIntegersStayExactAndFloatsParse() throws {
        XCTAssertEqual(try JSONParser.parse("9007199254740993"), .int(9_007_199_254_740_993))
        XCTAssertEqual(try JSONParser.parse("1e3"), .double(1000))
        XCTAssertEqual(JSONValue.double(1000).intValue, 1000)
    }

    func testPrettyOutputIsIndentedAndStable() {
        let v: JSONValue = ["b": [1, 2], "a": [:], "c": []]
        XCTAssertEqual(v.text(pretty: true), "{\n  \"a\": {},\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": []\n}")
    }

    /// A member rendered on its own and spliced in is the same bytes as the
    /// key and value written in place: project.json keeps its Trash records rendered.
    func testMembersRenderedApartMatchMembersWrittenInPlace() {
        let records: [String: JSONValue] = [
            "b \"quoted\".md": ["from": "Draft/b.md", "deleted": 2, "tags": ["x", [:], []]],
            "a.md": [:],
            "été.md": ["from": "Ready/été.md", "nested": ["deep": ["deeper": true]]],
        ]
        let whole: JSONValue = ["created": 1, "trash": .object(records), "type": "novel"]
        var w = JSONWriter(pretty: true)
        w.beginObject()
        w.key("created"); w.int(1)
        w.key("trash")
        w.beginObject()
        for (name, value) in records.sorted(by: { $0.key < $1.key }) {
            var member = JSONWriter(prettyFragmentAtDepth: 2)
            member.key(name)
            member.value(value)
            w.member(member.bytes)
        }
        w.endObject()
        w.key("type"); w.string("novel")
        w.endObject()
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), whole.text(pretty: true))
    }

    func testWriterStreamsNestedObjects() {
        var w = JSONWriter()
        w.beginArray()
        w.beginObject(); w.key("k"); w.int(1); w.key("l"); w.beginArray(); w.string("x"); w.endArray(); w.endObject()
        w.null()
        w.endArray()
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), #"[{"k":1,"l":["x"]},null]"#)
    }
}
