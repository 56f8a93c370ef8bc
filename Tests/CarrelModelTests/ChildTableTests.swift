import CarrelModel
import XCTest

/// A folder finds, adds and removes its children by name exactly as a
/// dictionary would, and holds them in a few bytes each: at 110,000
/// entries a dictionary's table of names and entries was 6.8 MB.
final class ChildTableTests: XCTestCase {
    func file(_ name: String) -> Entry { Entry(name: EntryName(name), kind: .file) }

    /// Adds, renames and removes at random in folders small and large,
    /// checking every lookup against a dictionary of the same children.
    func testLookupsAgreeWithADictionaryThroughAddsAndRemoves() {
        var seed: UInt64 = 0x5eed
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for size in [3, 16, 17, 40, 1_000] {
            let folder = Entry(name: EntryName("F"), kind: .directory)
            var model: [EntryName: Entry] = [:]
            for step in 0..<(size * 6) {
                let name = EntryName("n\(next(size * 2))" + (next(3) == 0 ? " Été.md" : ".md"))
                switch next(3) {
                case 0, 1:
                    let e = file(name.string)
                    folder.add(e)
                    model[name] = e
                default:
                    if let e = folder.child(name) { folder.remove(e) }
                    model[name] = nil
                }
                if step % 7 == 0, let some = model.values.first {
                    let to = EntryName("renamed \(step).md")
                    model[some.name] = nil
                    some.rename(to: to)
                    model[to] = some
                }
                XCTAssertEqual(folder.children.count, model.count, "size \(size), step \(step)")
            }
            for k in 0..<(size * 2) {
                for suffix in [".md", " Été.md"] {
                    let name = EntryName("n\(k)" + suffix)
                    XCTAssertTrue(folder.child(name) === model[name], "size \(size), \(name)")
                }
            }
            XCTAssertEqual(Set(folder.children.keys), Set(model.keys), "size \(size)")
            XCTAssertEqual(
                Set(folder.children.values.map(ObjectIdentifier.init)), Set(model.values.map(ObjectIdentifier.init)))
            XCTAssertEqual(folder.fileTotal, model.count)
        }
    }

    /// Eight bytes a child for the entry, and in a big folder four bytes
    /// a slot of a table at most half full, rounded up by growth.
    func testAFolderHoldsItsChildrenInAFewBytesEach() {
        for (size, bound) in [(10, 16 * 8), (1_000, 1_000 * 8 * 2 + 4 * 4_096)] {
            let folder = Entry(name: EntryName("F"), kind: .directory)
            for k in 0..<size { folder.add(file("Scene \(k).md")) }
            XCTAssertLessThanOrEqual(folder.childTableBytes, bound, "\(size) children")
        }
    }
}
