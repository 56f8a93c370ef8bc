import CarrelClient
import CarrelJSON
import CarrelProtocol
import CarrelRandom
import Foundation
import Glibc

final class Torture: @unchecked Sendable {
    enum State { case alive, doomed, gone }

    let opts: Options
    var rng: SeededRandom
    let root: String
    let lib: String
    let dataHome: String
    let errLog: String
    let env: [String: String]

    var contents: [String: State] = [:]
    /// How many more places than one each content may be in: the copies
    /// the harness asked for. Set to what the disk holds at every check.
    var copyAllowance: [String: Int] = [:]
    var contentCounter = 0
    var nameCounter = 0
    var cycle = 0
    var violations: [String] = []

    // Numbers for the report.
    var kills = 0
    var inFlightKills: [String: Int] = [:]
    var startupKills = 0
    var restartsChecked = 0
    /// Restarts that found sync's conflict copies of Carrel's files to merge.
    var syncCopyRestarts = 0
    var syncCopyStartupKills = 0
    var sent: [String: Int] = [:]
    var succeeded = 0
    var refused: [String: Int] = [:]
    var destroyed = 0
    /// Guards everything above when two servers are driven at once.
    let state = NSLock()
    /// The self-test plants faults in the seed projects, so they must stay put.
    var protectSeedProjects = false
    /// Contents that were ever out of view (a Trash, deleted): links from
    /// or to them may dangle, since nothing updates links into the Trash.
    var linksOutOfView = Set<Int>()
    /// Links a move killed before its update left old, as the writer would
    /// find them after "Don't Update".
    var linksLeftDangling = Set<LinkKey>()
    /// The links before the last rename or move, while its update is not
    /// yet reported; kept for the next restart's check when a kill cut it.
    var linksBeforeMove: (links: [LinkKey: LinkState], inView: [Int: [String]])?
    var moveFinished = true
    var interruptedLinks: (links: [LinkKey: LinkState], inView: [Int: [String]])?
    var linkUpdates = 0
    /// Where each content in view was before an undo or redo not yet
    /// compared with the disk: neither updates links, so what it moved
    /// may leave links dangling (see REPORT.md, Limits).
    var placesBeforeUndo: [Int: [String]]?
    /// Contents that ever left their project, whose snapshots stay behind.
    var snapshotsAdrift = Set<String>()
    /// The project each content was last seen in ("" for none).
    var snapshotProject: [String: String] = [:]
    /// With two servers: the links at the last check, and the contents a
    /// command may have moved since (`Torture+LinksOfTwo.swift`).
    var linksAtCheck: (links: [LinkKey: LinkState], inView: [Int: [String]])?
    var movedSinceCheck = Set<Int>()

