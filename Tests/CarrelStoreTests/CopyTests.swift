import CarrelModel
import CarrelRandom
import CarrelStore
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// `Directory.copy`: a file or a folder tree copied beside itself, built
/// under a hidden staging name and renamed into place without replacing,
/// links kept as links, pipes and devices left out, bounded.
final class CopyTests: XCTestCase {
    func b(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// What is below `rel`, as `fingerprint` sees it, keyed by path below it.
    func tree(_ fx: Fixture, _ rel: String) -> [String: String] {
        var out: [String: String] = [:]
        for (path, print) in fingerprint(fx.path + "/" + rel) { out[path] = print }
        return out
    }

    func testAFileIsCopiedWholeAndNothingIsReplaced() throws {
        let fx = try Fixture(
            """
            Spring.md = the first line
            Taken.md = theirs
            """)
        let d = try Directory.open(fx.bytes())
        let made = try d.copy(b("Spring.md"), to: d, as: b("Spring copy.md"))
        XCTAssertEqual(made, Directory.CopyReport(items: 1, bytes: 14, leftOut: []))
        XCTAssertEqual(fx.read("Spring copy.md"), "the first line")
        XCTAssertEqual(fx.read("Spring.md"), "the first line")
        XCTAssertThrowsError(try d.copy(b("Spring.md"), to: d, as: b("Taken.md"))) {
            XCTAssertEqual(($0 as? SysError)?.code, EEXIST)
        }
        XCTAssertEqual(fx.read("Taken.md"), "theirs")
        XCTAssertEqual(fx.listing(includeHidden: true), ["Spring copy.md", "Spring.md", "Taken.md"], "no staging left")
    }

    func testAFolderTreeKeepsLinksAsLinksAndLeavesPipesOut() throws {
        let outside = try Fixture("secret.md = not to be copied")
        let fx = try Fixture(
            """
            Part/one.md = 1
            Part/.carrel-order = two.md
            Part/Inner/two.md = 22
            Part/Inner/Empty/
            Part/out -> \(outside.path)
            Part/dangling -> nowhere.md
            """)
        XCTAssertEqual(mkfifo(fx.path + "/Part/Inner/pipe", 0o644), 0)
        let d = try Directory.open(fx.bytes())
        let made = try d.copy(b("Part"), to: d, as: b("Part copy"))
        XCTAssertEqual(made.leftOut, [b("Inner/pipe")])
        XCTAssertEqual(made.bytes, 1 + 6 + 2)
        var expected = tree(fx, "Part")
        expected["Inner/pipe"] = nil
        XCTAssertEqual(tree(fx, "Part copy"), expected)
        XCTAssertEqual(fx.listing(includeHidden: true).filter { $0.hasPrefix(".") }, [], "no staging left")
        XCTAssertEqual(outside.listing(), ["secret.md"], "a link's target is never entered")
    }

    func testALinkOrAPipeAtTheTop() throws {
        let fx = try Fixture("link -> elsewhere.md")
        XCTAssertEqual(mkfifo(fx.path + "/pipe", 0o644), 0)
        let d = try Directory.open(fx.bytes())
        try d.copy(b("link"), to: d, as: b("link copy"))
        XCTAssertEqual(tree(fx, "")["link copy"], tree(fx, "")["link"])
        XCTAssertThrowsError(try d.copy(b("pipe"), to: d, as: b("pipe copy"))) {
            XCTAssertEqual(($0 as? SysError)?.refusal, .wrongKind(found: .pipe, expected: .file))
        }
        XCTAssertFalse(fx.exists("pipe copy"))
    }

    func testTooManyItemsOrBytesIsRefusedBeforeAnythingIsWritten() throws {
        let fx = try Fixture(
            """
            Part/a.md = aaaa
            Part/b.md = bbbb
            Part/Sub/c.md = cccc
            """)
        let d = try Directory.open(fx.bytes())
        let before = fingerprint(fx.path)
        XCTAssertThrowsError(try d.copy(b("Part"), to: d, as: b("Copy"), limits: .init(bytes: 100, items: 4))) {
            XCTAssertEqual(($0 as? SysError)?.refusal, .tooManyToCopy(limit: 4))
        }
        XCTAssertThrowsError(try d.copy(b("Part"), to: d, as: b("Copy"), limits: .init(bytes: 11, items: 100))) {
            XCTAssertEqual(($0 as? SysError)?.refusal, .tooLargeToCopy(limit: 11))
        }
        XCTAssertEqual(fingerprint(fx.path), before)
        try d.copy(b("Part"), to: d, as: b("Copy"), limits: .init(bytes: 12, items: 5))
        XCTAssertEqual(fx.read("Copy/Sub/c.md"), "cccc")
    }

    func testADeepTreeIsCopiedWithoutRecursion() throws {
        let fx = try Fixture()
        var rel = "Deep"
        for i in 0..<300 { rel += "/\(i)" }
        try fx.add(rel + "/leaf.md = bottom")
        let d = try Directory.open(fx.bytes())
        try d.copy(b("Deep"), to: d, as: b("Deep copy"))
        XCTAssertEqual(fx.read("Deep copy" + rel.dropFirst("Deep".count) + "/leaf.md"), "bottom")
    }

    /// A copy's staging folder is removed once the process that made it is
    /// gone; one of a running process is a copy under way, and stays.
    func testLeftoversOfADeadProcessGoAndThoseOfALiveOneStay() throws {
        let dead = try deadPid()
        let live = getppid()
        let fx = try Fixture(
            """
            .carrel-copy-\(dead)-1-2/a.md = half
            .carrel-copy-\(dead)-1-3 = half a file
            .carrel-copy-\(live)-1-2/a.md = under way
            .carrel-order.tmp-1 = not a copy
            Kept/a.md = mine
            """)
        let d = try Directory.open(fx.bytes())
        XCTAssertEqual(d.copyLeftovers().count, 3)
        XCTAssertEqual(d.removeCopyLeftovers(d.copyLeftovers()), 2)
        XCTAssertEqual(
            fx.listing(includeHidden: true),
            [".carrel-copy-\(live)-1-2/", ".carrel-copy-\(live)-1-2/a.md", ".carrel-order.tmp-1", "Kept/", "Kept/a.md"])
    }

    /// Odd trees, seeded so a failure replays: names that are not UTF-8,
    /// long, spaced or dashed; empty folders; links to files, folders and
    /// nothing; pipes; hidden files. The copy equals the original, pipes
    /// left out and named.
    func testSeededOddTreesCopyExactly() throws {
        for seed in UInt64(1)...24 {
            var rng = SeededRandom(seed: seed)
            let fx = try Fixture("Top/")
            var folders = ["Top"]
            var pipes: [String] = []
            for i in 0..<Int.random(in: 5...40, using: &rng) {
                let folder = folders.randomElement(using: &rng)!
                let names = [
                    "n\(i)", "- dash \(i)", ".hidden\(i)", "é\(i).md", String(repeating: "x", count: 200) + "\(i)",
                ]
                var name = Array(names.randomElement(using: &rng)!.utf8)
                if Int.random(in: 0..<6, using: &rng) == 0 { name += [0xFF, 0xFE] }  // not UTF-8
                let path = fx.path + "/" + folder + "/" + String(decoding: name, as: UTF8.self)
                let raw = Array((fx.path + "/" + folder + "/").utf8) + name
                let made: Int32 = BytePath.withCString(raw) { p in
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0, 1:
                        let fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0o644)
                        guard fd >= 0 else { return -1 }
                        let text = Array(repeating: UInt8(ascii: "a") + UInt8(i % 26), count: i * 37)
                        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                        return close(fd)
                    case 2: return mkdir(p, 0o755)
                    case 3: return symlink(i % 2 == 0 ? "n1" : "/etc", p)
                    case 4: return symlink("nowhere/\(i)", p)
                    default: return mkfifo(p, 0o644)
                    }
                }
                guard made == 0 else { continue }
                var st = stat()
                guard BytePath.withCString(raw, { lstat($0, &st) }) == 0 else { continue }
                if (st.st_mode & S_IFMT) == S_IFDIR { folders.append(String(path.dropFirst(fx.path.count + 1))) }
                if (st.st_mode & S_IFMT) == S_IFIFO { pipes.append(String(path.dropFirst(fx.path.count + 5))) }
            }
            let d = try Directory.open(fx.bytes())
            let made = try d.copy(b("Top"), to: d, as: b("Top copy"))
            var expected = tree(fx, "Top")
            for p in pipes { expected[p] = nil }
            XCTAssertEqual(tree(fx, "Top copy"), expected, "seed \(seed)")
            XCTAssertEqual(made.leftOut.count, pipes.count, "seed \(seed)")
            XCTAssertEqual(fx.listing(includeHidden: true).filter { $0.hasPrefix(".") }, [], "seed \(seed)")
        }
    }
}
