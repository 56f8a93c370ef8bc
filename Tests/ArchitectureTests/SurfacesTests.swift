import Foundation
import XCTest

/// The rest of the "Adding a command" checklist (Sources/ARCHITECTURE.md),
/// held against the code that declares each surface, so no list kept by
/// hand can fall behind it: the CLI's `Syntax.all` against its help and the
/// README, `Report` against PROTOCOL.md and its tests, and each plugin's
/// keymap against its README and PROTOCOL's key table. Files are read as
/// text: this target depends on nothing.
final class SurfacesTests: XCTestCase {
    func read(_ path: String) throws -> String {
        try String(contentsOf: ModuleMapTests.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every capture of `pattern`'s groups in `text`, between `start` and the next `end`.
    func captures(_ pattern: String, in text: String, from start: String? = nil, to end: String? = nil) -> [[String]] {
        var body = Substring(text)
        if let start, let s = body.range(of: start) { body = body[s.upperBound...] }
        if let end, let e = body.range(of: end) { body = body[..<e.lowerBound] }
        let regex = try! NSRegularExpression(pattern: pattern)
        let string = String(body)
        return regex.matches(in: string, range: NSRange(string.startIndex..., in: string)).map { match in
            (1..<match.numberOfRanges).map { Range(match.range(at: $0), in: string).map { String(string[$0]) } ?? "" }
        }
    }

    /// Lines of a Markdown table in `text`.
    func tableLines(_ text: String) -> [Substring] { text.split(separator: "\n").filter { $0.hasPrefix("|") } }

    func testEveryCLISubcommandHasItsHelpItsOverviewLineAndAREADMELine() throws {
        let subcommands = captures(#"\n        "([a-z-]+)": Syntax\("#, in: try read("Sources/carrel/CLI.swift"))
            .map { $0[0] }
        XCTAssertGreaterThanOrEqual(subcommands.count, 15, "Syntax.all was not read: \(subcommands)")
        let help = try read("Sources/carrel/Help.swift")
        let readme = try read("README.md")
        for sub in subcommands {
            XCTAssertTrue(help.contains("\n          \(sub) "), "carrel --help lists no \(sub) (Help.overview)")
            XCTAssertTrue(help.contains("\"\(sub)\": \"\"\""), "carrel help \(sub) says nothing (Help.subcommands)")
            XCTAssertTrue(help.contains("USAGE: carrel \(sub)"), "carrel help \(sub) gives no usage")
            XCTAssertTrue(readme.contains("carrel \(sub)"), "README.md's CLI section never shows carrel \(sub)")
        }
    }

    /// Each report's words, found in PROTOCOL's report table and in a test
    /// that makes the server send it: some fixed piece of its text (between
    /// interpolations) appears in each.
    func testEveryReportIsDocumentedAndTested() throws {
        let source = try read("Sources/CarrelModel/Report.swift")
        let cases = captures(#"\n    case ([a-zA-Z]+)"#, in: source).map { $0[0] }
        XCTAssertGreaterThanOrEqual(cases.count, 10, "Report was not read: \(cases)")
        let protocolDoc = try read("editors/PROTOCOL.md")
        let tests = try read("Tests/CarrelServerTests/ReportsTests.swift")
        for name in cases {
            guard let start = source.range(of: "case .\(name)") else {
                XCTFail("Report.\(name) has no text")
                continue
            }
            var block = source[start.upperBound...]
            if let next = block.range(of: "case .") { block = block[..<next.lowerBound] }
            let literals: [String] = captures(#""([^"]*)""#, in: String(block)).map { $0[0] }
            var pieces: [String] = []
            for literal in literals {
                for part in literal.components(separatedBy: #"\("#) {
                    let fixed = part.split(separator: ")", maxSplits: 1, omittingEmptySubsequences: false).last
                    if let fixed, fixed.count >= 8 { pieces.append(String(fixed)) }
                }
            }
            XCTAssertTrue(
                pieces.contains { protocolDoc.contains($0) }, "PROTOCOL.md's report table never shows Report.\(name)")
            XCTAssertTrue(pieces.contains { tests.contains($0) }, "ReportsTests never sees Report.\(name)")
        }
    }

    func testEveryKeyOfEachTerminalPluginIsInItsREADMEAndTheSharedTable() throws {
        let nvim = captures(
            #"\['([^']+)'\] = '([a-z_]+)'"#, in: try read("editors/nvim/lua/carrel/init.lua"), from: "keys = {",
            to: "\n  },")
        let vim = captures(
            #"\['([^']+)', '([a-z]+)', '"#, in: try read("editors/vim/autoload/carrel/actions.vim"),
            from: "KEYS", to: "\n]")
        let emacs = captures(
            #"\(define-key map (?:\(kbd )?"([^"]+)"\)? #'carrel-([a-z-]+)\)"#, in: try read("editors/emacs/carrel.el"),
            from: "(defvar carrel-tree-mode-map")
        XCTAssertGreaterThanOrEqual(nvim.count, 20, "Neovim's keys were not read")
        XCTAssertGreaterThanOrEqual(emacs.count, 20, "Emacs's keys were not read")
        XCTAssertEqual(
            Set(nvim.map(\.[0])), Set(vim.map(\.[0])), "Neovim and Vim share one key table (PROTOCOL.md, Keys)")
        let keyTable = tableLines(try read("editors/PROTOCOL.md"))
        let nvimReadme = tableLines(try read("editors/nvim/README.md"))
        let vimReadme = tableLines(try read("editors/vim/README.md"))
        let emacsReadme = tableLines(try read("editors/emacs/README.md"))
        for pair in nvim {
            let key = "`\(pair[0])`"
            XCTAssertTrue(
                nvimReadme.contains { $0.contains(key) && $0.contains("`\(pair[1])`") },
                "editors/nvim/README.md has no row for \(pair[0]) (\(pair[1]))")
            XCTAssertTrue(keyTable.contains { $0.contains(key) }, "PROTOCOL.md's key table has no \(pair[0])")
        }
        for pair in vim {
            XCTAssertTrue(vimReadme.contains { $0.contains("`\(pair[0])`") }, "editors/vim/README.md has no \(pair[0])")
        }
        for pair in emacs {
            XCTAssertTrue(
                emacsReadme.contains { $0.contains("`\(pair[0])`") }, "editors/emacs/README.md has no \(pair[0])")
        }
    }
}
