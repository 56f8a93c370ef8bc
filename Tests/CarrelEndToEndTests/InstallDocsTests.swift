import CarrelTestSupport
import Foundation
import XCTest

/// A newcomer's install steps: the same command in every README, and it
/// works on a machine without `~/.local/bin`. The licence is named the
/// same way everywhere.
final class InstallDocsTests: XCTestCase {
    static let top: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let readmes = ["README.md", "editors/nvim/README.md", "editors/emacs/README.md", "editors/vscode/README.md"]

    func text(_ relative: String) throws -> String {
        try String(contentsOf: Self.top.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The lines of the first shell block that installs `carrel`, unindented.
    func installBlock(_ readme: String) throws -> [String] {
        let lines = try text(readme).components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let install = lines.firstIndex(where: { $0.hasPrefix("install ") && $0.contains("carrel") }),
            let start = lines[..<install].lastIndex(of: "```sh"),
            let end = lines[install...].firstIndex(of: "```")
        else { return [] }
        return Array(lines[(start + 1)..<end])
    }

    func testEveryReadmeGivesTheSameInstallCommand() throws {
        let main = try installBlock("README.md")
        XCTAssertFalse(main.isEmpty, "README.md has no install block")
        for readme in Self.readmes {
            XCTAssertEqual(try installBlock(readme), main, readme)
        }
    }

    func testTheInstallCommandWorksWithoutLocalBin() throws {
        let home = try Fixture()
        guard let line = try installBlock("README.md").first(where: { $0.hasPrefix("install ") }) else {
            return XCTFail("no install line")
        }
        XCTAssertFalse(home.exists(".local"))
        // The built binary stands in for the release build.
        let command = line.replacingOccurrences(of: ".build/release/carrel", with: ProcessClient.binary)
        let status = Fixture.sh("HOME='\(home.path)' && cd \"$HOME\" && \(command)")
        XCTAssertEqual(status, 0, command)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: home.path + "/.local/bin/carrel"))
        let version = Fixture.sh("'\(home.path)/.local/bin/carrel' --version >/dev/null")
        XCTAssertEqual(version, 0)
    }

    func testTheLicenceIsMITEverywhere() throws {
        let readme = try text("README.md")
        XCTAssertTrue(readme.contains("## Licence\n"))
        XCTAssertTrue(readme.contains("MIT License\n\nCopyright (c) 2026 The Carrel authors\n"))
        XCTAssertTrue(try text("editors/vscode/package.json").contains("\"license\": \"MIT\""))
        let el = try text("editors/emacs/carrel.el")
        XCTAssertTrue(el.contains(";; Copyright (C) 2026 The Carrel authors\n;; SPDX-License-Identifier: MIT\n"))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: Self.top.appendingPathComponent("LICENSE").path),
            "the top level holds only Package.swift, Sources, Tests, editors, README.md and dotfiles")
    }
}
