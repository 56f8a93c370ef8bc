import CarrelModel
import CarrelStore
import CarrelTestSupport
import CarrelWorkspace
import Foundation
import XCTest

/// An order file Carrel cannot read as an order (over 1 MiB, a link, a
/// pipe, a folder) is the writer's, not Carrel's: the folder shows in name
/// order, and nothing that would rewrite the file (a reorder, a move to a
/// place, a merge of sync's copies) replaces it. Each is refused, names
/// what is there, and changes nothing.
final class UnusableOrderFileTests: XCTestCase {
    var fx: Fixture!
    var ws: Workspace!

    override func tearDown() {
        ws = nil
        fx = nil
    }

    static let tree = """
        P/.carrel/project.json = {"type":"poetry","sort":{"by":"manual"}}
        P/Draft/a.md
        P/Draft/b.md
        P/Ready/r.md
        """

    /// Names that would parse, one more byte than an order file may hold.
    static let huge = Data(
        (String(repeating: "b.md\na.md\n", count: OrderFile.sizeLimit / 10 + 1)).utf8.prefix(
            OrderFile.sizeLimit + 1))

    func open(_ tree: String = tree, files: [String: Data] = [:]) throws {
        fx = try Fixture(tree)
        for (path, bytes) in files { try bytes.write(to: fx.url(path)) }
        ws = Workspace()
        ws.addLibrary(fx.bytes())
    }

    func t(_ relative: String) throws -> Workspace.Target { try ws.locate(fx.bytes(relative), uri: relative) }

    func names(_ relative: String) throws -> [String] {
        ws.children(try t(relative).item).map { ws.describe($0, .english).name }
    }

    func refusal(_ body: () throws -> Any) -> Failure? {
        do { _ = try body(); return nil } catch let f as Failure { return f } catch { return nil }
    }

    func data(_ relative: String) -> Data? { FileManager.default.contents(atPath: fx.path + "/" + relative) }

    func testAReorderBesideAnOrderFileOverTheLimitIsRefusedAndReplacesNothing() throws {
        try open(files: ["P/Draft/.carrel-order": Self.huge])
        let project = fx.read("P/.carrel/project.json")
        XCTAssertEqual(try names("P/Draft"), ["a.md", "b.md"], "too large to read: name order")
        let failure = refusal {
            try self.ws.reorder(try self.t("P/Draft/b.md"), relativeTo: try self.t("P/Draft/a.md"), after: false)
        }
        XCTAssertEqual(failure?.reason, .io)
        let message = failure?.message.text(.english) ?? ""
        XCTAssertTrue(message.contains(fx.path + "/P/Draft/.carrel-order"), message)
        XCTAssertTrue(message.contains("larger than 1 MiB"), message)
        XCTAssertEqual(data("P/Draft/.carrel-order"), Self.huge, "the writer's file is never replaced")
        XCTAssertEqual(fx.read("P/.carrel/project.json"), project)
        XCTAssertEqual(fx.listing("P/Draft", includeHidden: true).sorted(), [".carrel-order", "a.md", "b.md"])
    }

    func testAMoveToAPlaceInThatFolderIsRefusedAndMovesNothing() throws {
        try open(files: ["P/Draft/.carrel-order": Self.huge])
        let anchor = try t("P/Draft/a.md").entry!
        let failure = refusal {
            try self.ws.move(try self.t("P/Ready/r.md"), to: try self.t("P/Draft"), at: (anchor, true))
        }
        XCTAssertEqual(failure?.reason, .io)
        XCTAssertEqual(data("P/Draft/.carrel-order"), Self.huge)
        XCTAssertTrue(fx.exists("P/Ready/r.md"), "the move did not happen")
        XCTAssertEqual(try names("P/Draft"), ["a.md", "b.md"])
    }

    /// A rename or a move without a place never writes an order Carrel
    /// could not read: both go ahead and leave the file as it was.
    func testRenamesAndPlainMovesThereLeaveItAlone() throws {
        try open(files: ["P/Draft/.carrel-order": Self.huge])
        _ = try ws.rename(try t("P/Draft/a.md"), to: "Zed")
        _ = try ws.move(try t("P/Ready/r.md"), to: try t("P/Draft"))
        _ = try ws.move(try t("P/Draft/b.md"), to: try t("P/Ready"))
        XCTAssertEqual(try names("P/Draft"), ["r.md", "Zed.md"])
        XCTAssertEqual(data("P/Draft/.carrel-order"), Self.huge)
    }

    /// Merging sync's copy would write an order without the file's own
    /// lines, which could not be read: the file and the copy both stay.
    func testAConflictCopyBesideItIsNotMergedOverIt() throws {
        let copy = "P/Draft/.sync-conflict-20261123-101010-ABCDEFG.carrel-order"
        try open(files: ["P/Draft/.carrel-order": Self.huge, copy: Data("b.md\n".utf8)])
        _ = try names("P/Draft")
        XCTAssertEqual(data("P/Draft/.carrel-order"), Self.huge)
        XCTAssertEqual(fx.read(copy), "b.md\n", "kept until a file that holds it is written")
    }

    /// A conflict copy too large to read was never merged, so it is never removed.
    func testAConflictCopyOverTheLimitIsKept() throws {
        let copy = "P/Draft/.sync-conflict-20261123-101010-ABCDEFG.carrel-order"
        try open(files: ["P/Draft/.carrel-order": Data("b.md\n".utf8), copy: Self.huge])
        XCTAssertEqual(try names("P/Draft"), ["b.md", "a.md"])
        XCTAssertEqual(data(copy), Self.huge)
    }

    /// A link, a pipe or a folder where the order belongs: a move to a place
    /// there is refused by name, as a reorder is.
    func testAMoveToAPlaceBesideAnOrderThatIsNotAFileIsRefused() throws {
        let outside = try Fixture("hostname = b.md\n")
        try open(
            Self.tree
                + "\nP/Draft/.carrel-order -> \(outside.path)/hostname\nP/Published/x.md\nP/Published/.carrel-order/")
        XCTAssertEqual(Fixture.sh("mkfifo '\(fx.path)/P/Ready/.carrel-order'"), 0)
        for (folder, kind) in [
            ("P/Draft", "a symbolic link"), ("P/Published", "a folder"), ("P/Ready", "a named pipe"),
        ] {
            ws = Workspace()
            ws.addLibrary(fx.bytes())
            let source = folder == "P/Draft" ? "P/Ready/r.md" : "P/Draft/b.md"
            let anchor = try XCTUnwrap(
                ws.children(try t(folder).item).first.flatMap { item -> Entry? in
                    if case .entry(let e, _) = item { return e }
                    return nil
                })
            let failure = refusal { try self.ws.move(try self.t(source), to: try self.t(folder), at: (anchor, false)) }
            XCTAssertEqual(failure?.reason, .io, folder)
            let message = failure?.message.text(.english) ?? ""
            XCTAssertTrue(message.contains("\(folder)/.carrel-order is \(kind)"), message)
            XCTAssertTrue(fx.exists(source), folder)
        }
        XCTAssertEqual(Workspace.kind(of: fx.bytes("P/Draft/.carrel-order")), .link)
        XCTAssertEqual(outside.read("hostname"), "b.md")
        XCTAssertEqual(Workspace.kind(of: fx.bytes("P/Published/.carrel-order")), .folder)
        XCTAssertEqual(Workspace.kind(of: fx.bytes("P/Ready/.carrel-order")), .other)
    }
}
