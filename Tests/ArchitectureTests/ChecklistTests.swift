import Foundation
import XCTest

/// The "Adding a command" checklist of Sources/ARCHITECTURE.md, held where
/// a file can be read for it: every command `CarrelCommand.Name` declares
/// is named in each file that lists commands.
final class ChecklistTests: XCTestCase {
    /// Each file that must name every command, and why.
    static let filesNamingEveryCommand: [(path: String, why: String)] = [
        ("editors/PROTOCOL.md", "the contract documents it"),
        ("Tests/CarrelProtocolTests/GoldenTests.swift", "the initialize golden lists it"),
        ("Tests/CarrelServerTests/ServerTests.swift", "testCommandsFlow runs it"),
        ("Tests/CarrelEndToEndTests/HostileInputTests.swift", "the hostile tables send it"),
        ("Sources/carrel-torture/Torture+Commands.swift", "the crash harness kills the server during it"),
        ("editors/nvim/lua/carrel/actions.lua", "Neovim offers it"),
        ("editors/emacs/carrel.el", "Emacs offers it"),
        ("editors/vscode/lib/flows.js", "VS Code offers it"),
        ("editors/vim/autoload/carrel/actions.vim", "Vim offers it"),
    ]

    /// The wire names of `CarrelCommand.Name`, read from its source.
    static func commands() throws -> [String] {
        let text = try String(
            contentsOf: ModuleMapTests.root
                .appendingPathComponent("Sources/CarrelProtocol/Requests/CarrelCommand.swift"), encoding: .utf8)
        guard let start = text.range(of: "enum Name"), let end = text[start.upperBound...].range(of: "}") else {
            return []
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\"")
            return line.contains("case ") && parts.count >= 2 ? String(parts[1]) : nil
        }
    }

    func testEveryCommandIsNamedInEachFileThatListsCommands() throws {
        let commands = try Self.commands()
        XCTAssertGreaterThanOrEqual(commands.count, 9, "CarrelCommand.Name was not read: \(commands)")
        XCTAssertTrue(commands.contains("carrel.setSort"))
        for (path, why) in Self.filesNamingEveryCommand {
            let text = try String(contentsOf: ModuleMapTests.root.appendingPathComponent(path), encoding: .utf8)
            for command in commands
            where !(text.contains("\"\(command)\"") || text.contains("'\(command)'") || text.contains("`\(command)`")) {
                XCTFail("\(path) never names \(command), but \(why) (Sources/ARCHITECTURE.md, Adding a command)")
            }
        }
    }
}