    init(_ opts: Options) {
        self.opts = opts
        rng = SeededRandom(seed: opts.seed)
        var template = Array("/tmp/carrel-torture-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        root = String(cString: made)
        lib = root + "/lib"
        dataHome = root + "/home/data"
        errLog = root + "/server-stderr.log"
        mkdir(lib, 0o755)
        mkdir(root + "/home", 0o755)
        var e = ProcessInfo.processInfo.environment
        e["HOME"] = root + "/home"
        e["XDG_DATA_HOME"] = dataHome
        e["XDG_STATE_HOME"] = root + "/home/state"
        e["SWIFT_BACKTRACE"] = "enable=no"
        env = e
    }

    func log(_ s: @autoclosure () -> String) { if opts.verbose { say("  " + s()) } }

    func violation(_ s: String) {
        violations.append("cycle \(cycle): \(s)")
    }

    func random(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
    func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    func pick<T>(_ a: [T]) -> T? { a.isEmpty ? nil : a[random(a.count)] }

    func newContent() -> String {
        contentCounter += 1
        let hex = (0..<(1 + random(300))).map { _ in String(random(16), radix: 16) }.joined()
        let c = "torture:\(contentCounter):\(hex)\n"
        contents[c] = .alive
        return c
    }

    func newName(_ prefix: String) -> String {
        nameCounter += 1
        return "\(prefix)\(nameCounter)"
    }

    /// A file holding a tracked content that was never copied, in the
    /// library (for the self-test).
    func someContentFile(inProject: Bool = false) -> String {
        let files = Disk.walk(lib, includeHidden: false).filter { !$0.isDir }.map { lib + "/" + $0.rel }
        return files.first {
            guard let bytes = Disk.read($0), bytes.count > 1 else { return false }
            let c = content(of: bytes)
            guard inProject else { return (copyAllowance[c] ?? 0) == 0 }
            // One whose snapshots must follow it: alive, never out of its project.
            return (copyAllowance[c] ?? 0) == 0 && contents[c] == .alive && !snapshotsAdrift.contains(c)
                && splitProject(String($0.dropFirst(lib.count + 1))) != nil
        }!
    }

    func uri(_ rel: String) -> String { Disk.uri(rel.isEmpty ? lib : lib + "/" + rel) }

    func spawn(_ answers: LinkAnswers = LinkAnswers()) throws -> LanguageClient {
        let process = try ServerProcess(binary: opts.carrel, environment: env, errors: .append(path: errLog))
        return LanguageClient(process, other: answers.handler(process))
    }

    // MARK: The library as the disk has it

    struct Project { let rel: String; let type: String }

    struct View {
        var projects: [Project] = []
        var folders: [String] = [""]
        var movable: [(rel: String, isDir: Bool)] = []
        var inTrash: [(rel: String, isDir: Bool)] = []
        var permanent: [String] = []
        var plainFolders: [String] = []
    }

    func projectType(_ rel: String) -> String? {
        guard let bytes = Disk.read(lib + "/" + rel + "/.carrel/project.json"),
            let json = try? JSONParser.parse(bytes)
        else { return nil }
        return json["type"]?.stringValue
    }

    func view() -> View {
        var v = View()
        var projects: [String: String] = [:]
        for n in Disk.walk(lib, includeHidden: false) where n.isDir && !n.rel.contains("/") {
            if let t = projectType(n.rel) { projects[n.rel] = t }
        }
        v.projects = projects.map { Project(rel: $0.key, type: $0.value) }.sorted { $0.rel < $1.rel }
        for n in Disk.walk(lib, includeHidden: false) {
            let parts = n.rel.split(separator: "/").map(String.init)
            if parts.count == 1 {
                if projects[n.rel] != nil { v.folders.append(n.rel); continue }
                if n.isDir { v.folders.append(n.rel); v.plainFolders.append(n.rel) }
                v.movable.append((n.rel, n.isDir))
                continue
            }
            guard let type = projects[parts[0]] else {
                if n.isDir { v.folders.append(n.rel) }
                v.movable.append((n.rel, n.isDir))
                continue
            }
            if parts.count == 2, n.isDir, Templates.byType[type]?.contains(parts[1]) == true {
                v.permanent.append(n.rel)
                v.folders.append(n.rel)
                continue
            }
            if parts[1] == "Trash" {
                v.inTrash.append((n.rel, n.isDir))
                continue
            }
            if n.isDir { v.folders.append(n.rel) }
            v.movable.append((n.rel, n.isDir))
        }
        return v
    }

    // MARK: Setup

    /// The whole response: a failed initialize is reported with its error.
    func initialize(_ server: LanguageClient) -> JSONValue? {
        server.response(server.request(Initialize.method, Initialize(folders: [uri("")]).params))
    }

    func populate(target: Int) {
        let v = view()
        let alive = contents.values.filter { $0 == .alive }.count
        guard alive < target else { return }
        let folders = v.folders.filter { !$0.hasSuffix("/Trash") }
        for _ in alive..<target {
            guard let f = pick(folders) else { return }
            let rel = (f.isEmpty ? "" : f + "/") + newName("s") + ".md"
            let c = newContent()
            if !Disk.write(lib + "/" + rel, Array((c + newLinks(from: rel)).utf8)) { contents[c] = nil }
        }
    }

    func setUp() throws {
        let server = try spawn()
        guard let r = initialize(server), r["result"] != nil else {
            throw ServerProcess.SpawnError(description: "the first initialize failed")
        }
        for (name, type) in [("Poems", "poetry"), ("Novel", "novel"), ("Blank", "blank")] {
            do {
                try server.send(
                    ExecuteCommand(
                        "carrel.newProject",
                        ["parentUri": .string(uri("")), "name": .string(name), "type": .string(type)]))
            } catch {
                throw ServerProcess.SpawnError(description: "cannot create project \(name): \(error)")
            }
        }
        mkdir(lib + "/Notes", 0o755)
        server.process.kill()
        server.process.reap()
        populate(target: 60)
    }

    /// Starts a server, which repairs what the last kill left, and stops it
    /// before any command: a planted fault is then checked against a
    /// repaired library, never against a kill's leftovers.
    func repair() {
        guard let server = try? spawn() else { return violation("cannot start a server to repair the library") }
        if initialize(server)?["result"] == nil { violation("the repairing server failed to initialize") }
        server.process.kill()
        server.process.reap()
    }

    // MARK: One kill

    /// One server's part of a cycle: it starts, is checked, takes commands
    /// and is killed. With `--servers 2`, two of these run at once.
    final class Run: @unchecked Sendable {
        let server: LanguageClient
        let answers: LinkAnswers
        var questionsSeen = 0
        let killer = Killer()
        var killDuringStartup = false
        var killAt = 0
        var delay: UInt32 = 0
        init(_ server: LanguageClient, _ answers: LinkAnswers) {
            self.server = server
            self.answers = answers
        }
    }

    func runCycle() {
        cycle += 1
        let plants = !protectSeedProjects && chance(0.2)
        let planted = plants ? plantSyncCopies() : []
        if plants { syncCopyRestarts += 1 }
        var runs: [Run] = []
        for _ in 0..<opts.servers {
            let answers = LinkAnswers()
            do { runs.append(Run(try spawn(answers), answers)) } catch { violation("\(error)"); return }
        }
        for run in runs {
            // Half the restarts with copies to merge are killed in the middle of it.
            run.killDuringStartup = chance(plants ? 0.5 : 0.1)
            if run.killDuringStartup { run.killer.arm(run.server, afterMicroseconds: UInt32(random(30_000))) }
            run.killAt = run.killDuringStartup ? -1 : random(10)
            run.delay = {
                switch random(10) {
                case 0..<3: return UInt32(random(200))
                case 3..<7: return UInt32(random(2_000))
                default: return UInt32(random(20_000))
                }
            }()
        }
        var initialized: [Run] = []
        for run in runs {
            run.killer.pending = "initialize"
            if let r = initialize(run.server) {
                run.killer.pending = nil
                if r["result"]?["capabilities"] == nil || r["error"] != nil {
                    violation("the restarted server failed to initialize: \(r.text())")
                } else {
                    run.server.notify("initialized")
                    initialized.append(run)
                }
            } else if !run.killer.isArmed {
                violation("the server died or hung during initialize without being killed")
            }
        }
        // A question a kill left is asked again after `initialized`, and
        // answered "Update Links": its update is waited for, so links are
        // checked once it is done, or at the next restart if a kill cuts it.
        var reaskCut = false
        for run in initialized where !followLinkUpdate(run) { reaskCut = true }
        for run in initialized {
            checkRepairedLibrary(run.server)
            if !run.server.isDead { restartsChecked += 1 }
        }
        if !initialized.isEmpty && !reaskCut { checkLinks(phase: "after restart") }
        if !initialized.isEmpty { checkSyncCopiesMerged(planted, phase: "after restart") }
        // Repair runs inside initialize: a restart killed before answering it
        // may have left purges unfinished, which the next restart finishes.
        checkContents(phase: "after restart", afterRestart: !initialized.isEmpty)
        if violations.isEmpty && runs.contains(where: { !$0.server.isDead }) { populate(target: 50) }

        if violations.isEmpty {
            if runs.count == 1 {
                drive(runs[0])
            } else {
                let done = DispatchGroup()
                for run in runs {
                    done.enter()
                    Thread.detachNewThread { [self] in
                        drive(run)
                        done.leave()
                    }
                }
                done.wait()
            }
        }
        for run in runs {
            if !run.killer.isArmed { run.killer.arm(run.server, afterMicroseconds: 0) }
            run.killer.waitFired()
            let status = run.server.process.reap()
            kills += 1
            if run.killDuringStartup { startupKills += 1 }
            if run.killDuringStartup && plants { syncCopyStartupKills += 1 }
            if let what = run.killer.inFlight { inFlightKills[what, default: 0] += 1 }
            if !moveFinished, let before = linksBeforeMove { interruptedLinks = before }
            // With two servers the questions are answered without a wait: each is counted here.
            if opts.servers == 2 { linkUpdates += run.answers.counts.asked - run.questionsSeen }
            if status & 0x7f != SIGKILL {
                violation(
                    "the server ended on its own (wait status \(status)) before the SIGKILL: a crash? See \(errLog)")
            }
            log("cycle \(cycle): killed \(run.killer.inFlight.map { "during \($0)" } ?? "between commands")")
        }
        checkContents(phase: "after kill", afterRestart: false)
    }

    /// Sends random commands to one server until it is killed. Shared state
    /// is touched only under `state`, so two servers can be driven at once.
    func drive(_ run: Run) {
        let server = run.server
        var i = 0
        while !server.isDead && i < run.killAt + 60 {
            state.lock()
            let op = chooseOp(view())
            let linkOp = opts.servers == 1 && (op.name == "rename" || op.name.hasPrefix("moveTo"))
            if linkOp {
                linksBeforeMove = linkStates()
                moveFinished = false
            }
            if opts.servers == 1 && (op.name == "undo" || op.name == "redo") { placesBeforeUndo = contentsInView() }
            noteTrashTouch(op)
            noteMovedByTwo(op)
            for c in op.doomed where contents[c] == .alive { contents[c] = .doomed }
            // A kill during the copy may leave it whole: it is allowed from the moment it is asked for.
            for c in op.copies where contents[c] != nil { copyAllowance[c, default: 0] += 1 }
            // A copy's snapshots are its own: deleting the copy for good, cut short, may leave them.
            snapshotsAdrift.formUnion(op.copies)
            sent[op.name, default: 0] += 1
            state.unlock()
            run.killer.pending = op.name
            log("\(op.name) \(op.args.text())")
            let id = server.request(
                "workspace/executeCommand", ["command": .string(op.command), "arguments": [op.args]])
            if i == run.killAt { run.killer.arm(server, afterMicroseconds: run.delay) }
            i += 1
            guard let r = server.response(id) else {
                if !run.killer.isArmed {
                    state.lock()
                    violation("the server died or hung on \(op.name) without being killed")
                    state.unlock()
                }
                break
            }
            run.killer.pending = nil
            state.lock()
            noteUndoneMoves()
            handle(op, r)
            let failed = !violations.isEmpty
            state.unlock()
            if failed { break }
            if linkOp {
                guard followLinkUpdate(run) else { break }
                moveFinished = true
            }
        }
    }

    func handle(_ op: Op, _ r: JSONValue) {
        if let e = r["error"] {
            let code = e["code"]?.intValue ?? 0
            let reason = e["data"]?["reason"]?.stringValue
            let message = e["message"]?.stringValue ?? ""
            if code != -32803 || reason == nil || message.isEmpty {
                violation("\(op.name) \(op.args.text()) got an error without a clear reason: \(e.text())")
            }
            refused[reason ?? "code \(code)", default: 0] += 1
            for c in op.doomed where contents[c] == .doomed { contents[c] = .alive }
            for c in op.copies { copyAllowance[c, default: 1] -= 1 }
            return
        }
        succeeded += 1
        if op.name == "newFile", let u = r["result"]?["uri"]?.stringValue, let p = try? FileURI.path(u) {
            // The writer types into the new file, as an editor would save it.
            let c = newContent()
            if !Disk.write(String(decoding: p, as: UTF8.self), Array(c.utf8)) { contents[c] = nil }
        }
        if !op.doomed.isEmpty {
            for c in op.doomed where contents[c] == .doomed {
                contents[c] = .gone
                destroyed += 1
            }
            checkSnapshotsDestroyed(op)
        }
    }

    func run() -> Int32 {
        let start = Date()
        say(
            "torture: seed \(opts.seed), \(opts.kills) kills, \(opts.servers) server\(opts.servers == 1 ? "" : "s") at a time, server \(opts.carrel), library \(lib)"
        )
        do { try setUp() } catch {
            say("torture: FAILED to set up: \(error)")
            say("0 passed, 1 failed")
            return 1
        }
        var survived = 0
        var lastProgress = start
        while kills < opts.kills {
            runCycle()
            if !violations.isEmpty { break }
            // A progress line every 50 kills, and at least every 20 s.
            if kills / 50 > survived / 50 || Date().timeIntervalSince(lastProgress) >= 20 {
                say("torture: \(kills) of \(opts.kills) kills survived (\(Int(Date().timeIntervalSince(start))) s)")
                lastProgress = Date()
            }
            survived = kills
        }
        // One last restart checks the state the final kill left.
        if violations.isEmpty, let server = try? spawn() {
            cycle += 1
            if let r = initialize(server), r["result"] != nil {
                checkRepairedLibrary(server)
                checkContents(phase: "after the last restart", afterRestart: true)
                checkLinks(phase: "after the last restart")
                restartsChecked += 1
            } else {
                violation("the last restart failed to initialize")
            }
            server.process.kill()
            server.process.reap()
        }
        let seconds = Date().timeIntervalSince(start)
        let total = sent.values.reduce(0, +)
        let inFlight = inFlightKills.values.reduce(0, +)
        say(
            "torture: \(total) commands sent (\(succeeded) done, \(refused.values.reduce(0, +)) refused with a reason), "
                + "\(contentCounter) contents written, \(destroyed) destroyed by confirmed deletes, \(restartsChecked) restarts checked"
        )
        say(
            "torture: commands: "
                + sent.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        say(
            "torture: refusals: "
                + refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        say(
            "torture: kills in flight: \(inFlight) of \(kills) ("
                + inFlightKills.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "), \(startupKills) aimed at startup; \(String(format: "%.1f", seconds)) s")
        say(
            "torture: \(linkUpdates) renames and moves answered “Update Links”, \(linksLeftDangling.count) links left "
                + "old by a kill before the update (with two servers, broken by a move), "
                + "\(linksOutOfView.count) contents ever out of view")
        say(
            "torture: \(syncCopyRestarts) restarts merged planted conflict copies of project.json and Trash records, "
                + "\(syncCopyStartupKills) of them killed during startup")
        if violations.isEmpty {
            // The run is one test; the kills it survived are its figure.
            say("torture: \(kills) kills survived, 0 failed")
            say("1 passed, 0 failed")
            if !opts.keep { try? FileManager.default.removeItem(atPath: root) }
            return 0
        }
        say(
            "torture: FAILED at cycle \(cycle) (seed \(opts.seed)); the library is kept at \(lib), server log \(errLog)"
        )
        for v in violations.prefix(40) { say("  violation: \(v)") }
        say("torture: \(survived) kills survived, 1 failed")
        say("0 passed, 1 failed")
        return 1
    }
}
