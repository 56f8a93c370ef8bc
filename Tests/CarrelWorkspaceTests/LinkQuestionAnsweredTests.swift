import CarrelModel
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

@testable import CarrelStore
@testable import CarrelWorkspace

/// A link question answered with "Update Links" is never asked again: the
/// edits' record names the question it answers, so a stop after that
/// record is durable, before the question's own record went, leaves a
/// question the next open knows is answered. Planted as the records a
/// stopped Carrel leaves, then opened.
final class LinkQuestionAnsweredTests: StateFolderTestCase {
    /// A pid no process has: the records' writer stopped.
    static let stoppedWriter = "999999999"

    /// Ada.md was renamed to "Ada Lovelace.md": the move is done, its links not yet.
    lazy var fx: Fixture! = try? Fixture(LinkUpdateRecoveryTests.tree)

    var links: String { state.path + "/carrel/links" }
    var records: [String] { state.listing("carrel/links", includeHidden: true) }

    /// The question of the rename, as a stopped Carrel left it; its file name.
    func plantQuestion() throws -> String {
        let question = LinkQuestionRecord(
            library: fx.realPath, from: ["P", "Characters", "Ada.md"], to: ["P", "Characters", "Ada Lovelace.md"])
        XCTAssertNotNil(question.write(for: fx.realPath))
        let written = try XCTUnwrap(records.first { $0.hasPrefix("question-") })
        let name = LinkQuestionRecord.prefix(fx.realPath) + "\(Self.stoppedWriter)-1-1.json"
        try FileManager.default.moveItem(atPath: links + "/" + written, toPath: links + "/" + name)
        return name
    }

    /// The edits' record of One.md as the answer wrote it, naming `answers`.
    func plantUpdate(answering answers: String) throws {
        let dir = try Directory.open(fx.bytes("P/Draft"))
        let read = try XCTUnwrap(dir.readText(Array("One.md".utf8)))
        let edit = TextEdit(start: 10, end: 30, newText: "../Characters/Ada%20Lovelace.md")
        let file = LinkUpdateRecord.File(
            path: ["P", "Draft", "One.md"], before: read.stamp, text: read.bytes, edits: [edit])
        let encoded = LinkUpdateRecord(library: fx.realPath, files: [file]).encoded()
        var fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(encoded)) as? [String: Any])
        fields["answers"] = answers
        let name = LinkUpdateRecord.prefix(fx.realPath) + "\(Self.stoppedWriter)-2-2.json"
        try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: links + "/" + name))
    }

    func testAQuestionWhoseEditsWereRecordedIsNotAskedAgain() throws {
        let question = try plantQuestion()
        try plantUpdate(answering: question)
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada%20Lovelace.md).", "the update finished")
        XCTAssertEqual(ws.leftLinkQuestions.count, 0, "the question was answered")
        XCTAssertEqual(records, [], "both records went")
    }

    /// A record naming what is not a question of this library removes
    /// nothing: the question left is asked again, as before.
    func testARecordNamingAnotherLibrarysQuestionRemovesNothing() throws {
        let question = try plantQuestion()
        let other = "question-0123456789abcdef-\(Self.stoppedWriter)-1-1.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: links + "/" + other))
        try plantUpdate(answering: other)
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(ws.leftLinkQuestions.count, 1)
        XCTAssertEqual(records.sorted(), [other, question].sorted())
    }

    /// `answers` is only ever a question's name in the same folder: any
    /// other refuses the record, which is named and touches nothing.
    func testARecordWhoseAnswersIsAPathIsRefused() throws {
        let question = try plantQuestion()
        try plantUpdate(answering: "question-x/../../../" + question)
        let ws = Workspace()
        ws.addLibrary(fx.bytes())
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada.md).", "nothing touched")
        XCTAssertEqual(ws.leftLinkQuestions.count, 1)
        XCTAssertTrue(ws.notices.contains { if case .linkRecordRefused = $0 { true } else { false } })
    }

    /// Live: the question's record goes as the edits' record is written.
    func testWritingTheEditsDropsTheQuestionTheyAnswer() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel"}
            P/Characters/Ada.md = # Ada
            P/Draft/One.md = See [Ada](../Characters/Ada.md).
            """)
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        let ada = try ws.locate(fx.bytes("P/Characters/Ada.md"), uri: fx.uri("P/Characters/Ada.md"))
        let plan = try ws.planRename(ada, to: "Ada Lovelace")
        let question = try XCTUnwrap(ws.recordLinkQuestion(plan))
        XCTAssertEqual(records.filter { $0.hasPrefix("question-") }.count, 1)
        let snapshot = ws.linkSnapshot(library)
        _ = try ws.rename(ada, to: "Ada Lovelace")
        let fixes = ws.linkEdits(after: LinkMove(from: plan.from, to: plan.to), in: library, since: snapshot)
        XCTAssertEqual(ws.writeLinkEdits(fixes, in: library, answering: question).written, 1)
        XCTAssertEqual(fx.read("P/Draft/One.md"), "See [Ada](../Characters/Ada%20Lovelace.md).")
        XCTAssertEqual(records, [], "the question went with the edits' record")
    }
}
