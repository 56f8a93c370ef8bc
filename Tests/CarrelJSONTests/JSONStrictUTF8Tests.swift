import CarrelJSON
import XCTest

/// The wire refuses strings that are not well-formed UTF-8 instead of
/// repairing them: a repaired name ("Caf\u{FFFD}") would be created on disk.
final class JSONStrictUTF8Tests: XCTestCase {
    func strict(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.parse(bytes, refusingInvalidUTF8: true) }

    /// `"Caf<bytes>"` as a string value.
    func quoted(_ bytes: [UInt8]) -> [UInt8] { Array(#""Caf"#.utf8) + bytes + [0x22] }

    let illFormed: [(String, [UInt8])] = [
        ("a stray continuation byte", [0x80]),
        ("a continuation byte at the top", [0xBF]),
        ("a lead byte alone", [0xC3]),
        ("a lead byte before ASCII", [0xC3, 0x41]),
        ("C0, always overlong", [0xC0, 0xAF]),
        ("C1, always overlong", [0xC1, 0xBF]),
        ("an overlong three-byte form", [0xE0, 0x80, 0xAF]),
        ("an overlong four-byte form", [0xF0, 0x80, 0x80, 0xAF]),
        ("a truncated three-byte sequence", [0xE2, 0x82]),
        ("a truncated four-byte sequence", [0xF0, 0x9F, 0x98]),
        ("an encoded high surrogate", [0xED, 0xA0, 0x80]),
        ("an encoded low surrogate", [0xED, 0xBF, 0xBF]),
        ("an encoded surrogate pair", [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("F5", [0xF5, 0x80, 0x80, 0x80]),
        ("FE", [0xFE]),
        ("FF", [0xFF]),
        ("Latin-1 é", [0xE9]),
    ]

    func testIllFormedSequencesAreRefusedWhereverTheyAre() {
        for (what, bytes) in illFormed {
            XCTAssertThrowsError(try strict(quoted(bytes)), what) { error in
                XCTAssertEqual((error as? JSONParseError)?.offset, 4, "\(what): the offset of the first bad byte")
            }
            XCTAssertThrowsError(try strict(Array(#"{""#.utf8) + bytes + Array(#"":1}"#.utf8)), "\(what) in a key")
            let afterEscape = Array(#"["a\n"#.utf8) + bytes + Array(#"b"]"#.utf8)
            XCTAssertThrowsError(try strict(afterEscape), "\(what) after an escape")
            XCTAssertNoThrow(try JSONParser.parse(quoted(bytes)), "\(what): files on disk still read, repaired")
        }
    }

    func testWellFormedSequencesAtEveryBoundaryAreKept() throws {
        for scalar: UInt32 in [0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF] {
            let text = String(Character(Unicode.Scalar(scalar)!))
            XCTAssertEqual(try strict(quoted(Array(text.utf8))), .string("Caf" + text), String(scalar, radix: 16))
            XCTAssertEqual(try strict(Array(#""\n"#.utf8) + Array(text.utf8) + [0x22]), .string("\n" + text))
        }
    }

    func testLoneSurrogateEscapesAreRefusedPairsKept() throws {
        XCTAssertEqual(try strict(Array(#""\ud83d\ude00""#.utf8)), .string("😀"))
        for lone in [#""\ud83d""#, #""\ude00""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ude00\ud83d""#] {
            XCTAssertThrowsError(try strict(Array(lone.utf8)), lone)
        }
    }
}
