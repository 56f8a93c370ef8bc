import Foundation
import Glibc

/// Two real Syncthing instances, machine A and machine B, each with its own
/// home in one temporary folder, sharing one folder (a Carrel library).
/// They talk over 127.0.0.1 only: discovery, relays, NAT traversal, usage
/// and crash reporting are off, so a test never reaches the network. The
/// folder is watched with a one-second delay, so a change crosses over in
/// a second or two. Both processes are killed and reaped when this goes.
public final class Syncthing {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One instance: its folder, device ID and REST API.
    public final class Machine {
        public let name: String
        public let folder: String
        public let deviceID: String
        let home: String
        let listenPort: Int
        let guiPort: Int
        let apiKey: String
        var process: Process?

        init(name: String, root: String, binary: String) throws {
            self.name = name
            home = root + "/" + name + "-home"
            folder = root + "/" + name + "/library"
            // Syncthing refuses a folder without its marker, so an existing
            // library is marked as a writer's would be when shared.
            try FileManager.default.createDirectory(atPath: folder + "/.stfolder", withIntermediateDirectories: true)
            listenPort = try freePort()
            guiPort = try freePort()
            apiKey = "carrel-test-" + UUID().uuidString
            let generated = try Syncthing.run(
                binary, ["generate", "--home=" + home, "--no-default-folder"], home: home)
            guard let line = generated.split(separator: "\n").first(where: { $0.contains("Device ID:") }),
                let id = line.components(separatedBy: "Device ID:").last?.trimmingCharacters(in: .whitespaces),
                !id.isEmpty
            else { throw Failure(description: "syncthing generate printed no device ID for \(name): \(generated)") }
            deviceID = id
        }

        var log: String { home + "/syncthing.log" }

        /// The end of this instance's log, for a failure message.
        var logTail: String {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").suffix(15).joined(separator: "\n")
        }
    }

    public static let folderID = "carrel-library"

