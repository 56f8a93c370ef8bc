import CarrelStore
import CarrelTestSupport
import Foundation
import XCTest

/// The undo journal's file: the bytes a journal is written as, and reading
/// it back after this process or another one wrote it, however recently.
final class JournalFileTests: XCTestCase {
    var state: Fixture!
    var library: Fixture!

    override func setUpWithError() throws {
        state = try Fixture()
        setenv("XDG_STATE_HOME", state.path, 1)
        library = try Fixture("P/")
    }

    override func tearDown() {
        unsetenv("XDG_STATE_HOME")
        state = nil
        library = nil
    }

    static let print = Fingerprint(device: 2049, inode: 7, isFolder: false, size: 12, modifiedMs: 1_763_815_900_000)

    static func renamed(_ n: Int) -> JournalEntry {
        JournalEntry(.renamed, path: "P/new \(n).md", origin: "P/old \(n).md", fingerprint: print)
    }

    /// What another program (or another Carrel) does: a temporary renamed over the journal.
    func replaceFromOutside(with text: String) throws {
        let path = String(decoding: try XCTUnwrap(Journal.path(for: library.bytes())), as: UTF8.self)
        try text.write(toFile: path + ".theirs", atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(path + ".theirs", path), 0)
    }

    func testAJournalIsWrittenAsItsJSONWithSortedKeys() {
        let setting = JournalEntry(setting: .sorted, path: "", before: ["sort": "name"], after: ["sort": "modified"])
        let journal = Journal(undo: [Self.renamed(1), setting], redo: [Self.renamed(2)])
        let expected =
            #"{"redo":[{"device":"2049","folder":false,"inode":"7","modified":"1763815900000","op":"renamed","#
            + #""origin":"P/old 2.md","path":"P/new 2.md","size":"12"}],"#
            + #""undo":[{"device":"2049","folder":false,"inode":"7","modified":"1763815900000","op":"renamed","#
            + #""origin":"P/old 1.md","path":"P/new 1.md","size":"12"},"#
            + #"{"after":{"sort":"modified"},"before":{"sort":"name"},"op":"sorted","path":""}],"version":1}"# + "\n"
        XCTAssertEqual(String(decoding: journal.encoded(), as: UTF8.self), expected)
        XCTAssertEqual(
            String(decoding: Journal().encoded(), as: UTF8.self), #"{"redo":[],"undo":[],"version":1}"# + "\n")
        XCTAssertEqual(try Journal.decode(journal.encoded()), journal)
    }

    func testAJournalPastItsSizeKeepsTheNewestOfTheLongerList() throws {
        var journal = Journal(undo: (1...150).map(Self.renamed), redo: (151...200).map(Self.renamed))
        let long = String(repeating: "n", count: 3000)
        journal.undo = journal.undo.map {
            var e = $0
            e.origin = long
            return e
        }
        let bytes = journal.encoded()
        XCTAssertLessThanOrEqual(bytes.count, Journal.maxBytes)
        let back = try Journal.decode(bytes)
        XCTAssertEqual(back.redo, journal.redo, "the shorter list is kept whole")
        XCTAssertEqual(back.undo, Array(journal.undo.suffix(back.undo.count)), "the oldest steps went first")
        XCTAssertLessThan(back.undo.count, 150)
        XCTAssertTrue(Journal.save(journal, for: library.bytes()))
        XCTAssertEqual(Journal.load(for: library.bytes()).0, back, "what is read back is what was written")
    }

    func testAJournalReplacedByAnotherProcessIsReadAgain() throws {
        XCTAssertTrue(Journal.save(Journal(undo: [Self.renamed(1)]), for: library.bytes()))
        XCTAssertEqual(Journal.load(for: library.bytes()).0.undo, [Self.renamed(1)])
        // Theirs the same size as ours, written within the same moment.
        let theirs = String(decoding: Journal(undo: [Self.renamed(2)]).encoded(), as: UTF8.self)
        try replaceFromOutside(with: theirs)
        XCTAssertEqual(Journal.load(for: library.bytes()).0.undo, [Self.renamed(2)])
    }

    func testAJournalRemovedReadsAsEmptyAndOneUnusableIsSetAside() throws {
        XCTAssertTrue(Journal.save(Journal(undo: [Self.renamed(1)]), for: library.bytes()))
        let path = String(decoding: try XCTUnwrap(Journal.path(for: library.bytes())), as: UTF8.self)
        XCTAssertEqual(unlink(path), 0)
        XCTAssertEqual(Journal.load(for: library.bytes()).0, Journal())
        XCTAssertTrue(Journal.save(Journal(undo: [Self.renamed(1)]), for: library.bytes()))
        try replaceFromOutside(with: "not a journal")
        let (journal, aside) = Journal.load(for: library.bytes())
        XCTAssertEqual(journal, Journal())
        XCTAssertEqual(aside?.why, .unreadable("not JSON"))
    }
}
