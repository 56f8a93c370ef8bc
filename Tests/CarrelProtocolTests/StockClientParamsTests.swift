import CarrelJSON
import CarrelProtocol
import XCTest

/// Params as stock clients send them: YouCompleteMe's string arguments, and
/// the confirmation timeout for clients that never answer a question.
final class StockClientParamsTests: XCTestCase {
    func testAStringHoldingAnObjectIsTheArgument() throws {
        let p = try ExecuteCommandRequest.Params(json: [
            "command": "carrel.rename",
            "arguments": [#"{"uri":"u","newName":"n"}"#],
        ])
        XCTAssertEqual(try CarrelCommand(.rename, p.argument), .rename(uri: "u", newName: "n"))
        let padded = try ExecuteCommandRequest.Params(json: ["command": "carrel.emptyTrash", "arguments": [" {} "]])
        XCTAssertEqual(padded.argument, .object([:]))
    }

    func testAnyOtherStringIsStillInvalidParams() {
        for text in ["", "nope", "[1]", "5", #""{}""#, "null", #"{"a":1"#, "{\"a\":\"\u{FFFD}\"} x"] {
            let params: JSONValue = ["command": "x", "arguments": [.string(text)]]
            XCTAssertThrowsError(try ExecuteCommandRequest.Params(json: params), text) {
                let expected = ParamError("arguments[0]", .wrongType(expected: "an object", found: "string"))
                XCTAssertEqual($0 as? ParamError, expected, text)
            }
        }
    }

    func testConfirmationTimeoutIsAPositiveNumberOfSeconds() throws {
        XCTAssertEqual(try InitializeRequest.Params(json: [:]).confirmationTimeout, 120)
        for (given, seconds) in [(JSONValue.int(3), 3.0), (.double(0.25), 0.25), (.null, 120)] {
            let p = try InitializeRequest.Params(json: ["initializationOptions": ["confirmationTimeout": given]])
            XCTAssertEqual(p.confirmationTimeout, seconds)
        }
        for bad: JSONValue in [0, -1, "60", true, [1]] {
            let params: JSONValue = ["initializationOptions": ["confirmationTimeout": bad]]
            XCTAssertThrowsError(try InitializeRequest.Params(json: params)) {
                XCTAssertEqual(($0 as? ParamError)?.field, "initializationOptions.confirmationTimeout")
            }
        }
    }

    func testABodyWithInvalidUTF8IsAParseError() {
        let start =
            #"{"jsonrpc":"2.0","id":1,"method":"workspace/executeCommand","#
            + #""params":{"command":"carrel.newFolder","arguments":[{"name":"Caf"#
        let body =
            Array(start.utf8)
            + [0xE9] + Array(#"","parentUri":"file:///l"}]}}"#.utf8)
        guard case .failure(let e) = Envelope.decode(body) else { return XCTFail("accepted") }
        XCTAssertEqual(e.error.code, -32700)
        XCTAssertNil(e.id)
        XCTAssertTrue(e.error.message.contains("UTF-8"), e.error.message)
    }
}
