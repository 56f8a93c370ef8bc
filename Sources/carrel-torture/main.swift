// carrel-torture: crash safety proven by fault injection.
//
// Drives a real `carrel lsp` with a seeded random stream of every mutating
// command over a library of real files with unique random contents, kills it
// with SIGKILL at random moments, restarts it, and after every kill checks:
//   - every content exists exactly once (library, project Trash or system trash),
//     nothing lost, duplicated or truncated; confirmed deletions stay deleted;
//   - the restarted server initializes with no error and its tree equals the disk;
//   - every project's template folders are back and project.json parses;
//   - Trash provenance (one record file per item) points only at items really
//     in Trash, one record each; project.json holds none; no lock or spare in
//     the library; no unfinished purge;
//   - no unexpected (temporary) name is visible anywhere in the library.
//
//   carrel-torture [--kills N] [--long] [--seed S] [--carrel PATH] [--keep] [--verbose]
import CarrelClient
import CarrelJSON
import CarrelProtocol
import CarrelRandom
import Foundation
import Glibc

signal(SIGPIPE, SIG_IGN)

/// Unbuffered, so CI logs show progress as it happens.
func say(_ s: String) { FileHandle.standardOutput.write(Data((s + "\n").utf8)) }

struct Options {
    var carrel: String
    var kills = 300
    var seed = UInt64(UInt32(truncatingIfNeeded: time(nil))) ^ UInt64(getpid())
    var keep = false
    var verbose = false
    var selfTest = false
    /// With 2, two servers share the library and are killed independently.
    var servers = 1

    init(_ args: [String]) {
        carrel = Options.besideSelf("carrel")
        var killsGiven = false
        var long = false
        var i = 1
        func value() -> String {
            i += 1
            guard i < args.count else { Options.usage("missing value for \(args[i - 1])") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--kills":
                guard let n = Int(value()) else { Options.usage("--kills takes a number") }
                kills = n
                killsGiven = true
            case "--long": long = true
            case "--seed":
                guard let n = UInt64(value()) else { Options.usage("--seed takes a number") }
                seed = n
            case "--carrel": carrel = value()
            case "--keep": keep = true
            case "--verbose", "-v": verbose = true
            case "--self-test": selfTest = true
            case "--servers":
                guard let n = Int(value()), (1...2).contains(n) else { Options.usage("--servers takes 1 or 2") }
                servers = n
            case "--help", "-h": Options.usage(nil)
            default: Options.usage("unknown argument \(args[i])")
            }
            i += 1
        }
        if long && !killsGiven { kills = 3000 }
    }

    static func besideSelf(_ name: String) -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return ".build/debug/" + name }
        let exe = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (exe as NSString).deletingLastPathComponent + "/" + name
    }

    static func usage(_ problem: String?) -> Never {
        if let problem { FileHandle.standardError.write(Data("carrel-torture: \(problem)\n".utf8)) }
        print(
            """
            USAGE: carrel-torture [--kills N] [--long] [--seed S] [--carrel PATH] [--keep] [--verbose]
              --kills N      SIGKILLs to survive (default 300; 3000 with --long)
              --seed S       replay a run (the seed is printed at the start)
              --carrel PATH  the server binary (default: carrel next to this binary)
              --keep         keep the temporary library (always kept on failure)
              --self-test    plant each kind of fault and check that the checks catch it
              --servers 2    two servers on the library at once, each killed at random
                             (no deletes for good then; the order of the two streams
                             depends on timing, so --seed does not replay it exactly)
            """)
        exit(problem == nil ? 0 : 2)
    }
}

/// Fires one SIGKILL after a delay, noting what was in flight at that moment.
final class Killer: @unchecked Sendable {
    private let lock = NSCondition()
    private var armed = false
    private var fired = false
    private(set) var inFlight: String?
    var pending: String? {
        get { lock.lock(); defer { lock.unlock() }; return _pending }
        set { lock.lock(); _pending = newValue; lock.unlock() }
    }
    private var _pending: String?

