import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Two real `carrel lsp` processes on one library get
/// conflicting commands at the same moment, while a shell script moves,
/// creates and deletes files. Afterwards nothing is lost or duplicated, every
/// refusal has a clear reason, neither server's Trash records were lost, and
/// both servers' trees converge to the disk.
struct NeverSeen: Error { let path: String }

final class ConcurrencyTests: XCTestCase {
    func testTwoServersAndAShellRaceOnOneLibrary() throws {
        let home = try Fixture()
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/
            """)
        let env = ["XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path]
        let a = try ProcessClient(environment: env)
        let b = try ProcessClient(environment: env)
        _ = try a.initialize([fx.uri()])
        _ = try b.initialize([fx.uri()])

        // Another program works in the same project all along.
        let script = """
            cd '\(fx.path)/P' || exit 1
            i=0
            while [ $i -lt 300 ]; do
              echo "shell $i" > "Ready/ext$i.md"
              mkdir -p "Published/dir$i"
              mv "Ready/ext$i.md" "Set Aside/ext$i.md"
              mv "Set Aside/ext$i.md" "Published/dir$i/"
              [ $i -ge 5 ] && rm -r "Published/dir$((i - 5))"
              i=$((i + 1))
            done
            """
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script]
        try shell.run()

        var contents: [String: String] = [:]  // content → where it started
        var refusals: [String: Int] = [:]
        let allowed: Set<String> = ["nameTaken", "conflict", "notFound", "intoItself"]
        func check(_ r: JSONValue, _ what: String) -> Bool {
            guard let e = r["error"] else { return true }
            let reason = e["data"]?["reason"]?.stringValue ?? "none"
            refusals[reason, default: 0] += 1
            XCTAssertEqual(e["code"], -32803, "\(what): \(r.text())")
            XCTAssertTrue(allowed.contains(reason), "\(what): refused without a clear reason: \(r.text())")
            XCTAssertFalse(e["message"]?.stringValue?.isEmpty ?? true, "\(what): no message")
            return false
        }
        func send(_ c: ProcessClient, _ command: String, _ args: JSONValue) -> Int {
            let id = c.nextID()
            c.send([
                "jsonrpc": "2.0", "id": .int(id), "method": "workspace/executeCommand",
                "params": ["command": .string(command), "arguments": [args]],
            ])
            return id
        }
        func seen(_ rel: String, by c: ProcessClient) throws {
            let deadline = Date().addingTimeInterval(10)
            while try c.request("carrel/tree", ["uri": .string(fx.uri(rel)), "depth": 0])["result"] == nil {
                guard Date() < deadline else { throw NeverSeen(path: rel) }
                usleep(10_000)
            }
        }

        let rounds = 15
        for r in 0..<rounds {
            // Made by hand, so both servers learn of it from their watchers.
            for (rel, text) in [
                ("A\(r)/a.md", "a\(r)"), ("B\(r)/b.md", "b\(r)"), ("V\(r)/v.md", "v\(r)"),
                ("x\(r).md", "x\(r)"), ("y\(r).md", "y\(r)"), ("ta\(r).md", "ta\(r)"), ("tb\(r).md", "tb\(r)"),
            ] {
                try FileManager.default.createDirectory(
                    atPath: (fx.path + "/P/Draft/" + rel as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true)
                try text.write(toFile: fx.path + "/P/Draft/" + rel, atomically: false, encoding: .utf8)
                contents[text] = rel
            }
            for c in [a, b] {
                for rel in ["A\(r)/a.md", "B\(r)/b.md", "V\(r)/v.md", "x\(r).md", "y\(r).md", "ta\(r).md", "tb\(r).md"]
                { try seen("P/Draft/" + rel, by: c) }
            }
            let d = { (rel: String) -> JSONValue in .string(fx.uri("P/Draft/" + rel)) }
            // All at once: the same new name; A into B while B into A; a folder
            // deleted while the other creates inside it; two deletes whose
            // Trash records both must survive.
            let ids = [
                (
                    a, send(a, "carrel.rename", ["uri": d("x\(r).md"), "newName": .string("same\(r).md")]),
                    "rename x → same"
                ),
                (
                    b, send(b, "carrel.rename", ["uri": d("y\(r).md"), "newName": .string("same\(r).md")]),
                    "rename y → same"
                ),
                (a, send(a, "carrel.moveTo", ["uri": d("A\(r)"), "destinationUri": d("B\(r)")]), "A into B"),
                (b, send(b, "carrel.moveTo", ["uri": d("B\(r)"), "destinationUri": d("A\(r)")]), "B into A"),
                (a, send(a, "carrel.delete", ["uri": d("V\(r)"), "confirmed": true]), "delete V"),
                (b, send(b, "carrel.newFile", ["parentUri": d("V\(r)"), "name": "inside"]), "create in V"),
                (a, send(a, "carrel.delete", ["uri": d("ta\(r).md"), "confirmed": true]), "delete ta"),
                (b, send(b, "carrel.delete", ["uri": d("tb\(r).md"), "confirmed": true]), "delete tb"),
            ]
            var ok: [String: Bool] = [:]
            for (c, id, what) in ids {
                ok[what] = check(try c.response(id: JSONValue.int(id), timeout: 30), "round \(r): \(what)")
            }
            XCTAssertEqual(
                [ok["rename x → same"]!, ok["rename y → same"]!].filter { $0 }.count, 1,
                "round \(r): exactly one rename to the same name wins")
            XCTAssertLessThanOrEqual(
                [ok["A into B"]!, ok["B into A"]!].filter { $0 }.count, 1,
                "round \(r): A into B and B into A cannot both happen")
            XCTAssertEqual(ok["delete ta"], true, "round \(r)")
            XCTAssertEqual(ok["delete tb"], true, "round \(r)")
            let records = fx.trashRecords("P")
            XCTAssertEqual(
                records["ta\(r).md"], "Draft/ta\(r).md", "round \(r): server A's Trash record survived server B's write"
            )
            XCTAssertEqual(
                records["tb\(r).md"], "Draft/tb\(r).md", "round \(r): server B's Trash record survived server A's write"
            )
        }
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0, "the shell script ran to the end")

        // Every content the servers handled is on disk exactly once, whole.
        var found: [String: [String]] = [:]
        for rel in fx.listing("P") where !rel.hasSuffix("/") {
            if let text = fx.read("P/" + rel), contents[text] != nil { found[text, default: []].append(rel) }
        }
        for (text, origin) in contents {
            XCTAssertEqual(found[text]?.count, 1, "\(origin) (“\(text)”) is at \(found[text] ?? [])")
        }
        let trash = Set(
            fx.listing("P/Trash").filter { !$0.dropLast().contains("/") }.map {
                $0.hasSuffix("/") ? String($0.dropLast()) : $0
            })
        for name in fx.trashRecords("P").keys {
            XCTAssertTrue(trash.contains(name), "the Trash record \(name) points at an item in Trash")
        }
        XCTAssertEqual(
            fx.listing("P").filter { $0.contains(".tmp") || $0.contains("carrel-") }, [], "no temporary files in view")

        // Both servers converge to the disk.
        let disk = Set(fx.listing().map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
        let settled = Date()
        var convergence: [String] = []
        for (label, c) in [("A", a), ("B", b)] {
            let deadline = Date().addingTimeInterval(15)  // a bound, not a measurement
            var shown = Set<String>()
            repeat {
                shown = try treePaths(c, fx)
                if shown == disk { break }
                usleep(50_000)
            } while Date() < deadline
            XCTAssertEqual(
                shown, disk,
                "server \(label)'s tree equals the disk: only shown \(shown.subtracting(disk).sorted()), only on disk \(disk.subtracting(shown).sorted())"
            )
            convergence.append("\(label) \(Int(Date().timeIntervalSince(settled) * 1000)) ms")
        }
        XCTAssertTrue(a.process.isRunning && b.process.isRunning)
        print(
            "concurrency: \(rounds) rounds of 8 conflicting commands on two servers with a shell script; refusals: \(refusals.sorted { $0.key < $1.key }); both trees equal the disk after \(convergence.joined(separator: ", ")) (informational)"
        )
    }

    /// Every folder and file a server shows, as paths relative to the library.
    func treePaths(_ c: ProcessClient, _ fx: Fixture) throws -> Set<String> {
        var out = Set<String>()
        var stack = try c.result("carrel/tree").arrayValue ?? []
        let prefix = fx.uri() + "/"
        while let n = stack.popLast() {
            stack += n["children"]?.arrayValue ?? []
            guard n["virtual"] == false, let u = n["uri"]?.stringValue, u.hasPrefix(prefix),
                let path = try? FileURI.path(u)
            else { continue }
            out.insert(String(decoding: path.dropFirst(fx.path.utf8.count + 1), as: UTF8.self))
        }
        return out
    }
}
