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
        func foundation(_ s: String) -> String {
            s.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
        }
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

    func testCopyNamesAreFinders() {
        let cases: [(String, Int, Bool, String)] = [
            ("Spring.md", 1, false, "Spring copy.md"),
            ("Spring.md", 2, false, "Spring copy 2.md"),
            ("Spring copy.md", 1, false, "Spring copy.md"),
            ("Spring copy.md", 2, false, "Spring copy 2.md"),
            ("Spring copy 7.md", 3, false, "Spring copy 3.md"),
            ("Release2.md", 1, false, "Release2 copy.md"),
            ("Draft 2", 1, true, "Draft 2 copy"),
            ("v1.2", 1, true, "v1.2 copy"),
            ("copy.md", 1, false, "copy copy.md"),
            ("README", 2, false, "README copy 2"),
        ]
        for (name, n, isFolder, expected) in cases {
            XCTAssertEqual(NameRules.copyName(name, n, isFolder: isFolder), expected, name)
        }
        let long = String(repeating: "é", count: 126) + ".md"
        let copy = NameRules.copyName(long, 12, isFolder: false)
        XCTAssertLessThanOrEqual(copy.utf8.count, NameRules.maxBytes)
        XCTAssertTrue(copy.hasSuffix("é copy 12.md"), copy)
    }
}

final class CatalogTests: XCTestCase {
    func folders(_ type: String, _ section: Int) -> [String] {
        ProjectType.named(type)!.sections[section].folders.map { "\($0.title.en) [\($0.icon)]" }
    }

    func testTemplatesMatchTheSpecification() {
        XCTAssertEqual(ProjectType.ids, ["blank", "poetry", "shortStory", "novel", "script"])
        let writing = [
            "All [globe]", "Draft [doc.badge.ellipsis]", "Ready [checkmark.circle]", "Set Aside [archivebox]",
            "Published [book.circle]", "Collections [books.vertical]", "Submissions [paperplane]",
            "Research [magnifyingglass]",
        ]
        XCTAssertEqual(folders("blank", 0), ["All [globe]"])
        XCTAssertEqual(folders("poetry", 0), writing)
        XCTAssertEqual(folders("shortStory", 0), writing)
        XCTAssertEqual(
            folders("poetry", 1),
            ["Magazines [magazine]", "Competitions [medal]", "Commissions [person.2]", "Other [tray]"])
        XCTAssertEqual(
            folders("novel", 0),
            [
                "Novel [book.closed.fill]", "Chapters [document.on.document]", "Scenes [document.badge.plus]",
                "Characters [person.circle]", "Locations [mountain.2]", "Set Aside [archivebox]",
                "Research [magnifyingglass]",
            ])
        XCTAssertEqual(folders("script", 0).first, "Script [book.closed.fill]")
        XCTAssertEqual(folders("script", 0)[1], "Acts [document.on.document]")
        XCTAssertEqual(folders("script", 1), ["Competitions [medal]", "Commissions [person.2]", "Other [tray]"])
        XCTAssertEqual(
            ProjectType.all.map { $0.sections.map(\.header) },
            [
                ["BLANK", "TRASH"], ["YOUR POETRY", "PUBLICATIONS", "TRASH"],
                ["YOUR STORIES", "PUBLICATIONS", "TRASH"],
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
