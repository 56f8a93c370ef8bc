import Foundation
import Glibc

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
