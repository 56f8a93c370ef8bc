import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// Compiling real projects of every type with the real binary, read back:
/// DOCX, ODT and EPUB through `pandoc -t plain`, the manuscript's styles
/// from the DOCX itself.
final class CompileTests: XCTestCase {
    func write(_ fx: Fixture, _ relative: String, _ text: String) throws {
        let url = fx.url(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// What pandoc reads in a document, as plain text.
    func plain(_ path: String) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["pandoc", "-t", "plain", "--wrap=none", path]
        let out = Pipe()
        p.standardOutput = out
        try? p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// One part of a ZIP (a DOCX), through Python's standard zipfile.
    func part(_ path: String, _ name: String) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "python3", "-c", "import sys,zipfile;print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())", path,
            name,
        ]
        let out = Pipe()
        p.standardOutput = out
        try? p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// "ok" when each named part of a ZIP parses as XML, else Python's complaint.
    func wellFormed(_ path: String, _ names: [String]) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script =
            "import sys,zipfile,xml.dom.minidom as m\nz=zipfile.ZipFile(sys.argv[1])\n"
            + "for n in sys.argv[2:]: m.parseString(z.read(n))\nprint('ok')"
        p.arguments = ["python3", "-c", script, path] + names
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try? p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func json(_ r: CLIRunner.Result) throws -> JSONValue { try JSONParser.parse(r.stdout) }

    /// Each needle once, in this order.
    func assertInOrder(_ text: String, _ needles: [String], file: StaticString = #filePath, line: UInt = #line) {
        var rest = Substring(text)
        for needle in needles {
            XCTAssertEqual(
                text.components(separatedBy: needle).count - 1, 1, "“\(needle)” once", file: file, line: line)
            guard let r = rest.range(of: needle) else {
                return XCTFail("“\(needle)” missing or out of order in:\n\(text)", file: file, line: line)
            }
            rest = rest[r.upperBound...]
        }
    }

    func story() throws -> (Fixture, CLIRunner) {
        let fx = try Fixture("Story/.carrel/project.json = {\"type\":\"shortStory\"}\nStory/Draft/\n")
        // 6 + 7 words; the left-out note's 4 must not count.
        try write(fx, "Story/Draft/1 Opening.md", "The sea was calm that night.\n")
        try write(fx, "Story/Draft/2 Storm.md", "---\ntitle: ignored\n---\nThe storm came at dawn, loud, grey.\n")
        try write(fx, "Story/Draft/3 Notes.md", "Notes to self only.\n")
        let cli = try CLIRunner()
        XCTAssertEqual(cli.run(["include", "Story/Draft/3 Notes.md", "no"], in: fx.path).status, 0)
        let r = cli.run(
            ["byline", "Story", "--author", "Ada Lovelace", "--contact", "12 Any Street | ada@example.com"],
            in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Title page of “Story”: by Ada Lovelace, 2 contact lines.\n", "what the page reads")
        return (fx, cli)
    }

    func testShortStoryManuscriptDOCXIsStyledAndHoldsEachPieceOnce() throws {
        let (fx, cli) = try story()
        let r = cli.run(["compile", "Story", "--json"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        let result = try json(r)
        XCTAssertEqual(result["words"], 13)
        XCTAssertEqual(result["format"], "docx")
        let path = fx.path + "/Story/Compiled/Story.docx"
        XCTAssertEqual(result["path"]?.stringValue, path)
        let text = plain(path)
        assertInOrder(
            text,
            [
                "Ada Lovelace\n12 Any Street", "ada@example.com", "about 100 words", "Story", "by Ada Lovelace",
                "The sea was calm that night.", "#", "The storm came at dawn, loud, grey.",
            ])
        XCTAssertFalse(text.contains("Notes to self"), "left out")
        XCTAssertFalse(text.contains("ignored"), "a piece's own front matter")
        let styles = part(path, "word/styles.xml")
        XCTAssertTrue(styles.contains("Courier New"), "Courier")
        XCTAssertTrue(styles.contains("w:line=\"480\""), "double spaced")
        XCTAssertTrue(styles.contains("w:sz w:val=\"24\""), "12 pt")
        let document = part(path, "word/document.xml")
        XCTAssertTrue(document.contains("w:left=\"1440\""), "1-inch margins")
        XCTAssertTrue(document.contains("<w:titlePg"), "no header on the title page")
        XCTAssertTrue(part(path, "word/header1.xml").contains("Lovelace / Story / "), "running header")
        // Compiling again never replaces: a new name.
        let again = try json(cli.run(["compile", "Story", "--json"], in: fx.path))
        XCTAssertEqual(again["path"]?.stringValue, fx.path + "/Story/Compiled/Story 2.docx")
        // The compiled documents add nothing to the project's words.
        XCTAssertTrue(
            cli.run(["tree", "Story", "--depth", "0"], in: fx.path).stdout.contains("17 words"),
            cli.run(["tree", "Story", "--depth", "0"], in: fx.path).stdout)
    }

    func testShortStoryManuscriptODTIsStyledAsTheDOCXIs() throws {
        let (fx, cli) = try story()
        let r = cli.run(["compile", "Story", "--to", "odt", "--json"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        let path = fx.path + "/Story/Compiled/Story.odt"
        assertInOrder(
            plain(path),
            [
                "Ada Lovelace\n12 Any Street", "ada@example.com", "about 100 words", "Story", "by Ada Lovelace",
                "The sea was calm that night.", "#", "The storm came at dawn, loud, grey.",
            ])
        let styles = part(path, "styles.xml")
        XCTAssertEqual(wellFormed(path, ["styles.xml", "content.xml", "META-INF/manifest.xml"]), "ok", "XML")
        XCTAssertTrue(styles.contains("style:font-name=\"Courier New\""), "Courier")
        XCTAssertTrue(styles.contains("fo:font-size=\"12pt\""), "12 pt")
        XCTAssertTrue(styles.contains("fo:line-height=\"200%\""), "double spaced")
        XCTAssertTrue(styles.contains("fo:text-indent=\"0.5in\""), "first lines indented half an inch")
        XCTAssertTrue(
            styles.contains("fo:margin-left=\"1in\"") && styles.contains("fo:margin-top=\"1in\""), "1-inch margins")
        XCTAssertTrue(styles.contains("Lovelace / Story / <text:page-number"), "running header")
        XCTAssertTrue(styles.contains("<style:header-first"), "no header on the title page")
        let content = part(path, "content.xml")
        XCTAssertTrue(
            content.contains("text:style-name=\"Line_20_Block\">Ada Lovelace<text:line-break/>12 Any Street"),
            "the contact block flush left, its lines kept")
        XCTAssertTrue(styles.contains("style:name=\"Line_20_Block\""))
        for style in ["Word Count", "Manuscript Title", "Byline", "Scene Break", "Pagebreak"] {
            XCTAssertTrue(content.contains("text:style-name=\"\(style)\""), style)
            XCTAssertTrue(styles.contains("style:name=\"\(style)\""), "\(style) is defined")
        }
    }

    func testOtherFormatsReadBack() throws {
        let (fx, cli) = try story()
        for format in ["odt", "epub", "markdown", "html", "text"] {
            let r = cli.run(["compile", "Story", "--to", format, "--json"], in: fx.path)
            XCTAssertEqual(r.status, 0, r.stderr)
            let path = try XCTUnwrap(try json(r)["path"]?.stringValue)
            let text =
                ["odt", "epub"].contains(format) ? plain(path) : try String(contentsOfFile: path, encoding: .utf8)
            assertInOrder(text, ["The sea was calm that night.", "The storm came at dawn, loud, grey."])
            XCTAssertFalse(text.contains("Notes to self"), format)
        }
        // A compiled Markdown is not compiled again, nor counted.
        let md = try json(cli.run(["compile", "Story", "--to", "markdown", "--json"], in: fx.path))
        XCTAssertEqual(md["words"], 13)
    }

    func testNovelOverStdioInBinderOrderWithProgress() throws {
        let fx = try Fixture("N/.carrel/project.json = {\"type\":\"novel\"}\nN/Chapters/\n")
        try write(fx, "N/Chapters/Beginning/a.md", "Alpha scene here.\n")
        try write(fx, "N/Chapters/Beginning/b.md", "Beta scene here.\n")
        try write(fx, "N/Chapters/Ending/c.md", "Gamma scene here.\n")
        try write(fx, "N/Chapters/Ending/d.md", "Delta scene cut.\n")
        let client = try ProcessClient()
        _ = try client.initialize([fx.uri()])
        // The writer puts Ending first, then leaves a scene out.
        _ = try client.result(
            "workspace/executeCommand",
            [
                "command": "carrel.reorder",
                "arguments": [
                    ["uri": .string(fx.uri("N/Chapters/Ending")), "before": .string(fx.uri("N/Chapters/Beginning"))]
                ],
            ])
        let node = try client.result(
            "workspace/executeCommand",
            [
                "command": "carrel.setCompileIncluded",
                "arguments": [["uri": .string(fx.uri("N/Chapters/Ending/d.md")), "included": false]],
            ])
        XCTAssertEqual(node["leftOut"], true)
        XCTAssertTrue(node["summary"]?.stringValue?.hasSuffix("left out") ?? false, "\(node)")
        let result = try client.result(
            "workspace/executeCommand",
            [
                "command": "carrel.compile", "workDoneToken": "t1",
                "arguments": [["projectUri": .string(fx.uri("N")), "format": "markdown"]],
            ])
        XCTAssertEqual(result["pieces"], 3)
        let begin = try client.inbox.take("progress", timeout: 5) { $0["method"] == "$/progress" }
        XCTAssertEqual(begin["params"]?["token"], "t1")
        XCTAssertEqual(begin["params"]?["value"]?["kind"], "begin")
        let text = try String(contentsOfFile: fx.path + "/N/Compiled/N.md", encoding: .utf8)
        assertInOrder(
            text, ["# Ending", "Gamma scene here.", "# Beginning", "Alpha scene here.", "\\#", "Beta scene here."])
        XCTAssertFalse(text.contains("Delta"))
        let error = try client.command(
            "carrel.compile", ["projectUri": .string(fx.uri("N/Chapters")), "format": "markdown"])["error"]
        XCTAssertEqual(error?["data"]?["reason"], "notAProject")
    }

    func testPoetryPacketCountsLines() throws {
        let fx = try Fixture("P/.carrel/project.json = {\"type\":\"poetry\"}\nP/Ready/\n")
        try write(fx, "P/Ready/Spring.md", "Green comes back\nto the hill\n\nand stays\n")
        try write(fx, "P/Ready/Tide.md", "Out, and in.\n")
        try write(fx, "P/Draft/Unfinished.md", "not ready\n")
        let cli = try CLIRunner()
        let r = cli.run(["compile", "P", "--json"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        let result = try json(r)
        XCTAssertEqual(result["lines"], 4)
        let text = plain(try XCTUnwrap(result["path"]?.stringValue))
        assertInOrder(
            text,
            [
                "2 poems, 4 lines", "Contents", "Spring (3 lines)", "Tide (1 line)", "Green comes back", "to the hill",
                "and stays", "Out, and in.",
            ])
        XCTAssertFalse(text.contains("not ready"))
    }

    func testScriptIsFountainUnderATitlePage() throws {
        let fx = try Fixture("S/.carrel/project.json = {\"type\":\"script\"}\nS/Acts/\n")
        try write(fx, "S/Acts/1.fountain", "Title: old\n\nINT. HOUSE - DAY\n\nAda enters.\n")
        try write(fx, "S/Acts/2.fountain", "EXT. SEA - NIGHT\n\nWaves.\n")
        let cli = try CLIRunner()
        let r = cli.run(["compile", "S", "--json"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try String(contentsOfFile: fx.path + "/S/Compiled/S.fountain", encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("Title: S\n"), text)
        assertInOrder(text, ["INT. HOUSE - DAY", "Ada enters.", "EXT. SEA - NIGHT", "Waves."])
        XCTAssertFalse(text.contains("old"))
    }

    /// Each bad item stops the compile, named, and leaves nothing behind.
    func testBadPiecesAreNamedAndNothingIsWritten() throws {
        let cases: [(String, (Fixture) throws -> Void, String)] = [
            ("a pipe", { XCTAssertEqual(Fixture.sh("mkfifo '\($0.path)/Story/Draft/pipe.md'"), 0) }, "“Draft/pipe.md”"),
            (
                "a link",
                {
                    try FileManager.default.createSymbolicLink(
                        atPath: $0.path + "/Story/Draft/l.md", withDestinationPath: "/etc/passwd")
                }, "“Draft/l.md”: it is a symbolic link"
            ),
            ("binary", { try Data([0x50, 0, 0x4e]).write(to: $0.url("Story/Draft/cover.png")) }, "it is not text"),
            (
                "not UTF-8", { try Data([0x61, 0xff, 0x62]).write(to: $0.url("Story/Draft/latin.md")) },
                "it is not UTF-8 text"
            ),
            (
                "huge", { XCTAssertEqual(Fixture.sh("truncate -s 17M '\($0.path)/Story/Draft/huge.md'"), 0) },
                "larger than 16777216 bytes"
            ),
        ]
        for (what, make, expected) in cases {
            let (fx, cli) = try story()
            try make(fx)
            let r = cli.run(["compile", "Story", "--to", "markdown"], in: fx.path)
            XCTAssertEqual(r.status, 1, what)
            XCTAssertTrue(r.stderr.contains(expected), "\(what): \(r.stderr)")
            XCTAssertEqual(fx.listing("Story/Compiled", includeHidden: true), [], what)
        }
    }

    func testMissingOrFailingPandocWritesNothing() throws {
        let (fx, cli) = try story()
        let bare = try Fixture("bin/\n")
        for tool in ["python3", "env"] { _ = Fixture.sh("ln -s \"$(command -v \(tool))\" '\(bare.path)/bin/\(tool)'") }
        var r = cli.run(["compile", "Story"], in: fx.path, environment: ["PATH": bare.path + "/bin"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("needs pandoc, which is not installed"), r.stderr)
        XCTAssertTrue(r.stderr.contains("apt-get install pandoc"), r.stderr)
        try write(bare, "bin/pandoc", "#!/bin/sh\necho 'pandoc: out of paper' >&2\necho half > \"$6\"\nexit 3\n")
        XCTAssertEqual(Fixture.sh("chmod +x '\(bare.path)/bin/pandoc'"), 0)
        r = cli.run(["compile", "Story"], in: fx.path, environment: ["PATH": bare.path + "/bin:/usr/bin:/bin"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("pandoc failed (exit status 3): pandoc: out of paper"), r.stderr)
        XCTAssertEqual(fx.listing("Story/Compiled", includeHidden: true), [], "no half-written output")
        r = cli.run(["compile", "Story", "--to", "pdf"], in: fx.path, environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("PDF needs a PDF engine"), r.stderr)
    }

    func testRecipeFilesAreReadUntrusted() throws {
        let (fx, cli) = try story()
        try write(
            fx, "Story/.carrel/recipes/beta.json",
            "{\"base\":\"manuscript\",\"format\":\"markdown\",\"fileTitles\":true,\"separator\":\"~\"}")
        var r = cli.run(["compile", "Story", "--recipe", "beta", "--json"], in: fx.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try String(contentsOfFile: fx.path + "/Story/Compiled/Story (beta).md", encoding: .utf8)
        assertInOrder(text, ["# 1 Opening", "The sea", "~", "# 2 Storm", "The storm"])
        try write(fx, "Story/.carrel/recipes/bad.json", "{\"folders\":[\"../../etc\"]}")
        r = cli.run(["compile", "Story", "--recipe", "bad"], in: fx.path)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("“bad”") && r.stderr.contains("“folders” must be"), r.stderr)
        XCTAssertEqual(Fixture.sh("mkfifo '\(fx.path)/Story/.carrel/recipes/pipe.json'"), 0)
        r = cli.run(["compile", "Story", "--recipe", "pipe"], in: fx.path)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("“pipe”"), r.stderr)
        r = cli.run(["compile", "Story", "--recipe", "nope"], in: fx.path)
        XCTAssertTrue(r.stderr.contains("no compile recipe “nope”"), r.stderr)
    }
}
