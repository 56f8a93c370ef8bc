import CarrelModel
import XCTest

/// Files added by folder (`add(_:in:)`, one path shared by a folder's
/// files) resolve, and are forgotten, as files added by their whole path.
final class WikiNamesByFolderTests: XCTestCase {
    static let files: [[String]] = [
        ["P", "Characters", "Ada.md"], ["P", "Characters", "Bea.md"], ["P", "Draft", "Ada.md"],
        ["P", "Draft", "One.md"], ["P", "Notes", "ada.txt"], ["Top.md"],
    ]
    static let names = ["Ada", "ada.txt", "Bea", "Draft/Ada", "Characters/Ada", "P/Draft/One", "One", "Top"]
    static let from: [[String]] = [["P", "Draft", "One.md"], ["P", "Characters", "Bea.md"], ["Q", "x.md"]]

    func resolved(_ wiki: WikiNames) -> [String] {
        Self.names.flatMap { name in
            Self.from.map { f in "\(name): \(wiki.resolve(name, from: f)?.joined(separator: "/") ?? "-")" }
        }
    }

    func byFolder(_ files: [[String]]) -> WikiNames {
        var names = WikiNames(files: [])
        for (folder, inFolder) in Dictionary(grouping: files, by: { Array($0.dropLast()) }) {
            for f in inFolder { names.add(f.last!, in: folder) }
        }
        return names
    }

    func testFilesAddedByFolderResolveAsByPath() {
        XCTAssertEqual(resolved(byFolder(Self.files)), resolved(WikiNames(files: Self.files)))
        XCTAssertEqual(byFolder(Self.files).resolve("Ada", from: ["P", "Draft", "One.md"]), ["P", "Draft", "Ada.md"])
    }

    func testFilesAddedByFolderAreForgottenOneByOneOrByFolder() {
        var names = byFolder(Self.files)
        XCTAssertTrue(names.remove(["P", "Draft", "Ada.md"]))
        XCTAssertFalse(names.remove(["P", "Draft", "Ada.md"]))
        names.remove(under: ["P", "Characters"])
        let left = Self.files.filter { $0 != ["P", "Draft", "Ada.md"] && !$0.starts(with: ["P", "Characters"]) }
        XCTAssertEqual(resolved(names), resolved(WikiNames(files: left)))
        XCTAssertEqual(names.resolve("Ada", from: ["Q", "x.md"]), ["P", "Notes", "ada.txt"])
    }
}
