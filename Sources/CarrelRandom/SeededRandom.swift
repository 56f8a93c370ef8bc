/// A small seeded generator (SplitMix64): the same seed gives the same
/// stream on every machine, so a benchmark library is the same on every
/// run and a failing torture run or randomised test can be replayed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` by the remainder, not `Int.random(in:using:)`:
    /// the remainder's stream is what existing seeds were recorded with.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
