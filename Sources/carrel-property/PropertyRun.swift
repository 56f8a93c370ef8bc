import CarrelClient
import CarrelJSON
import CarrelProtocol
import CarrelRandom
import Foundation
import Glibc

/// One seeded run: a fresh library with forged contents, then `steps`
/// random steps, each followed by every check. The first violation ends it.
final class PropertyRun {
    let seed: UInt64
    let opts: Options
    var rng: SeededRandom
    let box = Sandbox()
    var ledger: Ledger
    var hazards: Set<Hazard> = []
    var server: LanguageClient?
    /// Carrel's files planted where Carrel cannot read them (an order file
    /// over 1 MiB, a pipe): nothing may replace or remove them.
    var unreadable: [String: String] = [:]
    var projects: [(name: String, type: String)] = []
    var done: [String] = []
    var violation: String?
    var broken: Invariant?
    /// The step being done, for the violation's text.
    var stepLabel = "start"
    /// Items no step renames, moves or deletes, so what was forged beside
    /// or for them stays where the checks look.
    var pinned: Set<String> = []
    /// Market folders, forged ones included.
    var markets: [String] = []
    /// Records that must be listed, and forged ones that must be skipped.
    var goodRecords: [String: [String]] = [:]
    var forgedRecords: [String: [String]] = [:]
    /// Files whose snapshot folder was forged: the names a listing must skip.
    var forgedSnapshots: [String: [String]] = [:]
    /// The outside folder's fingerprint, taken once the library is forged.
    var outsidePrint: [String: UInt64] = [:]

    /// Every request is answered within this, or the server is hung. A
    /// generous bound for "answered at all", never a speed assertion: on a
    /// machine whose disk is busy with other work, one fsync of a folder
    /// (emptying a Trash makes several) took over a second.
    static let answerBound: TimeInterval = 5
    /// A CLI run starts a process and reads the library whole.
    static let cliBound: TimeInterval = 5

    init(seed: UInt64, opts: Options) {
        self.seed = seed
        self.opts = opts
        rng = SeededRandom(seed: seed)
        ledger = Ledger(run: seed)
    }

    func random(_ n: Int) -> Int { rng.below(n) }
    func chance(_ percent: Int) -> Bool { rng.below(100) < percent }
    func pick<T>(_ a: [T]) -> T? { a.isEmpty ? nil : a[random(a.count)] }

    func fail(_ invariant: Invariant, _ what: String) {
        guard violation == nil else { return }
        violation = "\(stepLabel): \(what)"
        broken = invariant
    }

    /// Runs the steps; true when every check held.
    func run() -> Bool {
        for h in Hazard.allCases where chance(55) { hazards.insert(h) }
        makeLibrary()
        forge()
        outsidePrint = Disk.fingerprint(box.outside)
        startServer()
        if violation == nil { check(Expect()) }
        var n = 0
        while violation == nil && n < opts.steps {
            n += 1
            stepLabel = "step \(n)"
            let step = choose()
            done.append(step.text)
            if opts.verbose { say("  \(seed) \(n): \(box.relative(step.text))") }
            let expect = perform(step)
            if violation == nil { check(expect) }
        }
        stepLabel = "end"
        stopServer()
        return violation == nil
    }

    /// What a failure prints: the seed, the hazards, every step and the
    /// violation, so the run replays exactly.
    func report() -> [String] {
        var lines = [
            "property: seed \(seed) FAILED after \(done.count) steps: \(box.relative(violation ?? "?"))",
            "  replay: carrel-property --seed \(seed) --runs 1 --steps \(done.count) --keep",
            "  hazards: " + hazards.map { "\($0)" }.sorted().joined(separator: ", "),
        ]
        for (i, s) in done.enumerated() { lines.append("  step \(i + 1): \(box.relative(s))") }
        if opts.keep { lines.append("  library kept at \(box.lib), server log \(box.errLog)") }
        return lines
    }

    func cleanUp(keep: Bool) { if !keep { box.remove() } }
}

/// Unbuffered, so CI logs show progress as it happens.
func say(_ s: String) { FileHandle.standardOutput.write(Data((s + "\n").utf8)) }
