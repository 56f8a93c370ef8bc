import CarrelModel
import XCTest

/// Name, date and natural order; accents and case do not move a name away
/// from its letter. Also the folded key that order and search share.
final class OrderingTests: XCTestCase {
    func sorted(_ names: [String], _ order: SortSetting = .byName) -> [String] {
        let dir = Entry(name: EntryName("/d"), kind: .directory)
        for (i, n) in names.enumerated() {
            let isDir = n.hasSuffix("/")
            dir.add(
                Entry(
                    name: EntryName(isDir ? String(n.dropLast()) : n), kind: isDir ? .directory : .file,
                    created: Int64(i), modified: Int64(100 - i)))
        }
        return dir.sortedChildren(order).map { $0.isFolderLike ? $0.name.string + "/" : $0.name.string }
    }

    func testNaturalCaseInsensitiveFoldersFirst() {
        XCTAssertEqual(
            sorted(["Chapter 10", "chapter 2", "b/", "Chapter 1", "A/"]),
            ["A/", "b/", "Chapter 1", "chapter 2", "Chapter 10"])
        XCTAssertEqual(sorted(["file02", "file1", "file010"]), ["file1", "file02", "file010"])
    }

    /// ASCII names fold byte by byte; that must be what `Ordering.folded` gives.
    func testFoldedNamesAreOrderingsFolding() {
        let ascii = String(decoding: (UInt8(0x20)...UInt8(0x7E)).map { $0 }, as: UTF8.self)
        XCTAssertEqual(Entry(name: EntryName(ascii), kind: .file).folded, Array(ascii.lowercased().utf8))
        for name in [ascii, "Chapter 10.MD", "Été", "ÀB", "İstanbul", "ǅ", "日本"] {
            XCTAssertEqual(Entry(name: EntryName(name), kind: .file).folded, Ordering.folded(name), name)
        }
        // A Unicode name's folding is kept; a rename must not leave the old one.
        let e = Entry(name: EntryName("Été"), kind: .file)
        XCTAssertEqual(e.folded, Array("ete".utf8))
        e.rename(to: EntryName("Ôde"))
        XCTAssertEqual(e.folded, Array("ode".utf8))
    }

    func testByTimesAndDescending() {
        XCTAssertEqual(sorted(["a", "b", "c"], SortSetting(by: .created, descending: true)), ["c", "b", "a"])
        XCTAssertEqual(sorted(["a", "b", "c"], SortSetting(by: .modified)), ["c", "b", "a"])
        XCTAssertEqual(sorted(["a", "b", "c"], SortSetting(by: .name, descending: true)), ["c", "b", "a"])
    }

    func testFuzzyMatchIsASubsequenceAndPrefersPrefixes() {
        let q = Array("drft".utf8)
        XCTAssertNotNil(FuzzyMatch.score(q, Array("draft".utf8)))
        XCTAssertNil(FuzzyMatch.score(q, Array("dart".utf8)))
        let exact = FuzzyMatch.score(Array("spring".utf8), Array("spring".utf8))!
        let prefix = FuzzyMatch.score(Array("spring".utf8), Array("spring song.md".utf8))!
        let inner = FuzzyMatch.score(Array("spring".utf8), Array("a sprained ring".utf8))!
        XCTAssertGreaterThan(exact, prefix)
        XCTAssertGreaterThan(prefix, inner)
    }

    func testFileTotalsFollowEveryMutation() {
        let root = Entry(name: EntryName("/r"), kind: .directory)
        let a = Entry(name: EntryName("a"), kind: .directory)
        let b = Entry(name: EntryName("b"), kind: .directory)
        root.add(a)
        root.add(b)
        a.add(Entry(name: EntryName("x"), kind: .file))
        a.add(Entry(name: EntryName("y"), kind: .file))
        XCTAssertEqual(root.fileTotal, 2)
        a.move(to: b, as: EntryName("a"))
        XCTAssertEqual(b.fileTotal, 2)
        XCTAssertEqual(root.fileTotal, 2)
        b.remove(a)
        XCTAssertEqual(root.fileTotal, 0)
    }

    func testPathsJoinNamesWithOneSlashAndKeepRawBytes() {
        let root = Entry(name: EntryName("/tmp/Library"), kind: .directory)
        let project = Entry(name: EntryName("Poetry Project"), kind: .directory)
        let odd = Entry(name: EntryName(bytes: [0x61, 0xFF, 0x62]), kind: .directory)
        let leaf = Entry(name: EntryName("Caf\u{E9} \u{65E5}\u{8A18}.md"), kind: .file)
        root.add(project)
        project.add(odd)
        odd.add(leaf)
        XCTAssertEqual(root.path, Array("/tmp/Library".utf8))
        XCTAssertEqual(
            leaf.path,
            Array("/tmp/Library/Poetry Project/a".utf8) + [0xFF] + Array("b/Caf\u{E9} \u{65E5}\u{8A18}.md".utf8))
        let filesystemRoot = Entry(name: EntryName("/"), kind: .directory)
        let top = Entry(name: EntryName("x"), kind: .directory)
        filesystemRoot.add(top)
        XCTAssertEqual(top.path, Array("/x".utf8))
        filesystemRoot.remove(top)
        XCTAssertEqual(top.path, Array("x".utf8), "a detached entry's path is its name")
    }