    func arm(_ server: LanguageClient, afterMicroseconds us: UInt32) {
        lock.lock()
        if armed { lock.unlock(); return }
        armed = true
        lock.unlock()
        let t = Thread { [self] in
            if us > 0 { usleep(us) }
            lock.lock()
            inFlight = _pending
            server.process.kill()
            fired = true
            lock.broadcast()
            lock.unlock()
        }
        t.start()
    }

    var isArmed: Bool { lock.lock(); defer { lock.unlock() }; return armed }

    func waitFired() {
        lock.lock()
        while !fired { lock.wait() }
        lock.unlock()
    }
}

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
    var contentCounter = 0
    var nameCounter = 0
    var cycle = 0
    var violations: [String] = []

    // Numbers for the report.
    var kills = 0
    var inFlightKills: [String: Int] = [:]
    var startupKills = 0
    var restartsChecked = 0
    var sent: [String: Int] = [:]
    var succeeded = 0
    var refused: [String: Int] = [:]
    var destroyed = 0
    /// Guards everything above when two servers are driven at once.
    let state = NSLock()
    /// The self-test plants faults in the seed projects, so they must stay put.
    var protectSeedProjects = false

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

    /// A file holding a tracked content, in the library (for the self-test).
    func someContentFile() -> String {
        let files = Disk.walk(lib, includeHidden: false).filter { !$0.isDir }.map { lib + "/" + $0.rel }
        return files.first { (Disk.read($0)?.count ?? 0) > 1 }!
    }

    func uri(_ rel: String) -> String { Disk.uri(rel.isEmpty ? lib : lib + "/" + rel) }

    func spawn() throws -> LanguageClient {
        LanguageClient(try ServerProcess(binary: opts.carrel, environment: env, errors: .append(path: errLog)))
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

    // MARK: Commands

    struct Op {
        let name: String
        let command: String
        let args: JSONValue
        /// Contents a delete-for-good would destroy.
        var doomed: [String] = []
    }

    func contentsUnder(_ rel: String) -> [String] {
        let base = lib + "/" + rel
        if !Disk.isDirectory(base) {
            if let b = Disk.read(base), !b.isEmpty { return [String(decoding: b, as: UTF8.self)] }
            return []
        }
        return Disk.walk(base, includeHidden: true).filter { !$0.isDir }.compactMap {
            guard let b = Disk.read(base + "/" + $0.rel), !b.isEmpty else { return nil }
            return String(decoding: b, as: UTF8.self)
        }
    }

    func chooseOp(_ v: View) -> Op {
        let parent = { (rel: String) -> String in rel.split(separator: "/").dropLast().joined(separator: "/") }
        while true {
            let roll = random(100)
            switch roll {
            case 0..<14:
                guard var folder = pick(v.folders) else { continue }
                if chance(0.15), let p = pick(v.projects) { folder = p.rel + "/.carrel/all" }
                return Op(
                    name: "newFile", command: "carrel.newFile",
                    args: ["parentUri": .string(uri(folder)), "name": .string(newName("f"))])
            case 14..<22:
                guard let folder = pick(v.folders), v.folders.count < 120 else { continue }
                return Op(
                    name: "newFolder", command: "carrel.newFolder",
                    args: ["parentUri": .string(uri(folder)), "name": .string(newName("d"))])
            case 22..<24:
                guard v.projects.count < 8 else { continue }
                let type = pick(["blank", "poetry", "shortStory", "novel", "script"])!
                return Op(
                    name: "newProject", command: "carrel.newProject",
                    args: ["parentUri": .string(uri("")), "name": .string(newName("p")), "type": .string(type)])
            case 24..<36:
                guard let item = pick(v.movable + v.inTrash + v.projects.map { ($0.rel, true) }) else { continue }
                if protectSeedProjects && ["Poems", "Novel", "Blank"].contains(item.rel) { continue }
                let name = item.rel.split(separator: "/").last.map(String.init) ?? item.rel
                var newName = item.isDir ? self.newName("r") : self.newName("r") + ".md"
                if chance(0.2), let first = name.first {
                    // Case-only rename, which must work.
                    let flipped = first.isUppercase ? first.lowercased() : first.uppercased()
                    newName = flipped + name.dropFirst()
                } else if chance(0.1),
                    let sibling = pick(
                        (v.movable + v.inTrash).filter { parent($0.rel) == parent(item.rel) && $0.rel != item.rel })
                {
                    newName = sibling.rel.split(separator: "/").last.map(String.init) ?? newName  // refused: nameTaken
                }
                return Op(
                    name: "rename", command: "carrel.rename",
                    args: ["uri": .string(uri(item.rel)), "newName": .string(newName)])
            case 36..<52:
                guard let item = pick(v.movable + v.inTrash), let dest = pick(v.folders) else { continue }
                return Op(
                    name: "moveTo", command: "carrel.moveTo",
                    args: ["uri": .string(uri(item.rel)), "destinationUri": .string(uri(dest))])
            case 52..<66:
                guard let item = pick(v.movable) else { continue }
                var args: JSONValue = ["uri": .string(uri(item.rel))]
                if chance(0.7) { args = ["uri": .string(uri(item.rel)), "confirmed": true] }
                return Op(
                    name: v.plainFolders.contains(where: { item.rel == $0 || item.rel.hasPrefix($0 + "/") })
                        || !item.rel.contains("/") ? "delete(system trash)" : "delete",
                    command: "carrel.delete", args: args)
            case 66..<67:
                guard v.projects.count > 2, let p = pick(v.projects) else { continue }
                if protectSeedProjects && ["Poems", "Novel", "Blank"].contains(p.rel) { continue }
                return Op(
                    name: "delete(project)", command: "carrel.delete",
                    args: ["uri": .string(uri(p.rel)), "confirmed": true])
            case 67..<72:
                guard opts.servers == 1, let item = pick(v.inTrash) else { continue }
                return Op(
                    name: "deleteForever", command: "carrel.delete",
                    args: ["uri": .string(uri(item.rel)), "confirmed": .bool(chance(0.5))],
                    doomed: contentsUnder(item.rel))
            case 72..<84:
                guard let item = pick(v.inTrash) else { continue }
                return Op(name: "restore", command: "carrel.restore", args: ["uri": .string(uri(item.rel))])
            case 84..<86:
                guard opts.servers == 1, let p = pick(v.projects) else { continue }
                return Op(
                    name: "emptyTrash", command: "carrel.emptyTrash",
                    args: ["projectUri": .string(uri(p.rel)), "confirmed": .bool(chance(0.5))],
                    doomed: contentsUnder(p.rel + "/Trash"))
            case 86..<89:
                guard let f = pick(v.folders) else { continue }
                return Op(
                    name: "setSort", command: "carrel.setSort",
                    args: [
                        "uri": .string(uri(f)), "by": .string(pick(["name", "modified", "created"])!),
                        "descending": .bool(chance(0.5)),
                    ])
            case 89..<90:
                guard let f = pick(v.folders) else { continue }
                return Op(
                    name: "setConfirmDelete", command: "carrel.setConfirmDelete",
                    args: ["uri": .string(uri(f)), "confirm": .bool(chance(0.5))])
            default:
                // Commands that must be refused, so kills also land in refusals.
                switch random(4) {
                case 0:
                    guard let p = pick(v.permanent) else { continue }
                    return Op(
                        name: "refused", command: "carrel.rename", args: ["uri": .string(uri(p)), "newName": "X"])
                case 1:
                    guard let d = pick(v.movable.filter(\.isDir)) else { continue }
                    return Op(
                        name: "refused", command: "carrel.moveTo",
                        args: ["uri": .string(uri(d.rel)), "destinationUri": .string(uri(d.rel))])
                case 2:
                    guard let f = pick(v.folders) else { continue }
                    return Op(
                        name: "refused", command: "carrel.newFolder",
                        args: ["parentUri": .string(uri(f)), "name": "bad/name"])
                default:
                    guard let m = pick(v.movable) else { continue }
                    return Op(name: "refused", command: "carrel.restore", args: ["uri": .string(uri(m.rel))])
                }
            }
        }
    }

    // MARK: Checks

    /// Where each content is, hidden places included: the library and the system trash.
    func locateContents(phase: String) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for (base, label) in [(lib, "lib"), (dataHome + "/Trash/files", "system-trash")] {
            for n in Disk.walk(base, includeHidden: true) where !n.isDir && !n.isLink {
                let parts = n.rel.split(separator: "/")
                // Carrel's metadata, but for what waits in purge to be deleted.
                if let i = parts.firstIndex(of: ".carrel"), i + 1 < parts.count, parts[i + 1] != "purge" { continue }
                guard let bytes = Disk.read(base + "/" + n.rel) else {
                    violation("\(phase): cannot read \(label)/\(n.rel)")
                    continue
                }
                if bytes.isEmpty { continue }  // a new empty file
                let text = String(decoding: bytes, as: UTF8.self)
                if contents[text] == nil {
                    violation(
                        "\(phase): \(label)/\(n.rel) holds content the harness never wrote (truncated or garbled): \(text.prefix(60).debugDescription)"
                    )
                    continue
                }
                found[text, default: []].append("\(label)/\(n.rel)")
            }
        }
        return found
    }

    func checkContents(phase: String, afterRestart: Bool) {
        let found = locateContents(phase: phase)
        for (c, state) in contents {
            let places = found[c] ?? []
            let id = c.split(separator: ":").dropFirst().first ?? "?"
            let inPurge = places.filter { $0.contains("/.carrel/purge/") }
            switch state {
            case .alive:
                if places.isEmpty {
                    violation("\(phase): content #\(id) is lost (it should be in the library or a Trash)")
                }
                if places.count > 1 { violation("\(phase): content #\(id) is duplicated: \(places)") }
                if !inPurge.isEmpty {
                    violation("\(phase): content #\(id), never deleted for good, is in a purge folder: \(places)")
                }
            case .doomed:
                if places.count > 1 { violation("\(phase): content #\(id) is duplicated: \(places)") }
                if places.isEmpty {
                    contents[c] = .gone
                    destroyed += 1
                } else if inPurge.isEmpty {
                    contents[c] = .alive  // the delete never happened
                } else if afterRestart {
                    violation("\(phase): content #\(id) is still in a purge folder after a restart: \(places)")
                }
            case .gone:
                if !places.isEmpty && (afterRestart || places.count != inPurge.count) {
                    violation("\(phase): content #\(id) was deleted for good but is back: \(places)")
                }
            }
        }
    }

    static let namePattern = try! NSRegularExpression(pattern: #"^[a-zA-Z]+[0-9]+( [0-9]+)*(\.md)?$"#)

    func checkRepairedLibrary(_ server: LanguageClient?) {
        let phase = "after restart"
        for n in Disk.walk(lib, includeHidden: false) {
            // The server's clash suffix (" 2") can follow any name it was given.
            let base = n.name.replacingOccurrences(of: #"( [0-9]+)+$"#, with: "", options: .regularExpression)
            let ok =
                Templates.allNames.contains(base) || ["notes", "poems", "novel", "blank"].contains(base.lowercased())
                || Self.namePattern.firstMatch(in: n.name, range: NSRange(n.name.startIndex..., in: n.name)) != nil
            if !ok {
                violation(
                    "\(phase): unexpected visible name \(n.rel.debugDescription) (a temporary file left in view?)")
            }
            if n.isLink { violation("\(phase): a symlink appeared at \(n.rel)") }
        }
        for n in Disk.walk(lib, includeHidden: false) where n.isDir && !n.rel.contains("/") {
            let marker = lib + "/" + n.rel + "/.carrel/project.json"
            guard Disk.exists(marker) else { continue }
            guard let bytes = Disk.read(marker), let json = try? JSONParser.parse(bytes), json.objectValue != nil else {
                violation("\(phase): \(n.rel)/.carrel/project.json does not parse")
                continue
            }
            guard let type = json["type"]?.stringValue, let templates = Templates.byType[type] else {
                violation("\(phase): \(n.rel)/.carrel/project.json has no known type")
                continue
            }
            for t in templates where !Disk.isDirectory(lib + "/" + n.rel + "/" + t) {
                violation("\(phase): template folder \(n.rel)/\(t) is missing")
            }
            let trashNames = Set(
                Disk.walk(lib + "/" + n.rel + "/Trash", includeHidden: true).filter { !$0.rel.contains("/") }.map(
                    \.name))
            // Provenance lives in one record file per Trash item; project.json
            // keeps settings only, and nothing device-local is in the library.
            if json["trash"] != nil { violation("\(phase): \(n.rel)/.carrel/project.json still holds Trash records") }
            for leftover in ["lock", ".project.json.previous"]
            where Disk.exists(lib + "/" + n.rel + "/.carrel/" + leftover) {
                violation("\(phase): \(n.rel)/.carrel/\(leftover) is in the library")
            }
            let recordFolder = lib + "/" + n.rel + "/.carrel/trash"
            var recordsOf: [String: Int] = [:]
            for r in Disk.walk(recordFolder, includeHidden: true) where !r.rel.contains("/") && !r.isDir {
                guard let bytes = Disk.read(recordFolder + "/" + r.rel), let record = try? JSONParser.parse(bytes),
                    let name = record["name"]?.stringValue
                else {
                    violation("\(phase): \(n.rel) Trash record file \(r.name.debugDescription) is not a record")
                    continue
                }
                recordsOf[name, default: 0] += 1
                if !trashNames.contains(name) {
                    violation("\(phase): \(n.rel) Trash record \(name.debugDescription) points at nothing in Trash")
                }
                if record["from"]?.stringValue == nil {
                    violation("\(phase): \(n.rel) Trash record \(name.debugDescription) has no “from”")
                }
            }
            for (name, count) in recordsOf where count > 1 {
                violation("\(phase): \(n.rel) Trash item \(name.debugDescription) has \(count) records")
            }
            let purge = lib + "/" + n.rel + "/.carrel/purge"
            if Disk.exists(purge), !Disk.walk(purge, includeHidden: true).isEmpty {
                violation("\(phase): \(n.rel)/.carrel/purge still holds an unfinished purge")
            }
        }
        // The model the restarted server built equals the disk.
        guard let server else { return }
        let roots: [JSONValue]
        do {
            roots = try server.send(Tree())
        } catch LanguageClient.Failure.serverGone, LanguageClient.Failure.timeout {
            return  // killed meanwhile: checked next time
        } catch {
            violation("\(phase): carrel/tree failed: \(error)")
            return
        }
        var shown = Set<String>()
        var stack = roots
        while let node = stack.popLast() {
            if node["kind"] == "file", let u = node["uri"]?.stringValue, let p = try? FileURI.path(u) {
                shown.insert(String(decoding: p, as: UTF8.self))
            }
            stack += node["children"]?.arrayValue ?? []
        }
        let onDisk = Set(Disk.walk(lib, includeHidden: false).filter { !$0.isDir }.map { lib + "/" + $0.rel })
        if shown != onDisk {
            violation(
                "\(phase): the server's tree differs from the disk: only shown \(shown.subtracting(onDisk).sorted()), only on disk \(onDisk.subtracting(shown).sorted())"
            )
        }
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
            let path = (f.isEmpty ? lib : lib + "/" + f) + "/" + newName("s") + ".md"
            let c = newContent()
            if !Disk.write(path, Array(c.utf8)) { contents[c] = nil }
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

    // MARK: One kill

    /// One server's part of a cycle: it starts, is checked, takes commands
    /// and is killed. With `--servers 2`, two of these run at once.
    final class Run: @unchecked Sendable {
        let server: LanguageClient
        let killer = Killer()
        var killDuringStartup = false
        var killAt = 0
        var delay: UInt32 = 0
        init(_ server: LanguageClient) { self.server = server }
    }

    func runCycle() {
        cycle += 1
        var runs: [Run] = []
        for _ in 0..<opts.servers {
            do { runs.append(Run(try spawn())) } catch { violation("\(error)"); return }
        }
        for run in runs {
            run.killDuringStartup = chance(0.1)
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
        for run in initialized {
            checkRepairedLibrary(run.server)
            if !run.server.isDead { restartsChecked += 1 }
        }
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
            if let what = run.killer.inFlight { inFlightKills[what, default: 0] += 1 }
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
            for c in op.doomed where contents[c] == .alive { contents[c] = .doomed }
            sent[op.name, default: 0] += 1
            state.unlock()
            run.killer.pending = op.name
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
            handle(op, r)
            let failed = !violations.isEmpty
            state.unlock()
            if failed { break }
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

/// Proves the checks can fail: each fault is planted on disk after a few
/// kills, and the checks must name it.
func selfTest(_ options: Options) -> Int32 {
    let faults: [(String, String, (Torture) -> Void)] = [
        (
            "lose a file", "is lost",
            { t in
                let f = t.someContentFile()
                unlink(f)
            }
        ),
        (
            "duplicate a file under a hidden name", "duplicated",
            { t in
                let f = t.someContentFile()
                _ = Disk.write((f as NSString).deletingLastPathComponent + "/.copy", Disk.read(f)!)
            }
        ),
        (
            "truncate a file", "never wrote",
            { t in
                let f = t.someContentFile()
                truncate(f, off_t(Disk.read(f)!.count / 2))
            }
        ),
        (
            "leave a visible temporary file", "unexpected visible name",
            { t in
                _ = Disk.write(t.lib + "/Poems/Draft/project.json.tmp", [])
            }
        ),
        (
            "point a Trash record at nothing", "points at nothing",
            { t in
                mkdir(t.lib + "/Blank/.carrel/trash", 0o755)
                let record: JSONValue = ["name": "ghost.md", "from": "ghost.md", "deleted": 1]
                _ = Disk.write(t.lib + "/Blank/.carrel/trash/1-ghost.json", record.encoded())
            }
        ),
        (
            "remove a template folder", "is missing",
            { t in
                let d = t.lib + "/Poems/Magazines"
                for n in Disk.walk(d, includeHidden: true) where !n.isDir {
                    rename(d + "/" + n.rel, t.lib + "/Poems/Draft/" + n.name)
                }
                for n in Disk.walk(d, includeHidden: true).sorted(by: { $0.rel.count > $1.rel.count }) {
                    rmdir(d + "/" + n.rel)
                }
                rmdir(d)
            }
        ),
        (
            "corrupt project.json", "does not parse",
            { t in
                _ = Disk.write(t.lib + "/Novel/.carrel/project.json", Array("{\"type\":".utf8))
            }
        ),
        (
            "bring back a deleted content", "is back",
            { t in
                let f = t.someContentFile()
                t.contents[String(decoding: Disk.read(f)!, as: UTF8.self)] = .gone
            }
        ),
    ]
    var passed = 0
    var failed = 0
    for (i, (what, expected, plant)) in faults.enumerated() {
        var o = options
        o.seed = options.seed &+ UInt64(i)
        o.verbose = false
        let t = Torture(o)
        t.protectSeedProjects = true
        do { try t.setUp() } catch { say("self-test: set-up failed: \(error)"); return 1 }
        for _ in 0..<3 { t.runCycle() }
        guard t.violations.isEmpty else { say("self-test: clean cycles failed: \(t.violations)"); return 1 }
        plant(t)
        t.checkRepairedLibrary(nil)
        t.checkContents(phase: "self-test", afterRestart: true)
        if t.violations.contains(where: { $0.contains(expected) }) {
            passed += 1
            say("self-test: \(what): caught (\(t.violations.first { $0.contains(expected) }!))")
        } else {
            failed += 1
            say("self-test: \(what): NOT caught; violations: \(t.violations)")
        }
        try? FileManager.default.removeItem(atPath: t.root)
    }
    say("self-test: \(passed) planted faults caught, \(failed) missed")
    say("\(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
}

let options = Options(CommandLine.arguments)
guard access(options.carrel, X_OK) == 0 else {
    say("torture: no server binary at \(options.carrel); build it with `swift build` or pass --carrel PATH")
    say("0 passed, 1 failed")
    exit(1)
}
exit(options.selfTest ? selfTest(options) : Torture(options).run())
