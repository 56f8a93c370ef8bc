import CarrelModel
import Foundation
import XCTest

final class NameRulesTests: XCTestCase {
    func reason(_ name: String) -> Message? {
        do { _ = try NameRules.validate(name); return nil } catch { return error.message }
    }

    func testEachRuleSaysWhichRuleBroke() {
        XCTAssertEqual(reason(""), .nameEmpty)
        XCTAssertEqual(reason("   \t "), .nameEmpty)
        XCTAssertEqual(reason("a/b"), .nameHasSlash)
        XCTAssertEqual(reason("a\u{0}b"), .nameHasNul)
        XCTAssertEqual(reason("a\nb"), .nameHasControl)
        XCTAssertEqual(reason("a\u{7F}b"), .nameHasControl)
        XCTAssertEqual(reason("."), .nameIsDots)
        XCTAssertEqual(reason(".."), .nameIsDots)
        XCTAssertEqual(reason(".carrel"), .nameReserved)
        XCTAssertEqual(reason(".hidden"), .nameHidden)
        XCTAssertEqual(reason(String(repeating: "é", count: 128)), .nameTooLong(bytes: 256))
    }

    func testValidNamesAreTrimmedAndKept() throws {
        XCTAssertEqual(try NameRules.validate("  Chapter 1 "), "Chapter 1")
        XCTAssertEqual(try NameRules.validate(String(repeating: "a", count: 255)).utf8.count, 255)
        XCTAssertEqual(try NameRules.validate("Rêve \u{202E}txt"), "Rêve \u{202E}txt")
    }

    func testUniquenessIgnoresCaseAndUnicodeSpelling() {
        XCTAssertEqual(NameRules.key("Caf\u{E9}"), NameRules.key("cafe\u{301}"))
        XCTAssertEqual(NameRules.key("DRAFT"), NameRules.key("draft"))
        XCTAssertNotEqual(NameRules.key("draft"), NameRules.key("drafts"))
    }

    /// ASCII names take a shortcut around Foundation's folding; it must
    /// give Foundation's answer for every ASCII character.
    func testASCIIKeysAreFoundationsFolding() {
        func foundation(_ s: String) -> String { s.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil) }
        for byte in UInt8(1)...UInt8(0x7F) {
            let name = "Ab" + String(decoding: [byte], as: UTF8.self) + "Z9.md"
            XCTAssertEqual(NameRules.key(name), foundation(name), "byte \(byte)")
        }
        for name in ["", "CHAPTER 1.MD", "already lower", "Été", "Straße", "ǅ", "e\u{301}"] {
            XCTAssertEqual(NameRules.key(name), foundation(name), name)
        }
    }

    func testDefaultExtensionAndNumbering() {
        XCTAssertEqual(NameRules.withDefaultExtension("Poem", "md"), "Poem.md")
        XCTAssertEqual(NameRules.withDefaultExtension("Poem.txt", "md"), "Poem.txt")
        XCTAssertEqual(NameRules.withDefaultExtension("Poem.", "md"), "Poem..md")
        XCTAssertEqual(NameRules.numbered("Poem.md", 2, isFolder: false), "Poem 2.md")
        XCTAssertEqual(NameRules.numbered("Act 1.5", 2, isFolder: true), "Act 1.5 2")
    }
}

final class OrderingTests: XCTestCase {
    func sorted(_ names: [String], _ order: SortSetting = .byName) -> [String] {
        let dir = Entry(name: EntryName("/d"), kind: .directory)
        for (i, n) in names.enumerated() {
            let isDir = n.hasSuffix("/")
            dir.add(Entry(name: EntryName(isDir ? String(n.dropLast()) : n), kind: isDir ? .directory : .file, created: Int64(i), modified: Int64(100 - i)))
        }
        return dir.sortedChildren(order).map { $0.isFolderLike ? $0.name.string + "/" : $0.name.string }
    }

    func testNaturalCaseInsensitiveFoldersFirst() {
        XCTAssertEqual(sorted(["Chapter 10", "chapter 2", "b/", "Chapter 1", "A/"]), ["A/", "b/", "Chapter 1", "chapter 2", "Chapter 10"])
        XCTAssertEqual(sorted(["file02", "file1", "file010"]), ["file1", "file02", "file010"])
    }

