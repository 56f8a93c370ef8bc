import CarrelTestSupport
import Foundation
import Glibc
import XCTest

@testable import CarrelStore

/// The spare is rewritten from its first changed byte, so its fsync writes
/// only the blocks that changed. Whatever it held before, it must end up
/// holding exactly the new bytes.
final class SpareTests: XCTestCase {
    private let spare = ".carrel/.project.json.previous"

    func testTheSpareEndsUpHoldingExactlyTheNewBytes() throws {
        let long = String(repeating: "0123456789", count: 900)
        let cases: [(before: String?, after: String)] = [
            (nil, "fresh"),
            ("", "was empty"),
            ("abcdef", "abcXef"),
            ("abcdef", "abcdefghij"),
            ("abcdefghij", "abc"),
            ("same", "same"),
            ("xyz", "abc"),
            (long, long + "tail"),
            (long + "tail", long),
            (long, String(long.prefix(4_500)) + "!" + String(long.dropFirst(4_501))),
        ]
        for (before, after) in cases {
            let fx = try Fixture(#".carrel/project.json = {"type":"poetry"}"#)
            if let before { try before.write(toFile: fx.path + "/" + spare, atomically: false, encoding: .utf8) }
            let carrel = try Directory.open(fx.bytes(".carrel"))
            XCTAssertTrue(
                try ProjectFile.writeSpare(Array(after.utf8), in: carrel),
                "\(before.map { String($0.prefix(12)) } ?? "none")")
            XCTAssertEqual(
                fx.read(spare), after, "\(before.map { String($0.prefix(12)) } ?? "none") → \(after.prefix(12))")
        }
    }

    /// The bytes written: from the first difference on, measured by the
    /// kernel's count of this process's writes.
    func testOnlyTheChangedTailIsWritten() throws {
        let old = String(repeating: "0123456789", count: 2_000)
        let fx = try Fixture(#".carrel/project.json = {"type":"poetry"}"#)
        try old.write(toFile: fx.path + "/" + spare, atomically: false, encoding: .utf8)
        let carrel = try Directory.open(fx.bytes(".carrel"))
        let new = Array(old.utf8.prefix(19_000)) + Array("changed".utf8) + Array(old.utf8.dropFirst(19_000))
        let before = try bytesWritten()
        XCTAssertTrue(try ProjectFile.writeSpare(new, in: carrel))
        let written = try bytesWritten() - before
        XCTAssertEqual(fx.read(spare), String(decoding: new, as: UTF8.self))
        XCTAssertGreaterThanOrEqual(written, 1_007)
        XCTAssertLessThan(written, 2_000, "19,000 unchanged bytes were written again")
    }

    /// A version staged but never swapped in is recognised by a spare newer
    /// than project.json, so even bytes that are all unchanged move its mtime.
    func testAnUnchangedSpareStillGetsANewModificationTime() throws {
        let fx = try Fixture(#".carrel/project.json = {"type":"poetry"}"#)
        try "same bytes".write(toFile: fx.path + "/" + spare, atomically: false, encoding: .utf8)
        let hourAgo = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: fx.path + "/" + spare)
        XCTAssertTrue(try ProjectFile.writeSpare(Array("same bytes".utf8), in: Directory.open(fx.bytes(".carrel"))))
        let modified = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: fx.path + "/" + spare)[.modificationDate] as? Date)
        XCTAssertGreaterThan(modified, hourAgo.addingTimeInterval(1_800))
        XCTAssertEqual(fx.read(spare), "same bytes")
    }

    private func bytesWritten() throws -> Int {
        let io = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        let line = try XCTUnwrap(io.split(separator: "\n").first { $0.hasPrefix("wchar:") })
        return try XCTUnwrap(Int(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)))
    }
}
