import CarrelJSON
import CarrelTestSupport
import Foundation
import XCTest

/// A stock client: Vim 9's built-in LSP channel (`job_start` with `lsp`
/// modes), driving the real `carrel lsp` from a Vim9 script run headless.
/// Vim matches every message to its pending requests by id alone and has no
/// plugin here to help. Skipped when vim is missing, except on CI.
final class VimChannelTests: XCTestCase {
    var home: Fixture!

    override func tearDown() { home = nil }

    /// What the script does with the server's questions: `answer` picks
    /// "Delete"; `ignore` never answers, as ALE does.
    static let script = #"""
        vim9script
        # Runs `carrel lsp` over Vim's LSP channel; writes what came back to $CARREL_OUT.
        var results: dict<any> = {questions: [], replies: {}, unclaimed: [], stderr: [], notifications: []}

        def OnMessage(ch: channel, msg: dict<any>)
          if msg->get('method', '') == 'window/showMessageRequest'
            results.questions->add(msg)
            if $CARREL_MODE == 'answer'
              ch_sendexpr(ch, {id: msg.id, result: {title: 'Delete'}})
            endif
          elseif msg->has_key('id') && !msg->has_key('method')
            results.unclaimed->add(msg)
          elseif msg->has_key('method')
            results.notifications->add(msg.method)
          endif
        enddef

        def OnStderr(ch: channel, line: string)
          results.stderr->add(line)
        enddef

        def Keep(name: string): func(channel, dict<any>)
          return (ch: channel, msg: dict<any>) => {
            results.replies[name] = msg
          }
        enddef

        def Wait(names: list<string>, seconds: float)
          var start = reltime()
          while names->copy()->filter((_, n) => !results.replies->has_key(n))->len() > 0
                && reltimefloat(reltime(start)) < seconds
            sleep 10m
          endwhile
        enddef

