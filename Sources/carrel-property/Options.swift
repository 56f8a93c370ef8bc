import Foundation
import Glibc

struct Options {
    var carrel: String
    var seed = UInt64(UInt32(truncatingIfNeeded: time(nil))) ^ UInt64(getpid())
    var runs = 12
    var steps = 30
    var keep = false
    var verbose = false

    init(_ args: [String]) {
        carrel = Options.besideSelf("carrel")
        var i = 1
        func number(_ flag: String) -> UInt64 {
            i += 1
            guard i < args.count, let n = UInt64(args[i]) else { Options.usage("\(flag) takes a number") }
            return n
        }
        while i < args.count {
            switch args[i] {
            case "--seed": seed = number("--seed")
            case "--runs": runs = Int(clamping: number("--runs"))
            case "--steps": steps = Int(clamping: number("--steps"))
            case "--carrel":
                i += 1
                guard i < args.count else { Options.usage("--carrel takes a path") }
                carrel = args[i]
            case "--keep": keep = true
            case "--verbose", "-v": verbose = true
            case "--help", "-h": Options.usage(nil)
            default: Options.usage("unknown argument \(args[i])")
            }
            i += 1
        }
    }

    static func besideSelf(_ name: String) -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return ".build/debug/" + name }
        let exe = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (exe as NSString).deletingLastPathComponent + "/" + name
    }

    static func usage(_ problem: String?) -> Never {
        if let problem { FileHandle.standardError.write(Data("carrel-property: \(problem)\n".utf8)) }
        print(
            """
            USAGE: carrel-property [--seed S] [--runs N] [--steps K] [--carrel PATH] [--keep] [--verbose]
              --seed S       the first run's seed; run i uses S + i (default: from the clock, printed)
              --runs N       runs, each a fresh library (default 12)
              --steps K      steps in each run (default 30)
              --carrel PATH  the server binary (default: carrel next to this binary)
              --keep         keep every library, and print where a failed run's is
              --verbose      print each step as it is done
            """)
        exit(problem == nil ? 0 : 2)
    }
}
