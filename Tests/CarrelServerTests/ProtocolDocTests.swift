import CarrelJSON
import CarrelModel
import CarrelProtocol
import CarrelServer
import CarrelTestSupport
import Foundation
import XCTest

/// editors/PROTOCOL.md must stay true to the code: everything the code can
/// send or accept is documented there, and its examples use real values.
final class ProtocolDocTests: XCTestCase {
    var doc: String!

    override func setUpWithError() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        doc = try String(contentsOf: url.appendingPathComponent("editors/PROTOCOL.md"), encoding: .utf8)
    }

    func testEveryCommandMethodAndReasonIsDocumented() {
        for command in InitializeRequest.commands { XCTAssertTrue(doc.contains("`\(command)`"), command) }
        for method in [
            InitializeRequest.method, ShutdownRequest.method, ExitNotification.method, InitializedNotification.method,
            CancelRequestNotification.method, DidChangeWorkspaceFoldersNotification.method, TreeRequest.method,
            WorkspaceSymbolRequest.method, ExecuteCommandRequest.method, ShowMessageRequest.method,
            DidChangeNotification.method, DidOpenTextDocumentNotification.method,
            DidChangeTextDocumentNotification.method, DidCloseTextDocumentNotification.method,
            DocumentSymbolRequest.method, InlayHintRequest.method, InlayHintRefreshRequest.method,
            CompileOptionsRequest.method,
            SubmissionsRequest.method, MarketRequest.method,
        ] {
            XCTAssertTrue(doc.contains(method), method)
        }
        for reason in Reason.allCases where reason != .invalidParams {
            XCTAssertTrue(doc.contains(#""data":{"reason":"\#(reason.rawValue)"}"#), "no error example for \(reason)")
        }
        for code in [-32700, -32600, -32601, -32602, -32002, -32800, -32803] {
            XCTAssertTrue(doc.contains("| \(code) |"), "\(code)")
        }
    }

    func testEveryRoleIconAndTypeIsDocumented() {
        for type in ProjectType.all {
            XCTAssertTrue(doc.contains(type.id), type.id)
            for folder in type.folders {
                XCTAssertTrue(doc.contains("`\(folder.role.rawValue)`"), folder.role.rawValue)
                XCTAssertTrue(doc.contains("`\(folder.icon)`"), folder.icon)
            }
        }
        for icon in [Icon.folder, Icon.file, Icon.project, Icon.library] {
            XCTAssertTrue(doc.contains("`\(icon)`"), icon)
        }
    }

    func testErrorExamplesUseRealReasonsAndMessages() throws {
        let lines = doc.split(separator: "\n").filter { $0.hasPrefix(#"{"code":"#) }
        XCTAssertGreaterThanOrEqual(lines.count, 12)
        let english = englishMessageStarts()
        for line in lines {
            let json = try JSONParser.parse(String(line))
            let message = try XCTUnwrap(json["message"]?.stringValue)
            if let reason = json["data"]?["reason"]?.stringValue { XCTAssertNotNil(Reason(rawValue: reason), reason) }
            XCTAssertTrue(
                english.contains { message.hasPrefix($0) || message.contains($0) }, "no such message: \(message)")
        }
    }

    /// The documented refusals of `carrel.setTarget` are the server's own
    /// replies, code and reason included.
    func testTargetRefusalExamplesAreWhatTheServerSends() throws {
        let home = try Fixture()
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        defer { unsetenv("XDG_STATE_HOME") }
        let fx = try Fixture("My Poems/.carrel/project.json = {\"type\":\"poetry\"}\nMy Poems/Draft/\nnotes.md = n")
        let client = InProcessClient()
        _ = try client.initialize([fx.uri()])
        let examples = doc.split(separator: "\n").filter { $0.hasPrefix(#"{"code":"#) }.compactMap {
            try? JSONParser.parse(String($0))
        }
        for (item, field) in [("notes.md", "words"), ("My Poems/Draft", "session")] {
            let sent = try XCTUnwrap(
                client.command("carrel.setTarget", ["uri": .string(fx.uri(item)), .init(stringLiteral: field): 10])[
                    "error"])
            let documented = examples.first { $0["message"] == sent["message"] }
            XCTAssertEqual(documented, sent, "the example of \(sent["message"] ?? .null)")
        }
    }

    func testInitializeExampleMatchesTheServer() throws {
        let result = InitializeRequest.result(version: "0.1.0", vocabulary: Server.vocabulary(.english)).text()
        let compact = doc.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
        let capabilities = result.replacingOccurrences(of: " ", with: "")
        XCTAssertTrue(
            compact.contains(String(capabilities.dropFirst().dropLast())),
            "the initialize example drifted from the code")
    }

    func testWhatStockClientsRelyOnIsDocumentedAsTheCodeDoesIt() {
        XCTAssertTrue(doc.contains("`initializationOptions.confirmationTimeout`"))
        XCTAssertTrue(
            doc.contains("default \(Int(InitializeRequest.defaultConfirmationTimeout))"), "the timeout's default")
        let firstQuestion = #""id":\#(Server.firstOutgoingID),"method":"window/showMessageRequest""#
        XCTAssertTrue(doc.contains(firstQuestion), "the first question id")
        let actions = [Message.actionCancel, .actionDelete, .actionDeleteDontAsk].map {
            #"{"title":"\#($0.text(.english))"}"#
        }
        XCTAssertTrue(doc.contains(#""actions":[\#(actions.joined(separator: ","))]"#), "the action order")
        let timedOut = Message.confirmationTimedOut(seconds: 30).text(.english)
        XCTAssertTrue(doc.contains(#""message":"\#(timedOut)","data":{"reason":"cancelled"}"#), "the timeout's message")
    }

    /// A fixed fragment of each message, for matching documented examples.
    func englishMessageStarts() -> [String] {
        let samples: [Message] = [
            .nameHasSlash, .nameTaken(name: "\u{1}", parent: "\u{1}"), .permanentFolder(name: "\u{1}"),
            .notFound(path: "\u{1}"),
            .outsideWorkspace(uri: "\u{1}"), .intoItself(name: "\u{1}"), .notInTrash(name: "\u{1}"), .cancelled,
            .conflict(path: "\u{1}"), .appeared(name: "\u{1}", parent: "\u{1}"),
            .unsupportedVersion(path: "\u{1}", version: 9, known: 1), .io(path: "\u{1}", detail: "\u{1}"),
            .invalidParam(field: "\u{1}", expected: "a string", found: "number"),
            .unusableEntry(path: "\u{1}", found: .pipe, expected: .file),
            .unusableEntry(path: "\u{1}", found: .link, expected: .folder),
            .fileTooLarge(path: "\u{1}", limit: 1 << 24),
            .trashRecordNotWritten(name: "\u{1}", path: "\u{1}", detail: "\u{1}"),
            .unusableTrashRecord(name: "\u{1}", origin: "\u{1}"),
            .originTooDeep(name: "\u{1}", depth: 1500, limit: 64),
            .reorderNotSibling(name: "\u{1}", anchor: "\u{1}", folder: "\u{1}"), .reorderItself(name: "\u{1}"),
            .reorderInTrash(name: "\u{1}"), .reorderPermanent(name: "\u{1}"), .reorderPosition,
            .intoOtherProjectsTrash(name: "\u{1}", project: "\u{1}"), .intoTrashedFolder(name: "\u{1}"),
            .targetOutsideProject(name: "\u{1}"), .sessionTargetOnProject(name: "\u{1}"),
            .undoItemChanged(path: "\u{1}"), .undoItemGone(path: "\u{1}"), .undoStepOutsideLibrary(path: "\u{1}"),
            .undoLinksChanged(path: "\u{1}"), .undoLinksInEditor(path: "\u{1}"), .undoLinksNotRecorded,
            .duplicateInTrash(name: "\u{1}"), .duplicatePermanent(name: "\u{1}"), .duplicateProject(name: "\u{1}"),
            .duplicateLibrary(name: "\u{1}"), .copyTooMany(name: "\u{1}", limit: 50_000),
            .invalidParam(field: "\u{1}", expected: "a positive integer up to 100000000, or null", found: "number"),
            .invalidParam(field: "\u{1}", expected: TreeRequest.Params.pageOnly, found: "number"),
            .compile(.pieceUnusable(path: "\u{1}", why: .binary)), .compile(.pandocMissing(format: "\u{1}")),
            .compile(.noPDFEngine), .compile(.noRoom(folder: "\u{1}", why: "\u{1}")),
            .snapshot(.outsideProject(name: "\u{1}")), .snapshot(.tooLarge(name: "\u{1}", limit: 1 << 24)),
            .snapshot(.titleUnusable(title: "\u{1}")), .snapshot(.noSuchSnapshot(name: "\u{1}", snapshot: "\u{1}")),
            .snapshot(.snapshotUnusable(snapshot: "\u{1}", why: .notAFile(.link))),
            .snapshot(.unsavedChanges(name: "\u{1}")), .snapshot(.changedMeanwhile(name: "\u{1}")),
            .submission(.notAMarket(name: "\u{1}")), .submission(.pieceElsewhere(name: "\u{1}", project: "\u{1}")),
            .submission(.recordNotFound(id: "\u{1}")),
        ]
        return samples.map { m in
            let text = m.text(.english)
            let parts = text.split(separator: "\u{1}").map(String.init)
            return parts.max { $0.count < $1.count } ?? text
        }
    }
}
