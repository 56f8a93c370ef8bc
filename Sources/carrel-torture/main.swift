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

let options = Options(CommandLine.arguments)
guard access(options.carrel, X_OK) == 0 else {
    say("torture: no server binary at \(options.carrel); build it with `swift build` or pass --carrel PATH")
    say("0 passed, 1 failed")
    exit(1)
}
exit(options.selfTest ? selfTest(options) : Torture(options).run())
