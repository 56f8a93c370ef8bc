import CarrelProtocol
import Foundation
import Glibc

/// One run's temporary folder: the library, a sibling folder outside it
/// that holds every link's target (hashed after each step, since nothing
/// there may change), and the home the server and the CLI see.
struct Sandbox {
    let root: String
    let lib: String
    let outside: String
    let home: String
    let errLog: String
    let env: [String: String]

    init() {
        var template = Array("/tmp/carrel-property-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        root = String(cString: made)
        lib = root + "/lib"
        outside = root + "/outside"
        home = root + "/home"
        errLog = root + "/server-stderr.log"
        for d in [lib, outside, home, outside + "/folder", outside + "/trash"] { mkdir(d, 0o755) }
        Disk.write(outside + "/folder/kept.md", "outside the library\n")
        Disk.write(outside + "/trash/1-0000000000000001.json", #"{"name": "kept.md", "from": "kept.md"}"#)
        Disk.write(outside + "/attributes", "*.md text\n")
        Disk.write(outside + "/order", "kept.md\n")
        Disk.write(outside + "/project.json", #"{"type": "poetry", "version": 1}"#)
        var e = ProcessInfo.processInfo.environment
        e["HOME"] = home
        e["XDG_DATA_HOME"] = home + "/data"
        e["XDG_STATE_HOME"] = home + "/state"
        e["SWIFT_BACKTRACE"] = "enable=no"
        e["LANG"] = "C"
        e.removeValue(forKey: "CARREL_LIBRARY")
        env = e
    }

    /// The system trash, where deletes outside projects go.
    var systemTrash: String { home + "/data/Trash/files" }

    func path(_ rel: String) -> String { rel.isEmpty ? lib : lib + "/" + rel }
    func uri(_ rel: String) -> String { FileURI.uri(Array(path(rel).utf8)) }

    /// A library path as printed in a step: relative, so a replay reads the same.
    func relative(_ text: String) -> String {
        text.replacingOccurrences(of: uri(""), with: "$LIB").replacingOccurrences(of: lib, with: "$LIB")
            .replacingOccurrences(of: root, with: "$ROOT")
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}
