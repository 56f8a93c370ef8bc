/// Holds a body written in pieces to the length its header declared. Such a
/// body is rendered twice, once to measure and once to send; if the two ever
/// differed, a wrong length would run every later message together, so the
/// body is cut or padded to fit instead, and only that one message is spoilt.
public struct DeclaredLength {
    public let length: Int
    public private(set) var sent = 0
    /// Whether the pieces came to more or less than `length`.
    public private(set) var mismatched = false

    public init(_ length: Int) { self.length = length }

    /// The part of `piece` that still fits.
    public mutating func fit(_ piece: [UInt8]) -> ArraySlice<UInt8> {
        let room = length - sent
        if piece.count > room { mismatched = true }
        let fitting = piece.prefix(room)
        sent += fitting.count
        return fitting
    }

    /// Spaces for what the pieces left short: JSON allows whitespace after a value.
    public mutating func padding() -> [UInt8] {
        guard sent < length else { return [] }
        mismatched = true
        defer { sent = length }
        return [UInt8](repeating: 0x20, count: length - sent)
    }
}
