// carrel-property: a property test over Carrel's own files.
//
// Each run forges a fresh library from one seed: project.json settings
// stamped at the extremes and roles naming the writer's folders, Trash
// records of every origin, order files huge and odd, Syncthing's conflict
// copies of each, links out of the library, pipes, huge and empty files.
// Then it takes random steps: commands over LSP to the real `carrel lsp`,
// CLI runs, restarts, and changes made behind the server's back. After
// every step it checks:
//   - the server runs, unless it was told to stop; every request is
//     answered within 5 s; every CLI run ends, in a known exit code;
//   - nothing outside the library changed (a sibling folder holds every
//     link's target, and is hashed);
//   - no writer's file was destroyed, unless the step emptied the catalog's
//     Trash or deleted inside it, and the file was there;
//   - every refusal names its reason and says it in words;
//   - a file Carrel cannot read (an order file over 1 MiB, a pipe, a link)
//     is never replaced or removed;
//   - a restore that answered OK took the item out of the Trash, to a
//     folder its record (or its original's record) names.
// A failed run prints its seed and every step, and replays exactly.
//
//   carrel-property [--seed S] [--runs N] [--steps K] [--carrel PATH] [--keep] [--verbose]
import Foundation
import Glibc

signal(SIGPIPE, SIG_IGN)

let options = Options(CommandLine.arguments)
guard access(options.carrel, X_OK) == 0 else {
    say("property: no server binary at \(options.carrel); build it with `swift build` or pass --carrel PATH")
    say("0 passed, 1 failed")
    exit(1)
}
say("property: seed \(options.seed), \(options.runs) runs of \(options.steps) steps, server \(options.carrel)")
let start = Date()
var passed = 0
var failed = 0
var broken: [Invariant: [UInt64]] = [:]
for i in 0..<options.runs {
    let seed = options.seed &+ UInt64(i)
    let run = PropertyRun(seed: seed, opts: options)
    if run.run() {
        passed += 1
        run.cleanUp(keep: options.keep)
    } else {
        failed += 1
        broken[run.broken ?? .harness, default: []].append(seed)
        for line in run.report() { say(line) }
        run.cleanUp(keep: options.keep)
    }
    if Date().timeIntervalSince(start) >= 20 && (i + 1) % 10 == 0 {
        say("property: \(i + 1) of \(options.runs) runs (\(Int(Date().timeIntervalSince(start))) s)")
    }
}
for invariant in Invariant.allCases {
    guard let seeds = broken[invariant] else { continue }
    say("property: \(invariant.rawValue): seeds " + seeds.map(String.init).joined(separator: ", "))
}
say("property: \(passed + failed) runs in \(Int(Date().timeIntervalSince(start))) s")
say("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
