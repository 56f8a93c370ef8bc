import CarrelStore
import XCTest

/// The links a rename or move rewrote, kept with its journal step: read
/// back exactly, and a step whose links are not exactly that shape makes
/// the journal unusable rather than undo anything from it.
final class JournalLinksTests: XCTestCase {
    func step(_ links: String) -> [UInt8] {
        Array(
            """
            {"version":1,"redo":[],"undo":[{"op":"renamed","path":"P/Ada Lovelace.md","origin":"P/Ada.md",
            "device":"1","inode":"2","folder":false,"size":"3","modified":"4","links":\(links)}]}
            """.utf8)
    }

    func testLinksAreReadBackAndRevertedWithTheirPlacesShifted() throws {
        let file = JournalLinkFile(
            path: "P/One.md",
            edits: [
                .init(at: 30, now: "Ada%20Lovelace.md", back: "Ada.md"),
                .init(at: 5, now: "[[Ada Lovelace]]", back: "[[Ada]]"),
            ])
        XCTAssertEqual(file.edits.map(\.at), [5, 30], "kept in order")
        var entry = JournalEntry(
            .renamed, path: "P/Ada Lovelace.md", origin: "P/Ada.md",
            fingerprint: Fingerprint(device: 1, inode: 2, isFolder: false, size: 3, modifiedMs: 4))
        entry.links = [file]
        let journal = Journal(undo: [entry])
        XCTAssertEqual(try Journal.decode(journal.encoded()), journal)
        // Undone, the shorter wikilink moves the Markdown link 9 bytes back.
        let back = file.reverted(to: "P/One.md")
        XCTAssertEqual(
            back.edits,
            [
                .init(at: 5, now: "[[Ada]]", back: "[[Ada Lovelace]]"),
                .init(at: 21, now: "Ada.md", back: "Ada%20Lovelace.md"),
            ])
        XCTAssertEqual(back.reverted(to: "P/One.md"), file)
    }

    func testForgedLinksAreRefused() {
        let forged = [
            #"{}"#, #"[{"path":"P/One.md","edits":[]}]"#,
            #"[{"path":"P/One.md","edits":[{"at":5,"now":"a","back":"b"}]}]"#,  // a number, not a string
            #"[{"path":"P/One.md","edits":[{"at":"-1","now":"a","back":"b"}]}]"#,
            #"[{"path":"P/One.md","edits":[{"at":"99999999999999999999","now":"a","back":"b"}]}]"#,
            #"[{"path":"P/One.md","edits":[{"at":"5","now":"abc","back":"b"},{"at":"6","now":"a","back":"b"}]}]"#,
            #"[{"path":1,"edits":[{"at":"5","now":"a","back":"b"}]}]"#,
            #"[{"path":"P/One.md","edits":[{"at":"5","now":"a","back":"b\nsecret"}]}]"#,  // more than a link
            #"[{"path":"P/One.md","edits":[{"at":"5","now":"a","back":"\#(String(repeating: "x", count: 5000))"}]}]"#,
        ]
        for links in forged {
            XCTAssertThrowsError(try Journal.decode(step(links)), links)
        }
        XCTAssertNoThrow(try Journal.decode(step(#"[{"path":"P/One.md","edits":[{"at":"5","now":"a","back":"b"}]}]"#)))
    }
}
