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

    /// A writer without Swift installs a release: the top README says so
    /// next to its two commands, and every editor's README in its Install
    /// section, by the names `.ci/release` gives the files.
    func testEveryReadmeSaysHowToInstallARelease() throws {
        let release = try text(".ci/release")
        XCTAssertTrue(release.contains("deb=\"carrel_${version}_${arch}.deb\""))
        XCTAssertTrue(release.contains("vsix=\"carrel-${version}-${platform}.vsix\""))
        XCTAssertTrue(release.contains("amd64) platform=linux-x64"))
        let deb = "sudo dpkg -i carrel_VERSION_amd64.deb"
        let vsix = "code --install-extension carrel-VERSION-linux-x64.vsix"
        let main = try text("README.md")
        let tryIt = try XCTUnwrap(main.components(separatedBy: "## Install\n").first)
        XCTAssertTrue(tryIt.contains("`\(deb)`"), "Try it names the Debian package")
        XCTAssertTrue(main.contains(deb) && main.contains(vsix))
        for readme in ["editors/nvim/README.md", "editors/vim/README.md", "editors/emacs/README.md"] {
            let install = try XCTUnwrap(try text(readme).components(separatedBy: "## Install\n").last)
            XCTAssertTrue(install.hasPrefix("\n**From a release** (no Swift needed): `\(deb)`"), readme)
        }
        XCTAssertTrue(try text("editors/vscode/README.md").contains(vsix))
    }

    /// Where the README says the package puts each plugin is where
    /// `.ci/release` puts it.
    func testThePackagePathsAreTheRelease() throws {
        let release = try text(".ci/release")
        let main = try text("README.md")
        for path in [
            "/usr/share/vim/vimfiles/pack/carrel/start/carrel", "/usr/share/nvim/site/pack/carrel/start/carrel",
            "/usr/share/emacs/site-lisp/carrel", "/etc/emacs/site-start.d/50carrel.el",
        ] {
            XCTAssertTrue(main.contains("`\(path)`"), "README.md names \(path)")
            XCTAssertTrue(release.contains(path), ".ci/release writes \(path)")
        }
        XCTAssertTrue(release.contains("install -D -m 755 \"$out/carrel\" \"$root/usr/bin/carrel\""))
    }

    /// The MELPA recipe and the plugin managers' `rtp` name folders that exist.
    func testThePluginManagersNameRealFolders() throws {
        let emacs = try text("editors/emacs/README.md")
        XCTAssertTrue(emacs.contains(":files (\"editors/emacs/carrel.el\")"))
        XCTAssertTrue(emacs.contains("package-install-file"))
        let el = Self.top.appendingPathComponent("editors/emacs/carrel.el").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: el))
        XCTAssertTrue(try text("editors/vim/README.md").contains("{ 'rtp': 'editors/vim' }"))
        let nvim = try text("editors/nvim/README.md")
        XCTAssertTrue(nvim.contains("{ 'rtp': 'editors/nvim' }"))
        XCTAssertTrue(nvim.contains("vim.opt.rtp:append(plugin.dir .. '/editors/nvim')"))
        for plugin in ["editors/vim/plugin/carrel.vim", "editors/nvim/plugin/carrel.lua"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.top.appendingPathComponent(plugin).path), plugin)
        }
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
