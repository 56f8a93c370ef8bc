import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// `carrel/tree` in pages, through the real `carrel lsp` over pipes: a
/// client takes a big folder's listing in pieces it can parse without a
/// stall, and knows from `childCount` when it holds them all.
final class PagedTreeOverStdioTests: XCTestCase {
    let letters = (1...7).map { "Letter \($0).md" }

    func library() throws -> Fixture {
        try Fixture(letters.map { "Letters/\($0) = x" }.joined(separator: "\n"))
    }

    func names(_ node: JSONValue?) -> [String] {
        (node?["children"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    func testPagesAddUpToTheWholeListingAndSayHowManyInAll() throws {
        let fx = try library()
        let c = try ProcessClient()
        _ = try c.initialize([fx.uri()])
        let uri = JSONValue.string(fx.uri("Letters"))
        let whole = try c.result("carrel/tree", ["uri": uri, "depth": 1])[0]
        XCTAssertEqual(names(whole), letters)
        XCTAssertNil(whole?["childCount"], "a listing asked whole carries no count of its own")

        var gathered: [String] = []
        for from in stride(from: 0, to: 9, by: 3) {
            let page = try c.result("carrel/tree", ["uri": uri, "depth": 1, "from": .int(from), "count": 3])[0]
            XCTAssertEqual(page?["childCount"], 7, "page from \(from)")
            XCTAssertEqual(page?["name"], "Letters")
            gathered += names(page)
        }
        XCTAssertEqual(gathered, letters, "the pages, in turn, are the listing")
        let last = try c.result("carrel/tree", ["uri": uri, "depth": 1, "from": 6, "count": 3])[0]
        XCTAssertEqual(names(last), ["Letter 7.md"], "the last page holds what is left")
        XCTAssertEqual(
            names(try c.result("carrel/tree", ["uri": uri, "depth": 1, "from": 4])[0]), Array(letters[4...]),
            "without count, the rest")
        XCTAssertEqual(
            names(try c.result("carrel/tree", ["uri": uri, "depth": 1, "count": 2])[0]), Array(letters[..<2]),
            "without from, from the first")

        let pastTheEnd: [JSONValue] = [
            ["uri": uri, "depth": 1, "from": 7, "count": 3],
            ["uri": uri, "depth": 1, "from": .int(Int.max), "count": .int(Int.max)],
            ["uri": uri, "depth": 1, "from": 3, "count": 0],
        ]
        for params in pastTheEnd {
            let page = try c.result("carrel/tree", params)[0]
            XCTAssertEqual(page?["children"], [], params.text())
            XCTAssertEqual(page?["childCount"], 7, params.text())
        }
        let huge = try c.result("carrel/tree", ["uri": uri, "depth": 1, "from": 1, "count": .int(Int.max)])[0]
        XCTAssertEqual(names(huge), Array(letters[1...]), "a huge count is every child left, not an overflow")
        c.closeInput()
        _ = c.waitForExit()
    }

    func testBadPageParamsAreRefusedNamingTheField() throws {
        let fx = try library()
        let c = try ProcessClient()
        _ = try c.initialize([fx.uri()])
        let uri = JSONValue.string(fx.uri("Letters"))
        let bad: [(JSONValue, String, String)] = [
            (["uri": uri, "depth": 1, "from": -1], "from", "a non-negative integer"),
            (["uri": uri, "depth": 1, "count": -3], "count", "a non-negative integer"),
            (["uri": uri, "depth": 1, "from": 1.5], "from", "a non-negative integer"),
            (["uri": uri, "depth": 1, "from": "2"], "from", "a non-negative integer"),
            (["uri": uri, "depth": 1, "count": .double(1e300)], "count", "a non-negative integer"),
            (["uri": uri, "depth": 1, "count": [3]], "count", "a non-negative integer"),
            (["uri": uri, "depth": 0, "from": 0], "from", "absent unless"),
            (["uri": uri, "depth": 2, "count": 5], "count", "absent unless"),
            (["uri": uri, "from": 0, "count": 5], "from", "absent unless"),
            (["depth": 1, "from": 0], "from", "absent unless"),
        ]
        for (params, field, words) in bad {
            let r = try c.request("carrel/tree", params)
            XCTAssertEqual(r["error"]?["code"], -32602, params.text())
            XCTAssertEqual(r["error"]?["data"]?["field"], .string(field), params.text())
            let message = r["error"]?["message"]?.stringValue ?? ""
            XCTAssertTrue(message.contains("“\(field)” must be \(words)"), message)
        }
        XCTAssertNotNil(try c.request("carrel/tree", ["depth": 0])["result"], "still answering")
        c.closeInput()
        _ = c.waitForExit()
    }
}
