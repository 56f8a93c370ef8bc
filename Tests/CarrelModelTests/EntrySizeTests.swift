import CarrelModel
import XCTest

/// glibc's, declared here: Glibc's module map leaves out malloc.h.
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int

/// A file's entry holds no folder's fields: nine entries in ten are
/// files, and at 110,000 entries every 16 bytes of one is 1.7 MB.
final class EntrySizeTests: XCTestCase {
    /// What malloc gave the object, its header and padding included.
    func allocated(_ e: Entry) -> Int { mallocUsableSize(Unmanaged.passUnretained(e).toOpaque()) }

    func testAFileTakesAtMost152Bytes() {
        let folder = Entry(name: EntryName("Draft"), kind: .directory)
        let file = Entry(name: EntryName("A scene with a long name.md"), kind: .file)
        file.changeStamp = 42
        folder.add(file)
        _ = folder.sortedChildren(SortSetting())
        XCTAssertLessThanOrEqual(allocated(file), 152)
        XCTAssertTrue(folder.child(EntryName("A scene with a long name.md")) === file)
    }

    /// A folder's fields still hold what they are given.
    func testAFolderKeepsItsStampAndChildren() {
        let folder = Entry(name: EntryName("Draft"), kind: .directory)
        folder.changeStamp = 42
        folder.add(Entry(name: EntryName("a.md"), kind: .file))
        XCTAssertEqual(folder.changeStamp, 42)
        XCTAssertEqual(folder.children.count, 1)
        XCTAssertEqual(folder.generation, 1)
    }
}