        var job = job_start([$CARREL, 'lsp'], {in_mode: 'lsp', out_mode: 'lsp', err_mode: 'nl',
                                               out_cb: OnMessage, err_cb: OnStderr})
        var server = job_getchannel(job)
        ch_sendexpr(server, {method: 'initialize', params: {processId: getpid(), capabilities: {},
            workspaceFolders: [{uri: $CARREL_LIBRARY, name: 'Writing'}],
            initializationOptions: {confirmationTimeout: str2float($CARREL_TIMEOUT)}}}, {callback: Keep('initialize')})
        Wait(['initialize'], 10.0)
        ch_sendexpr(server, {method: 'initialized', params: {}})
        if $CARREL_QUERY != ''
          ch_sendexpr(server, {method: 'workspace/symbol', params: {query: $CARREL_QUERY}}, {callback: Keep('symbol')})
          Wait(['symbol'], 10.0)
        endif
        var deletes = split($CARREL_DELETE, '\n')
        for i in range(len(deletes))
          ch_sendexpr(server, {method: 'workspace/executeCommand',
                               params: {command: 'carrel.delete', arguments: [{uri: deletes[i]}]}},
                      {callback: Keep('delete' .. i)})
        endfor
        Wait(range(len(deletes))->mapnew((_, i) => 'delete' .. i), str2float($CARREL_WAIT))
        # Whatever the server sends after a change arrives meanwhile.
        sleep 300m
        writefile([json_encode(results)], $CARREL_OUT)
        job_stop(job)
        qa!
        """#

    /// Runs the script in headless Vim; the decoded results.
    func runVim(
        mode: String, deletes: [String], library: String, timeout: Double, wait: Double, query: String = ""
    ) throws -> JSONValue {
        guard let vim = Self.vim() else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw VimMissingOnCI() }
            throw XCTSkip("vim is not installed: the Vim 9 LSP channel tests need vim-nox (Vim 9.0+)")
        }
        if home == nil { home = try Fixture() }
        let scriptPath = home.path + "/carrel-channel.vim"
        let outPath = home.path + "/results-\(mode).json"
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: vim)
        p.arguments = ["-Nu", "NONE", "-i", "NONE", "-n", "-es", "-S", scriptPath]
        var env = ProcessInfo.processInfo.environment
        let settings = [
            "CARREL": ProcessClient.binary, "CARREL_MODE": mode, "CARREL_LIBRARY": library, "CARREL_OUT": outPath,
            "CARREL_DELETE": deletes.joined(separator: "\n"), "CARREL_TIMEOUT": String(timeout),
            "CARREL_WAIT": String(wait), "CARREL_QUERY": query, "XDG_DATA_HOME": home.path + "/data",
            "XDG_STATE_HOME": home.path + "/state",
            "HOME": home.path,
        ]
        for (k, v) in settings {
            env[k] = v
        }
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(wait + 30)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning { p.terminate(); XCTFail("vim did not finish") }
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: outPath), "vim wrote no results")
        return try JSONParser.parse(Array(bytes))
    }

    struct VimMissingOnCI: Error, CustomStringConvertible {
        var description: String { "vim is not installed, and CI=true: install vim-nox (Vim 9.0+); .ci/run does" }
    }

    static func vim() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/vim" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func testTwoConcurrentDeletesEachConfirmedThroughVimsChannel() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/b.md = b
            """)
        let r = try runVim(
            mode: "answer", deletes: [fx.uri("P/Draft/a.md"), fx.uri("P/Draft/b.md")], library: fx.uri(),
            timeout: 120, wait: 15)
        XCTAssertNotNil(r["replies"]?["initialize"]?["result"]?["capabilities"])
        XCTAssertEqual(r["questions"]?.arrayValue?.count, 2, "one question per delete, each reaching the callback")
        for (i, name) in ["a.md", "b.md"].enumerated() {
            let reply = r["replies"]?["delete\(i)"]
            XCTAssertNil(reply?["method"], "delete \(i): Vim handed a question to the request's callback")
            XCTAssertEqual(reply?["result"]?["inTrash"], true, "delete \(i): \(reply?.text() ?? "no reply")")
            XCTAssertTrue(fx.exists("P/Trash/" + name), name)
        }
        XCTAssertEqual(r["unclaimed"], [], "every response found its callback")
    }

    func testADeleteWhoseQuestionVimNeverAnswersTimesOutAsCancelled() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            """)
        let r = try runVim(mode: "ignore", deletes: [fx.uri("P/Draft/a.md")], library: fx.uri(), timeout: 1, wait: 10)
        XCTAssertEqual(r["questions"]?.arrayValue?.count, 1)
        let error = r["replies"]?["delete0"]?["error"]
        XCTAssertEqual(error?["data"]?["reason"], "cancelled", r["replies"]?.text() ?? "no reply")
        XCTAssertEqual(
            error?["message"],
            "Cancelled: the question got no answer within 1 second, so nothing was deleted.")
        XCTAssertEqual(fx.read("P/Draft/a.md"), "a")
        XCTAssertFalse(fx.exists("P/Trash/a.md"))
    }

    /// Vim's channel opened on a folder inside a project, with no version
    /// control to find the library: the server opens the library around
    /// it, so the delete goes to the project's Trash, the search covers the
    /// whole library and lists no folder, and nothing Vim did not ask for
    /// (`carrel/didChange`) is sent.
    func testAChannelOpenedInsideAProjectDeletesIntoItsTrash() throws {
        let fx = try Fixture(
            """
            P/.carrel/project.json = {"type":"poetry"}
            P/Draft/a.md = a
            P/Draft/Sea/s.md = s
            P/Ready/r.md = r
            """)
        let r = try runVim(
            mode: "answer", deletes: [fx.uri("P/Draft/a.md")], library: fx.uri("P/Draft"), timeout: 120, wait: 15,
            query: "md")
        let found =
            r["replies"]?["symbol"]?["result"]?.arrayValue?.compactMap { $0["location"]?["uri"]?.stringValue } ?? []
        XCTAssertEqual(
            Set(found), [fx.uri("P/Draft/a.md"), fx.uri("P/Draft/Sea/s.md"), fx.uri("P/Ready/r.md")],
            r["replies"]?["symbol"]?.text() ?? "no reply")
        XCTAssertEqual(r["replies"]?["delete0"]?["result"]?["inTrash"], true, r["replies"]?.text() ?? "no reply")
        XCTAssertTrue(fx.exists("P/Trash/a.md"))
        let notifications = r["notifications"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertTrue(notifications.contains("window/showMessage"), "\(notifications): the report arrived")
        XCTAssertFalse(notifications.contains { $0.hasPrefix("carrel/") }, "\(notifications)")
    }
}
