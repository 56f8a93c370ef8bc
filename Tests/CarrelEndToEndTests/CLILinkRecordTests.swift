import CarrelTestSupport
import Foundation
import XCTest

/// The CLI's `rename` writes no link without its durable record, and when
/// the state folder cannot hold one it says so, in the writer's language.
final class CLILinkRecordTests: XCTestCase {
    func testARecordThatCannotBeWrittenIsNamedAsTheReason() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"novel","preferences":{"linkUpdates":{"changed":1,"value":"always"}}}
            P/Novel/Ada.md = Ada was born.
            P/Novel/One.md = Meet [Ada](Ada.md).
            """)
        let cli = try CLIRunner()
        // The state folder's `links` is a file: no record can be made in it.
        try FileManager.default.createDirectory(
            atPath: cli.sandbox.path + "/state/carrel", withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: cli.sandbox.path + "/state/carrel/links"))
        let r = cli.run(["rename", "P/Novel/Ada.md", "Ada L"], in: fx.path, environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            r.stderr.contains(
                "Les liens de “One.md” n’ont pas été mis à jour et pointent encore vers l’ancien emplacement : "
                    + "Carrel n’a pas pu écrire le relevé de la mise à jour dans son dossier d’état sur cet appareil"),
            r.stderr)
        XCTAssertEqual(fx.read("P/Novel/One.md"), "Meet [Ada](Ada.md).")
    }
}