    /// `syncthing` on PATH, or nil when it is not installed.
    public static var binary: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where access(dir + "/syncthing", X_OK) == 0 {
            return dir + "/syncthing"
        }
        return nil
    }

    public let root: Fixture
    public let a: Machine
    public let b: Machine

    /// Starts both instances with `tree` (a `Fixture` literal) in machine A's
    /// library, and returns once B has it too.
    public init(tree: String = "", timeout: TimeInterval = 30) throws {
        guard let binary = Self.binary else { throw Failure(description: "syncthing is not installed") }
        root = try Fixture()
        a = try Machine(name: "A", root: root.path, binary: binary)
        b = try Machine(name: "B", root: root.path, binary: binary)
        let lines = tree.split(separator: "\n").map { "A/library/" + $0.trimmingCharacters(in: .whitespaces) }
        try root.add(lines.joined(separator: "\n"))
        let deadline = Date().addingTimeInterval(timeout)
        // B listens before A, which dials it, starts: a first dial that
        // fails waits for the next round of reconnection.
        for (machine, other) in [(b, a), (a, b)] {
            try config(machine, other).write(toFile: machine.home + "/config.xml", atomically: true, encoding: .utf8)
            try start(machine, binary)
            try waitUntil(deadline, "machine \(machine.name) to answer on its REST API") {
                (try? self.get(machine, "/rest/system/ping")) != nil
            }
        }
        try waitUntilConnected(deadline)
        try waitUntilInSync(timeout: deadline.timeIntervalSinceNow)
    }

    deinit {
        for machine in [a, b] {
            guard let p = machine.process else { continue }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
    }

    // MARK: - Sync control

    /// Each machine goes on alone: the shared folder is paused on both, so
    /// neither sends nor takes changes. Pausing the folder, not the devices,
    /// keeps the connection: after pausing devices both dial at once on
    /// resume and Syncthing may wait out a 20-second handshake timeout.
    public func pause() throws {
        try setPaused(true)
        try waitUntil(Date().addingTimeInterval(10), "the folder to be paused on both machines") {
            try self.folderState(self.a) == "" && self.folderState(self.b) == ""
        }
    }

    /// The folder runs again on both: each rescans what it did alone, then
    /// they exchange; `waitUntilInSync` says when they agree.
    public func resume(timeout: TimeInterval = 30) throws {
        try setPaused(false)
        try waitUntil(Date().addingTimeInterval(timeout), "the folder to run again on both machines") {
            try self.folderState(self.a) != "" && self.folderState(self.b) != ""
        }
    }

    private func setPaused(_ paused: Bool) throws {
        for machine in [a, b] {
            _ = try request(machine, "PATCH", "/rest/config/folders/" + Self.folderID, body: "{\"paused\":\(paused)}")
        }
    }

    /// "idle", "scanning", "syncing" and so on; a paused folder has none.
    private func folderState(_ machine: Machine) throws -> String? {
        try get(machine, "/rest/db/status?folder=" + Self.folderID)["state"] as? String
    }

    /// Returns once both machines have scanned their folder, both are idle,
    /// each needs nothing and sees the other complete, and a further round
    /// of scans changes nothing (a conflict copy, made while pulling, is
    /// itself a change to send).
    public func waitUntilInSync(timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var previous: [Int] = []
        while true {
            // A folder just resumed may refuse a scan until it runs; it
            // scans on its own then.
            for machine in [a, b] { _ = try? post(machine, "/rest/db/scan?folder=" + Self.folderID) }
            var sequences: [Int] = []
            try waitUntil(deadline, "both folders idle with nothing needed, each 100% complete for the other") {
                sequences = []
                for (machine, other) in [(self.a, self.b), (self.b, self.a)] {
                    let status = try self.get(machine, "/rest/db/status?folder=" + Self.folderID)
                    let completion = try self.get(
                        machine, "/rest/db/completion?folder=\(Self.folderID)&device=\(other.deviceID)")
                    guard status["state"] as? String == "idle", number(status["needTotalItems"]) == 0,
                        number(completion["completion"]) == 100, number(completion["needItems"]) == 0,
                        let sequence = number(status["sequence"])
                    else { return false }
                    sequences.append(Int(sequence))
                }
                return true
            }
            if sequences == previous { return }
            previous = sequences
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    // MARK: - Processes

    private func start(_ machine: Machine, _ binary: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["serve", "--home=" + machine.home, "--no-browser", "--no-restart", "--logflags=0"]
        p.environment = Self.environment(home: machine.home)
        _ = FileManager.default.createFile(atPath: machine.log, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: machine.log))
        p.standardOutput = log
        p.standardError = log
        p.standardInput = FileHandle.nullDevice
        try p.run()
        machine.process = p
    }

    /// Its own HOME, and neither upgrades nor a restarting monitor process
    /// that would outlive the kill.
    static func environment(home: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home,
            "STNOUPGRADE": "1", "STNORESTART": "1", "STNODEFAULTFOLDER": "1", "STMONITORED": "1",
        ]
    }

    static func run(_ binary: String, _ arguments: [String], home: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        p.environment = environment(home: home)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failure(description: "syncthing \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// A whole config.xml: one folder shared with the other device, every
    /// address on 127.0.0.1, everything that would reach beyond it off. A
    /// setting left out of the file is zero, not Syncthing's default, so the
    /// defaults that matter are spelled out (no `maxConflicts` would mean no
    /// conflict copies: the losing side of a conflict discarded). Only A
    /// dials: when both dial at once, one handshake waits out a 20-second
    /// timeout.
    private func config(_ machine: Machine, _ other: Machine) -> String {
        func device(_ m: Machine) -> String {
            let address = m === b ? "tcp://127.0.0.1:\(m.listenPort)" : "dynamic"
            return """
                    <device id="\(m.deviceID)" name="\(m.name)" compression="metadata" introducer="false">
                        <address>\(address)</address>
                        <autoAcceptFolders>false</autoAcceptFolders>
                    </device>
                """
        }
        return """
            <configuration version="36">
                <folder id="\(Self.folderID)" label="library" path="\(machine.folder)" type="sendreceive"
                        rescanIntervalS="60" fsWatcherEnabled="true" fsWatcherDelayS="1">
                    <filesystemType>basic</filesystemType>
                    <device id="\(machine.deviceID)"></device>
                    <device id="\(other.deviceID)"></device>
                    <minDiskFree unit="%">0</minDiskFree>
                    <order>random</order>
                    <maxConflicts>10</maxConflicts>
                    <weakHashThresholdPct>25</weakHashThresholdPct>
                    <markerName>.stfolder</markerName>
                    <maxConcurrentWrites>2</maxConcurrentWrites>
                    <blockPullOrder>standard</blockPullOrder>
                    <copyRangeMethod>standard</copyRangeMethod>
                </folder>
            \(device(machine))
            \(device(other))
                <gui enabled="true" tls="false">
                    <address>127.0.0.1:\(machine.guiPort)</address>
                    <apikey>\(machine.apiKey)</apikey>
                </gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(machine.listenPort)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <urAccepted>-1</urAccepted>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <startBrowser>false</startBrowser>
                    <announceLANAddresses>false</announceLANAddresses>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <minHomeDiskFree unit="%">0</minHomeDiskFree>
                    <setLowPriority>false</setLowPriority>
                    <keepTemporariesH>24</keepTemporariesH>
                    <progressUpdateIntervalS>5</progressUpdateIntervalS>
                    <tempIndexMinBlocks>10</tempIndexMinBlocks>
                    <databaseTuning>auto</databaseTuning>
                </options>
            </configuration>
            """
    }

    // MARK: - Waiting

    private func connected(_ machine: Machine, to other: Machine) throws -> Bool {
        let connections = try get(machine, "/rest/system/connections")["connections"] as? [String: Any]
        return (connections?[other.deviceID] as? [String: Any])?["connected"] as? Bool == true
    }

    private func waitUntilConnected(_ deadline: Date) throws {
        try waitUntil(deadline, "machines A and B to connect to each other over 127.0.0.1") {
            try self.connected(self.a, to: self.b) && self.connected(self.b, to: self.a)
        }
    }

    /// Polls `condition` until it holds; at `deadline`, throws what did not
    /// happen with the end of both logs.
    private func waitUntil(_ deadline: Date, _ what: String, _ condition: () throws -> Bool) throws {
        var lastError: Error?
        while true {
            do {
                if try condition() { return }
            } catch { lastError = error }
            if Date() >= deadline {
                let why = lastError.map { " (last error: \($0))" } ?? ""
                throw Failure(
                    description: "timed out waiting for \(what)\(why)\n"
                        + "machine A log:\n\(a.logTail)\nmachine B log:\n\(b.logTail)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    // MARK: - REST

    private func get(_ machine: Machine, _ path: String) throws -> [String: Any] {
        try request(machine, "GET", path)
    }

    private func post(_ machine: Machine, _ path: String) throws -> [String: Any] {
        try request(machine, "POST", path)
    }

    /// One HTTP/1.0 exchange over a plain socket (Foundation's URLSession is
    /// in FoundationNetworking, which the test support does not import):
    /// the server closes the connection after its answer.
    private func request(_ machine: Machine, _ method: String, _ path: String, body: String = "") throws
        -> [String: Any]
    {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var limit = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: machine.guiPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "\(machine.name)'s REST API refused: errno \(errno)") }
        let head =
            "\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nX-API-Key: \(machine.apiKey)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let bytes = Array(head.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            throw Failure(description: "\(machine.name): could not send \(method) \(path)")
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else {
            throw Failure(description: "\(machine.name): no HTTP answer to \(method) \(path)")
        }
        let status = text[..<split.lowerBound].split(separator: " ").dropFirst().first ?? ""
        let answered = String(text[split.upperBound...])
        guard status == "200" else {
            throw Failure(description: "\(machine.name): \(method) \(path) answered \(status): \(answered)")
        }
        guard !answered.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [:] }
        let json = try JSONSerialization.jsonObject(with: Data(answered.utf8))
        return json as? [String: Any] ?? [:]
    }
}

/// A JSON number as JSONSerialization gives it on Linux (an NSNumber).
private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

private func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// A port free on 127.0.0.1 now: the kernel picks it for a socket bound to
/// port 0, which is then closed for Syncthing to take.
private func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Syncthing.Failure(description: "socket: errno \(errno)") }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw Syncthing.Failure(description: "no free port on 127.0.0.1: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
