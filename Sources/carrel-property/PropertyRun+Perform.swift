import CarrelClient
import CarrelJSON
import CarrelProtocol
import Foundation
import Glibc

/// Doing one step, and noting what its success promises.
extension PropertyRun {
    /// What a step may do: the writer's files it may destroy, and the
    /// restore it asked for.
    struct Expect {
        var mayVanish: Set<String> = []
        var restore: RestoreExpect?
    }

    /// A Trash item sent back: its contents, and the folders its records
    /// (or, for a sync engine's copy with none, its original's) name.
    struct RestoreExpect {
        var item: String
        var project: String
        var contents: [String]
        var origins: Set<String>
        /// How many folders below the item its first content sits: 0 when
        /// the item is that file, more when the item is a folder.
        var innerDepth = 0
    }

    func perform(_ step: Step) -> Expect {
        switch step {
        case .command(let command, let args):
            let expect = expecting(command, args)
            guard let r = ask(ExecuteCommand.method, ExecuteCommand(command, args).params) else {
                return expect
            }
            if let e = r["error"] {
                if opts.verbose { say("    refused: \(box.relative(e.text()))") }
                checkRefusal(e, of: command)
                return Expect()
            }
            if command == "carrel.newFile", let u = r["result"]?["uri"]?.stringValue,
                let p = try? FileURI.path(u), let rel = relativePath(String(decoding: p, as: UTF8.self))
            {
                // The writer types into the new file, as an editor saves it.
                writeFile(rel)
            }
            return expect
        case .tree(let uri):
            var params: [String: JSONValue] = [:]
            if let uri { params["uri"] = .string(uri) }
            if let r = ask(Tree.method, .object(params)), let e = r["error"] {
                checkRefusal(e, of: "carrel/tree")
            }
            return Expect()
        case .listing(let method, let params):
            // A method of its own (`carrel/submissions`), or a command (`carrel.snapshots`).
            let asked =
                method.contains("/")
                ? ask(method, params) : ask(ExecuteCommand.method, ExecuteCommand(method, params).params)
            guard let r = asked else { return Expect() }
            if let e = r["error"] {
                checkRefusal(e, of: method)
            } else {
                checkListing(method, params, r["result"] ?? .null)
            }
            return Expect()
        case .cli(let args):
            let expect = cliExpecting(args)
            let r = CLIProcess.run(
                opts.carrel, args, env: box.env, errors: box.root + "/cli-stderr.txt", timeout: Self.cliBound)
            let shown = "carrel \(args.first ?? "")"
            if let signal = r.signal {
                fail(
                    signal == SIGKILL && r.status == nil ? .hung : .crashed,
                    signal == SIGKILL && r.status == nil
                        ? "\(shown) did not finish within \(Int(Self.cliBound)) s: hung"
                        : "\(shown) crashed with signal \(signal): \(r.stderr.suffix(300))")
                return Expect()
            }
            switch r.status {
            case 0: return expect
            case 1, 2:
                if r.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    fail(.unexplained, "\(shown) refused (exit \(r.status!)) without saying why")
                }
                return Expect()
            default:
                fail(.crashed, "\(shown) exited with \(r.status.map(String.init) ?? "?"): \(r.stderr.suffix(300))")
                return Expect()
            }
        case .restart(let graceful):
            stopServer(graceful: graceful)
            if violation == nil { startServer() }
            return Expect()
        case .outside(_, let change):
            change()
            // Long enough for the watcher's batch to reach the model, so a replay sees the same order.
            usleep(150_000)
            return Expect()
        }
    }

    /// A refusal names its reason and says it in words. Invalid params
    /// (-32602) name the field instead, as the protocol says.
    func checkRefusal(_ e: JSONValue, of what: String) {
        let field = e["code"]?.intValue == -32602 ? e["data"]?["field"]?.stringValue : nil
        let reason = e["data"]?["reason"]?.stringValue ?? field ?? ""
        let message = e["message"]?.stringValue ?? ""
        if reason.isEmpty || message.trimmingCharacters(in: .whitespaces).isEmpty {
            fail(.unexplained, "\(what) was refused without a reason and a message: \(e.text())")
        }
    }

    func relativePath(_ path: String) -> String? {
        path.hasPrefix(box.lib + "/") ? String(path.dropFirst(box.lib.count + 1)) : nil
    }

    func relativeURI(_ value: JSONValue?) -> String? {
        guard let u = value?.stringValue, let p = try? FileURI.path(u) else { return nil }
        return relativePath(String(decoding: p, as: UTF8.self))
    }

    func expecting(_ command: String, _ args: JSONValue) -> Expect {
        switch command {
        case "carrel.emptyTrash":
            guard let p = relativeURI(args["projectUri"]) else { return Expect() }
            return Expect(mayVanish: Set(ledger.contents(under: p + "/Trash")))
        case "carrel.delete": return deleting(relativeURI(args["uri"]))
        case "carrel.restore": return Expect(restore: relativeURI(args["uri"]).flatMap(restoring))
        default: return Expect()
        }
    }

    func cliExpecting(_ args: [String]) -> Expect {
        guard args.count >= 2 else { return Expect() }
        let rel = relativePath(args[1])
        switch args[0] {
        case "empty-trash": return Expect(mayVanish: Set(rel.map { ledger.contents(under: $0 + "/Trash") } ?? []))
        case "rm": return deleting(rel)
        case "restore": return Expect(restore: rel.flatMap(restoring))
        default: return Expect()
        }
    }

    /// A delete inside the catalog's Trash destroys what it names; anywhere else, nothing.
    func deleting(_ rel: String?) -> Expect {
        guard let rel, let p = projectOf(rel), rel.hasPrefix(p + "/Trash/") else { return Expect() }
        return Expect(mayVanish: Set(ledger.contents(under: rel)))
    }

    func restoring(_ rel: String) -> RestoreExpect? {
        let parts = rel.split(separator: "/").map(String.init)
        guard parts.count == 3, parts[1] == "Trash", let p = projectOf(rel) else { return nil }
        let records = trashRecords(p)
        var origins = records.filter { $0.name == parts[2] }.compactMap { usableParent($0.from) }
        if records.allSatisfy({ $0.name != parts[2] }), let original = withoutConflictMark(parts[2]) {
            origins = records.filter { $0.name == original }.compactMap { usableParent($0.from) }
        }
        let contents = ledger.contents(under: rel)
        var expect = RestoreExpect(
            item: rel, project: p, contents: contents, origins: Set(origins.map { p + "/" + $0 }))
        if let first = contents.first, let place = ledger.all[first] {
            expect.innerDepth = max(0, place.split(separator: "/").count - parts.count)
        }
        return expect
    }

    /// The records a project's `.carrel/trash` holds now, read as plain files only.
    func trashRecords(_ project: String) -> [(name: String, from: String)] {
        let folder = box.path(project + "/.carrel/trash")
        return Disk.walk(folder).filter { $0.isFile && !$0.rel.contains("/") && $0.name.hasSuffix(".json") }
            .compactMap {
                guard let bytes = Disk.read(folder + "/" + $0.name, limit: 64 << 10),
                    let json = try? JSONParser.parse(bytes), let name = json["name"]?.stringValue,
                    let from = json["from"]?.stringValue
                else { return nil }
                return (name, from)
            }
    }

    /// The folder an origin names, when it is one a restore can plainly
    /// make: a few ordinary names, not in the Trash, not hidden.
    func usableParent(_ from: String) -> String? {
        let parts = from.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.count <= 20, parts[0] != "Trash",
            parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") })
        else { return nil }
        return parts.dropLast().joined(separator: "/")
    }

    /// The original's name of a sync engine's copy this generator names.
    func withoutConflictMark(_ name: String) -> String? {
        guard let r = name.range(of: ".sync-conflict-") else { return nil }
        let after = name[r.upperBound...]
        guard after.count >= 23 else { return nil }
        return String(name[..<r.lowerBound]) + String(after.dropFirst(23))
    }
}