    func testNamesCompareByBytesSoNFCAndNFDAreDifferentEntries() {
        let nfc = EntryName("Caf\u{E9}")
        let nfd = EntryName("Cafe\u{301}")
        XCTAssertEqual(nfc.string, nfd.string)  // Swift says equal…
        XCTAssertNotEqual(nfc, nfd)  // …the disk does not.
        XCTAssertEqual(Set([nfc, nfd]).count, 2)
        let invalid = EntryName(bytes: [0x61, 0xFF, 0x62])
        XCTAssertFalse(invalid.isValidUTF8)
        XCTAssertEqual(invalid.bytes, [0x61, 0xFF, 0x62])
        XCTAssertEqual(invalid.string, "a\u{FFFD}b")
    }

    /// The clash index is kept up to date in place, not rebuilt per change;
    /// these are the cases where keeping it could go wrong.
    func testClashIndexFollowsAddsRemovesRenamesAndSharedKeys() {
        let dir = Entry(name: EntryName("/r"), kind: .directory)
        let poem = Entry(name: EntryName("Poem.md"), kind: .file)
        dir.add(poem)
        XCTAssertTrue(dir.clash(with: "POEM.md") === poem)  // builds the index
        let cafe = Entry(name: EntryName("Caf\u{E9}"), kind: .directory)
        dir.add(cafe)
        XCTAssertTrue(dir.clash(with: "cafe\u{301}") === cafe, "an add after the build is seen")
        poem.rename(to: EntryName("Ode.md"))
        XCTAssertNil(dir.clash(with: "poem.md"), "the old name is free after a rename")
        XCTAssertTrue(dir.clash(with: "ode.MD") === poem)
        let other = Entry(name: EntryName("/other"), kind: .directory)
        cafe.move(to: other, as: EntryName("Caf\u{E9}"))
        XCTAssertNil(dir.clash(with: "Caf\u{E9}"), "a moved-out child no longer clashes")
        XCTAssertTrue(other.clash(with: "CAF\u{C9}") === cafe)

        // Two children sharing a key (made outside Carrel): removing either
        // leaves the other still clashing.
        let lower = Entry(name: EntryName("notes"), kind: .directory)
        let upper = Entry(name: EntryName("NOTES"), kind: .directory)
        dir.add(lower)
        dir.add(upper)
        guard let first = dir.clash(with: "Notes") else { return XCTFail("no clash for Notes") }
        dir.remove(first)
        let second = first === lower ? upper : lower
        XCTAssertTrue(dir.clash(with: "Notes") === second)
        dir.remove(second)
        XCTAssertNil(dir.clash(with: "Notes"))
    }

    func testAccentedNamesSortWithTheirLetter() {
        XCTAssertEqual(
            sorted(["Sonnet 1", "Été", "Café crème", "zèbre", "Ode", "Élégie", "eau"]),
            ["Café crème", "eau", "Élégie", "Été", "Ode", "Sonnet 1", "zèbre"])
    }

    /// Precomposed and decomposed spellings, as ext4 can hold both, sort alike.
    func testDecomposedAccentsSortLikePrecomposed() {
        XCTAssertEqual(sorted(["Zoe", "E\u{301}te\u{301}", "Ame"]), ["Ame", "E\u{301}te\u{301}", "Zoe"])
    }

    func testNumbersCountAsNumbersWhateverTheAccents() {
        XCTAssertEqual(sorted(["Été 10", "Ete 2", "Été 1"]), ["Été 1", "Ete 2", "Été 10"])
    }

    /// A tie on letters is broken the same way every time: unaccented first.
    func testNamesThatDifferOnlyInAccentsHaveAFixedOrder() {
        XCTAssertEqual(sorted(["Été", "Ete"]), ["Ete", "Été"])
        XCTAssertEqual(sorted(["Ete", "Été"]), ["Ete", "Été"])
    }

    func testFoldingIgnoresCaseAccentsAndWidth() {
        XCTAssertEqual(Ordering.folded("Été"), Ordering.folded("ete"))
        XCTAssertEqual(Ordering.folded("Ａｂｃ"), Array("abc".utf8))
    }
}
