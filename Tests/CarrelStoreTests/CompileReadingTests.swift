import CarrelModel
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

@testable import CarrelStore

/// What compiling reads and writes beside pandoc: every piece read whole in
/// one buffer, whatever its size against the old 64 KiB chunks, within its
/// limit; the manuscript's reference document built once per header.
final class CompileReadingTests: XCTestCase {
    func testPiecesOfEverySizeAreReadWhole() throws {
        let fx = try Fixture("P/")
        let dir = try Directory.open(fx.bytes("P"))
        for size in [0, 1, 4095, 4096, 65_535, 65_536, 65_537, 200_001] {
            let bytes = (0..<size).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
            let name = Array("piece-\(size).md".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: fx.path + "/P/piece-\(size).md"))
            XCTAssertEqual(try dir.readPlainFile(name, limit: 1 << 20), bytes, "\(size) bytes")
        }
    }

    func testAPieceOverTheLimitIsRefusedAndOneAtItIsRead() throws {
        let fx = try Fixture("P/")
        let dir = try Directory.open(fx.bytes("P"))
        try Data(repeating: 0x61, count: 1000).write(to: URL(fileURLWithPath: fx.path + "/P/big.md"))
        XCTAssertEqual(try dir.readPlainFile(Array("big.md".utf8), limit: 1000).count, 1000)
        XCTAssertThrowsError(try dir.readPlainFile(Array("big.md".utf8), limit: 999)) { error in
            guard case .tooLarge(let limit)? = (error as? SysError)?.refusal else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(limit, 999)
        }
    }

    func testTheReferenceDocumentIsBuiltOncePerHeaderAndFormat() {
        let header = "Lovelace / Reference Cache \(getpid()) / "
        let before = ReferenceDocument.built.builds
        let docx = ReferenceDocument.cachedManuscript(header: header)
        XCTAssertEqual(docx, ReferenceDocument.manuscript(header: header))
        XCTAssertEqual(ReferenceDocument.cachedManuscript(header: header), docx)
        XCTAssertEqual(ReferenceDocument.built.builds, before + 1, "the second compile reuses the first's")
        let odt = ReferenceDocument.cachedManuscriptODT(header: header)
        XCTAssertEqual(odt, ReferenceDocument.manuscriptODT(header: header))
        XCTAssertNotEqual(ReferenceDocument.cachedManuscript(header: header + "2 / "), docx)
        XCTAssertEqual(ReferenceDocument.built.builds, before + 3)
    }
}
