import CarrelJSON
import CarrelProtocol
import CarrelTestSupport
import Foundation
import Glibc
import XCTest

/// Adversarial bytes on the wire, sent to the real binary over pipes. Every
/// case checks that a folder outside the workspace hashes the same before
/// and after, that the workspace did not change, and that `carrel/tree` is
/// still answered within a second.
final class WireTests: XCTestCase {
    var home: Fixture!
    var outside: Fixture!
    var fx: Fixture!
    var client: ProcessClient!
    var outsideDigest: UInt64 = 0

    override func tearDown() {
        client = nil
        fx = nil
        outside = nil
        home = nil
    }

    func start(confirmationTimeout: Double? = nil) throws {
        home = try Fixture()
        outside = try Fixture(
            """
            secret.md = keep
            Caf\u{E9}/x.md = x
            Caf\u{FFFD}/y.md = y
            """)
        fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/b.md = b
            """)
        outsideDigest = Self.digest(outside.path)
        client = try ProcessClient(environment: [
            "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path,
        ])
        var options: [String: JSONValue] = [:]
        if let confirmationTimeout { options["confirmationTimeout"] = .double(confirmationTimeout) }
        _ = try client.result(
            "initialize",
            [
                "processId": .null, "capabilities": [:], "initializationOptions": .object(options),
                "workspaceFolders": [["uri": .string(fx.uri()), "name": "lib"]],
            ])
        client.notify("initialized")
    }

    /// FNV-1a over every name, type, mode, size, modification time and content below `root`, in a fixed order.
    static func digest(_ root: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) { for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 } }
        func walk(_ path: String) {
            var st = stat()
            guard lstat(path, &st) == 0 else { mix(Array("missing \(path)".utf8)); return }
            mix(Array("\(path) \(st.st_mode) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)".utf8))
            if (st.st_mode & S_IFMT) == S_IFDIR {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                for name in names { walk(path + "/" + name) }
            } else if (st.st_mode & S_IFMT) == S_IFREG, let data = FileManager.default.contents(atPath: path) {
                mix(data)
            }
        }
        walk(root)
        return hash
    }

    /// After each case: nothing outside changed, and the server still answers at once.
    func assertStillServing(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            Self.digest(outside.path), outsideDigest, "\(what): the folder outside the workspace changed",
            file: file, line: line)
        do {
            let r = try client.request("carrel/tree", ["depth": 0], timeout: 1)
            XCTAssertNotNil(r["result"]?[0], "\(what): carrel/tree", file: file, line: line)
        } catch {
            XCTFail("\(what): carrel/tree was not answered within 1 s (\(error))", file: file, line: line)
        }
    }

    // MARK: Invalid UTF-8

    /// A request that is accepted as it stands: a new folder "Café".
    func newFolderBody(id: Int) -> [UInt8] {
        let arguments = #"[{"parentUri":"\#(fx.uri("P/Draft"))","name":"Café"}]"#
        let params = #"{"command":"carrel.newFolder","arguments":\#(arguments)}"#
        return Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"workspace/executeCommand","params":\#(params)}"#.utf8)
    }

    static let illFormed: [(String, [UInt8])] = [
        ("a stray continuation byte", [0x80]),
        ("a truncated two-byte sequence", [0xC3]),
        ("a truncated three-byte sequence", [0xE2, 0x82]),
        ("a truncated four-byte sequence", [0xF0, 0x9F, 0x98]),
        ("an overlong '/'", [0xC0, 0xAF]),
        ("an overlong three-byte NUL", [0xE0, 0x80, 0x80]),
        ("an encoded surrogate", [0xED, 0xA0, 0x80]),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("0xFF", [0xFF]),
    ]

    /// Each ill-formed sequence inserted at every byte position of the
    /// request (keys, values, the uri, between tokens), and each byte of it
    /// replaced by 0xFF: always -32700, never a folder.
    func testInvalidUTF8AtEveryPositionIsAParseErrorAndChangesNothing() throws {
        try start()
        let workspaceBefore = Self.digest(fx.path)
        let body = newFolderBody(id: 1)
        var cases: [(String, [UInt8])] = []
        for (what, bad) in Self.illFormed {
            for p in 0...body.count {
                cases.append(("\(what) at byte \(p)", Array(body[..<p]) + bad + Array(body[p...])))
            }
        }
        for p in body.indices {
            cases.append(("0xFF in place of byte \(p)", Array(body[..<p]) + [0xFF] + Array(body[(p + 1)...])))
        }
        for (what, bytes) in cases {
            client.sendBody(bytes)
            let r = try client.inbox.take(what, timeout: 1) { $0["error"] != nil || $0["result"] != nil }
            XCTAssertEqual(r["error"]?["code"], -32700, what)
            XCTAssertEqual(r["id"], .null, what)
            assertStillServing(what)
            if r["error"]?["code"] != -32700 { break }
        }
        XCTAssertEqual(Self.digest(fx.path), workspaceBefore, "no bad request created anything")
        XCTAssertEqual(fx.listing("P/Draft"), ["a.md", "b.md"])
        // The same request, well formed, is accepted: the cases above failed for their bytes alone.
        client.sendBody(newFolderBody(id: 99))
        XCTAssertEqual(try client.response(id: RequestID.int(99))["result"]?["name"], "Café")
        XCTAssertEqual(fx.listing("P/Draft"), ["Café/", "a.md", "b.md"])
        print("wire: \(cases.count) invalid UTF-8 cases")
    }

    func testEscapedLoneSurrogatesAreParseErrors() throws {
        try start()
        for escape in [#"\ud800"#, #"\udfff"#, #"\ud83d\u0041"#, #"\ude00\ud83d"#] {
            let body = newFolderBody(id: 5).replacingUTF8("Café", with: "Caf" + escape)
            client.sendBody(body)
            let r = try client.inbox.take(escape, timeout: 1) { $0["error"] != nil || $0["result"] != nil }
            XCTAssertEqual(r["error"]?["code"], -32700, escape)
            assertStillServing(escape)
        }
        XCTAssertEqual(fx.listing("P/Draft"), ["a.md", "b.md"])
    }

    // MARK: Lying lengths

    /// A Content-Length around 64 MiB over a two-byte body: below the limit,
    /// at it, above it and far above it. The next request is answered.
    func testLyingLengthsAroundTheLimitCostOneMessage() throws {
        try start()
        let limit = MessageFramer.maxBody
        var n = 0
        for declared in [limit - 1, limit, limit + 1, 2 * limit, 999_999_999_999] {
            for next in ["carrel/tree", "workspace/executeCommand"] {
                n += 1
                client.sendRaw(Array("Content-Length: \(declared)\r\n\r\n{}".utf8))
                if next == "carrel/tree" {
                    assertStillServing("declared \(declared)")
                } else {
                    let arguments: JSONValue = [["parentUri": .string(fx.uri("P/Draft")), "name": .string("n\(n)")]]
                    let r = try client.request(next, ["command": "carrel.newFile", "arguments": arguments], timeout: 1)
                    XCTAssertEqual(
                        r["result"]?["name"], .string("n\(n).md"),
                        "declared \(declared): the command after it runs")
                    assertStillServing("declared \(declared), then a command")
                }
            }
        }
        // A lie in the middle of a pipelined burst loses only itself.
        var burst: [UInt8] = []
        for id in 200..<210 {
            if id == 205 { burst += Array("Content-Length: \(limit + 1)\r\n\r\n{\"jsonrpc\":".utf8) }
            let tree = #"{"jsonrpc":"2.0","id":\#(id),"method":"carrel/tree","params":{"depth":0}}"#
            burst += MessageFramer.frame(Array(tree.utf8))
        }
        client.sendRaw(burst)
        for id in 200..<210 {
            XCTAssertNotNil(try client.response(id: JSONValue.int(id), timeout: 1)["result"], "request \(id)")
        }
        assertStillServing("a lie inside a burst")
    }

    /// An honest body over the limit is still skipped whole.
    func testAnHonestOversizedBodyIsSkippedAndTheNextRequestAnswered() throws {
        try start()
        let size = MessageFramer.maxBody + 1
        var junk = [UInt8](repeating: UInt8(ascii: " "), count: size)
        junk.replaceSubrange(0..<2, with: Array("[\"".utf8))
        client.sendRaw(Array("Content-Length: \(size)\r\n\r\n".utf8) + junk)
        assertStillServing("an honest 64 MiB + 1 body")
    }

    // MARK: Interleaved ids

    /// Two deletes wait on questions while their ids are the very numbers a
    /// server would give its questions. A client that matches by id alone
    /// (Vim 9) must never see a question with a pending request's id.
    func testTwoPendingDeletesWithTheServersOwnIds() throws {
        try start()
        for (round, ids) in [[1, 2], [1_000_000, 1_000_001], [1_000_002, 1_000_003]].enumerated() {
            let files = ["a.md", "b.md"].map { round == 0 ? $0 : "r\(round)-\($0)" }
            for f in files where round > 0 {
                _ = try client.command("carrel.newFile", ["parentUri": .string(fx.uri("P/Draft")), "name": .string(f)])
            }
            for (id, f) in zip(ids, files) {
                client.send([
                    "jsonrpc": "2.0", "id": .int(id), "method": "workspace/executeCommand",
                    "params": [
                        "command": "carrel.delete",
                        "arguments": [["uri": .string(fx.uri("P/Draft/" + f))]],
                    ],
                ])
            }
            var questions: [JSONValue] = []
            for _ in ids {
                let m = try client.inbox.take("a question", timeout: 5) { $0["method"] == "window/showMessageRequest" }
                XCTAssertFalse(
                    ids.map { JSONValue.int($0) }.contains(m["id"]!),
                    "round \(round): question id \(m["id"]!.text()) is a pending request's")
                questions.append(m)
            }
            let answered = client.inbox.pending.filter { ids.map(JSONValue.int).contains($0["id"] ?? .null) }
            XCTAssertEqual(answered, [], "no delete answered before its question")
            for q in questions.reversed() {
                client.send(["jsonrpc": "2.0", "id": q["id"]!, "result": ["title": "Delete"]])
            }
            for id in ids {
                let r = try client.inbox.take("delete \(id)", timeout: 5) { m in
                    m["id"] == .int(id) && m["method"] == nil
                }
                XCTAssertEqual(r["result"]?["inTrash"], true, "round \(round): delete \(id)")
            }
            for f in files { XCTAssertTrue(fx.exists("P/Trash/" + f), f) }
            assertStillServing("round \(round)")
        }
    }

    /// A question nobody answers expires, and later requests are answered meanwhile.
    func testAnUnansweredQuestionExpiresAndNothingWaitsOnIt() throws {
        try start(confirmationTimeout: 0.5)
        client.send([
            "jsonrpc": "2.0", "id": 40, "method": "workspace/executeCommand",
            "params": ["command": "carrel.delete", "arguments": [["uri": .string(fx.uri("P/Draft/a.md"))]]],
        ])
        _ = try client.inbox.take("a question") { $0["method"] == "window/showMessageRequest" }
        assertStillServing("while a question waits")
        let r = try client.inbox.take("the expired delete", timeout: 5) { $0["id"] == 40 }
        XCTAssertEqual(r["error"]?["data"]?["reason"], "cancelled")
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
        assertStillServing("after the question expired")
    }
}

extension Array where Element == UInt8 {
    fileprivate func replacingUTF8(_ old: String, with new: String) -> [UInt8] {
        Array(String(decoding: self, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
    }
}
