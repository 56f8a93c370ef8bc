import CarrelJSON
import CarrelRandom
import XCTest

@testable import CarrelStore

/// `ProjectFile.Rendering` keeps project.json in pieces and patches them;
/// whatever the order of changes, the bytes must be what a full encoding
/// of the JSON writes.
final class RenderingTests: XCTestCase {
    typealias Rendering = ProjectFile.Rendering

    func testPatchedRenderingsMatchAFullEncodingAfterEveryChange() {
        var random = SeededRandom(seed: 2026)  // so a failure replays
        func next(_ n: Int) -> Int { random.below(n) }
        let names = ["a", "b", "Chapter 1.md", "Chapter 10.md", "Chapter 2.md", "Zebra", "zebra", "é", "日記", "x y"]
        var json: [String: JSONValue] = [
            "type": .string("novel"), "version": .int(1), "created": .int(7),
            "folders": .object(["draft": .string("Draft")]), "trash": .object([:]), "zzz": .bool(true),
        ]
        var rendering: Rendering?
        for step in 0..<400 {
            var trash = json["trash"]!.objectValue!
            var changes = Rendering.Changes()
            for _ in 0...next(3) {
                let name = names[next(names.count)]
                if next(3) == 0, trash[name] != nil {
                    trash[name] = nil
                    changes.set.removeAll { $0.name == name }
                    changes.removed.append(name)
                } else {
                    let value = JSONValue.object(["from": .string("Draft/\(name)"), "deleted": .int(step)])
                    trash[name] = value
                    changes.removed.removeAll { $0 == name }
                    changes.set.removeAll { $0.name == name }
                    changes.set.append((name, value))
                }
            }
            json["trash"] = .object(trash)
            let (bytes, next) = Rendering.render(
                json, reusing: rendering, trashChanges: changes, onlyTrashChanged: true)
            var expected = JSONValue.object(json).encoded(pretty: true)
            expected.append(0x0A)
            XCTAssertEqual(bytes, expected, "step \(step)")
            if bytes != expected { return }
            rendering = next
        }
    }

    func testARenderingOfOtherKeysIsRedoneWhenTheyMayHaveChanged() {
        var json: [String: JSONValue] = [
            "type": .string("novel"), "trash": .object(["a": .object(["from": .string("a")])]),
        ]
        let (_, first) = Rendering.render(json, reusing: nil, trashChanges: nil)
        json["type"] = .string("poetry")
        let (bytes, _) = Rendering.render(
            json, reusing: first, trashChanges: Rendering.Changes(), onlyTrashChanged: false)
        XCTAssertEqual(bytes, JSONValue.object(json).encoded(pretty: true) + [0x0A])
    }
}