    /// ASCII names fold byte by byte; that must be what `lowercased()` gives.
    func testFoldedNamesAreLowercasedUTF8() {
        let ascii = String(decoding: (UInt8(0x20)...UInt8(0x7E)).map { $0 }, as: UTF8.self)
        for name in [ascii, "Chapter 10.MD", "Été", "ÀB", "İstanbul", "ǅ", "日本"] {
            XCTAssertEqual(Entry(name: EntryName(name), kind: .file).folded, Array(name.lowercased().utf8), name)
        }
        // A Unicode name's folding is kept; a rename must not leave the old one.
        let e = Entry(name: EntryName("Été"), kind: .file)
        XCTAssertEqual(e.folded, Array("été".utf8))
        e.rename(to: EntryName("Ôde"))
        XCTAssertEqual(e.folded, Array("ôde".utf8))
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
        XCTAssertEqual(leaf.path, Array("/tmp/Library/Poetry Project/a".utf8) + [0xFF] + Array("b/Caf\u{E9} \u{65E5}\u{8A18}.md".utf8))
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
}

final class CatalogTests: XCTestCase {
    func folders(_ type: String, _ section: Int) -> [String] {
        ProjectType.named(type)!.sections[section].folders.map { "\($0.title.en) [\($0.icon)]" }
    }

    func testTemplatesMatchTheSpecification() {
        XCTAssertEqual(ProjectType.ids, ["blank", "poetry", "shortStory", "novel", "script"])
        let writing = ["All [globe]", "Draft [doc.badge.ellipsis]", "Ready [checkmark.circle]", "Set Aside [archivebox]",
                       "Published [book.circle]", "Collections [books.vertical]", "Submissions [paperplane]", "Research [magnifyingglass]"]
        XCTAssertEqual(folders("blank", 0), ["All [globe]"])
        XCTAssertEqual(folders("poetry", 0), writing)
        XCTAssertEqual(folders("shortStory", 0), writing)
        XCTAssertEqual(folders("poetry", 1), ["Magazines [magazine]", "Competitions [medal]", "Commissions [person.2]", "Other [tray]"])
        XCTAssertEqual(folders("novel", 0), ["Novel [book.closed.fill]", "Chapters [document.on.document]", "Scenes [document.badge.plus]",
                                             "Characters [person.circle]", "Locations [mountain.2]", "Set Aside [archivebox]", "Research [magnifyingglass]"])
        XCTAssertEqual(folders("script", 0).first, "Script [book.closed.fill]")
        XCTAssertEqual(folders("script", 0)[1], "Acts [document.on.document]")
        XCTAssertEqual(folders("script", 1), ["Competitions [medal]", "Commissions [person.2]", "Other [tray]"])
        XCTAssertEqual(ProjectType.all.map { $0.sections.map(\.header) }, [
            ["BLANK", "TRASH"], ["YOUR POETRY", "PUBLICATIONS", "TRASH"], ["YOUR STORIES", "PUBLICATIONS", "TRASH"],
            ["YOUR NOVEL", "PUBLICATIONS", "TRASH"], ["YOUR SCRIPT", "PUBLICATIONS", "TRASH"],
        ])
        for type in ProjectType.all { XCTAssertEqual(type.sections.last!.folders.map(\.icon), ["trash"]) }
    }

    func testAllIsVirtualAndNewFilesGoToDraftOrRoot() {
        XCTAssertEqual(ProjectType.named("poetry")!.folder(.all)?.newFilesGoTo, .draft)
        XCTAssertNil(ProjectType.named("blank")!.folder(.all)?.newFilesGoTo)
        XCTAssertTrue(ProjectType.all.allSatisfy { $0.directories.allSatisfy { !$0.isVirtual } })
    }

    func testLanguagesFromLocalesAndFrenchTitles() {
        XCTAssertEqual(Language(locale: "fr-CA"), .french)
        XCTAssertEqual(Language(locale: "fr_FR.UTF-8"), .french)
        XCTAssertEqual(Language(locale: "de"), .english)
        XCTAssertEqual(Language(locale: nil), .english)
        XCTAssertEqual(PermanentFolder.draft.title(.french), "Brouillons")
        XCTAssertEqual(Message.actionCancel.text(.french), "Annuler")
    }
}

final class SymbolIndexTests: XCTestCase {
    func names(_ index: SymbolIndex, _ root: Entry, _ q: String) -> [String] {
        index.refresh(root)
        var found: [String] = []
        index.search(Array(q.utf8)) { e, _ in found.append(e.name.string) }
        return found.sorted()
    }

    func testIndexFollowsRenamesMovesAndRemovals() {
        let root = Entry(name: EntryName("/r"), kind: .directory)
        let dir = Entry(name: EntryName("Draft"), kind: .directory)
        let file = Entry(name: EntryName("Spring.md"), kind: .file)
        root.add(dir)
        dir.add(file)
        let index = SymbolIndex()
        XCTAssertEqual(names(index, root, "spr"), ["Spring.md"])
        file.rename(to: EntryName("Autumn.md"))
        XCTAssertEqual(names(index, root, "spr"), [])
        XCTAssertEqual(names(index, root, "aut"), ["Autumn.md"])
        dir.remove(file)
        XCTAssertEqual(names(index, root, "aut"), [])
        XCTAssertEqual(names(index, root, ""), ["Draft"])
    }
}
