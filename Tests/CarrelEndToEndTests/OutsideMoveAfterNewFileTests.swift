import CarrelJSON
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// A file another program renames into a sibling folder right after Carrel
/// made it, as a writer's script or file manager may, reaches clients as one
/// `moved`, so an open buffer follows. The server reads the file's folder
/// for the events of its own `newFile` (the file's close is no event it
/// expects); when that read comes after the rename, the folder already
/// lacks the file while the rename's events are still to be read.
final class OutsideMoveAfterNewFileTests: ProcessLibraryTestCase {
    var project = ""

    override func setUpWithError() throws {
        try serve("")
        let made = try c.command(
            "carrel.newProject", ["parentUri": .string(fx.uri()), "name": "Poems", "type": "poetry"])
        project = try XCTUnwrap(made["result"]?["uri"]?.stringValue, "\(made)")
    }

    /// Every change clients were told about `name` after its creation,
    /// until its move arrived (or 5 s passed).
    func changes(about name: String) -> [JSONValue] {
        let made = "\(project)/Draft/\(name)"
        var seen: [JSONValue] = []
        let end = Date().addingTimeInterval(5)
        while Date() < end, !seen.contains(where: { $0["type"] == "moved" }) {
            let told = try? c.inbox.take("carrel/didChange", timeout: max(0.01, end.timeIntervalSinceNow)) {
                $0["method"] == "carrel/didChange"
            }
            guard let told else { break }
            let all = told["params"]?["changes"]?.arrayValue ?? []
            seen += all.filter {
                $0["uri"]?.stringValue?.hasSuffix("/\(name)") == true
                    && !($0["type"] == "created" && $0["uri"]?.stringValue == made)
            }
        }
        return seen
    }

    /// Busy threads on every core, as when other builds and tests share the
    /// machine: the server's watcher and work threads then wait for a core,
    /// and its read of the folder lands after the rename.
    func underLoad(_ body: () throws -> Void) rethrows {
        let stop = StopFlag()
        let hogs = (0..<max(2, ProcessInfo.processInfo.activeProcessorCount)).map { _ in
            Thread {
                var x: UInt64 = 1
                while !stop.isSet { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                _ = x
            }
        }
        for hog in hogs { hog.start() }
        defer { stop.set() }
        try body()
    }

    func testAFileRenamedRightAfterItWasMadeIsMoved() throws {
        try underLoad {
            for i in 0..<20 {
                let name = "Spring\(i).md"
                _ = try c.command("carrel.newFile", ["parentUri": .string("\(project)/Draft"), "name": .string(name)])
                XCTAssertEqual(
                    rename(fx.path + "/Poems/Draft/" + name, fx.path + "/Poems/Ready/" + name), 0, "rename \(name)")
                let told = changes(about: name)
                XCTAssertEqual(
                    told.map { $0["type"]?.stringValue ?? "" }, ["moved"], "run \(i): \(told.map { $0.text() })")
                XCTAssertEqual(told.first?["oldUri"]?.stringValue, "\(project)/Draft/\(name)")
            }
        }
    }
}

/// A flag one thread sets and others poll.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
