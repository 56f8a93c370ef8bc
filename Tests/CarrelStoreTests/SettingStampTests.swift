import CarrelJSON
import CarrelModel
import CarrelStore
import XCTest

/// Every stamp a project.json can hold, honest or not, against a writer's
/// change and a clear: nothing traps, a change sorts after what it
/// replaces, and no stamp written leaves the range a clock can read.
final class SettingStampTests: XCTestCase {
    static let latest = 253_402_300_799_999
    static let now: Int64 = 1_763_815_800_000

    /// What each stored `changed` makes of a sort changed at `now` and of a
    /// target cleared: the stamps written.
    func stamps(_ stored: JSONValue) throws -> (changed: Int?, cleared: Int?) {
        let raw: [String: JSONValue] = [
            "type": "poetry", "sort": ["by": ["changed": stored, "value": "name"]],
            "targets": ["Draft/a.md": ["changed": stored, "value": 500]],
        ]
        var meta = try ProjectFile.decode(raw)
        meta.sort = SortSetting(by: .modified)
        meta.targets = [:]
        let out = ProjectFile.encode(meta, over: raw, now: Self.now)
        XCTAssertEqual(out["sort"]?["by"]?["value"], "modified")
        XCTAssertEqual(out["targets"]?["Draft/a.md"]?["value"], .null)
        return (out["sort"]?["by"]?["changed"]?.intValue, out["targets"]?["Draft/a.md"]?["changed"]?.intValue)
    }

    func testAChangeSortsAfterAnyStampAClockCouldWrite() throws {
        let table: [(JSONValue, changed: Int, cleared: Int)] = [
            (5, Int(Self.now), 6),
            (.int(Int(Self.now) + 60_000), Int(Self.now) + 60_001, Int(Self.now) + 60_001),
            (.int(Self.latest - 1), Self.latest, Self.latest),
            (.int(Self.latest), Self.latest, Self.latest),
        ]
        for (stored, changed, cleared) in table {
            let written = try stamps(stored)
            XCTAssertEqual(written.changed, changed, "\(stored)")
            XCTAssertEqual(written.cleared, cleared, "\(stored)")
        }
    }

    /// A stamp no clock wrote (past the year 9999, negative, not a whole
    /// number) reads as never changed.
    func testAStampNoClockWroteReadsAsNeverChanged() throws {
        let noClock: [JSONValue] = [.int(Self.latest + 1), .int(.max), .int(.min), -1, .double(1e300), 1.5, "soon"]
        for stored in noClock {
            let written = try stamps(stored)
            XCTAssertEqual(written.changed, Int(Self.now), "\(stored)")
            XCTAssertEqual(written.cleared, 1, "\(stored)")
        }
    }
}
