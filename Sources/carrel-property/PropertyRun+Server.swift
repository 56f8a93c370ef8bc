import CarrelClient
import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// The real `carrel lsp`: started, asked, stopped, and watched for crashes.
extension PropertyRun {
    func startServer() {
        do {
            let process = try ServerProcess(
                binary: opts.carrel, environment: box.env, errors: .append(path: box.errLog))
            server = LanguageClient(process)
        } catch {
            return fail(.harness, "cannot start the server: \(error)")
        }
        guard let r = ask(Initialize.method, Initialize(folders: [box.uri("")]).params) else { return }
        if r["result"]?["capabilities"] == nil {
            return fail(.crashed, "initialize failed: \(r.text())")
        }
        server?.notify("initialized")
    }

    /// The whole response, or nil after recording why there was none.
    func ask(_ method: String, _ params: JSONValue) -> JSONValue? {
        guard let server else {
            fail(.harness, "no server to ask")
            return nil
        }
        let id = server.request(method, params)
        if let r = server.response(id, timeout: Self.answerBound) { return r }
        if server.isDead || !server.process.isRunning {
            fail(.crashed, "the server crashed on \(method) (\(exitText(server.process)))\(stderrTail())")
        } else {
            fail(
                .hung, "\(method) was not answered within \(Int(Self.answerBound)) s: the server is hung\(stderrTail())"
            )
        }
        return nil
    }

    /// The server must still run: it exits only when told.
    func checkAlive() {
        guard let server else { return }
        if !server.process.isRunning {
            fail(.crashed, "the server exited without being told (\(exitText(server.process)))\(stderrTail())")
        }
    }

    func exitText(_ p: ServerProcess) -> String {
        let s = p.reap()
        return s & 0x7f == 0 ? "exit code \((s >> 8) & 0xff)" : "killed by signal \(s & 0x7f)"
    }

    func stderrTail() -> String {
        guard let bytes = Disk.read(box.errLog) else { return "" }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").suffix(3)
        return lines.isEmpty ? "" : "; server log ends: " + lines.joined(separator: " | ")
    }

    /// Ends the server as an editor does, or kills it; either way it must go.
    func stopServer(graceful: Bool = true) {
        guard let server else { return }
        self.server = nil
        guard graceful, violation == nil else {
            server.process.kill()
            server.process.reap()
            return
        }
        let id = server.request("shutdown", .null)
        guard server.response(id, timeout: Self.answerBound) != nil else {
            fail(.hung, "shutdown was not answered")
            server.process.kill()
            server.process.reap()
            return
        }
        server.notify("exit")
        if let code = server.process.waitForExit(timeout: 5) {
            if code != 0 { fail(.crashed, "the server exited with \(code) after shutdown and exit\(stderrTail())") }
        } else {
            fail(.hung, "the server did not exit within 5 s of exit")
        }
    }
}
