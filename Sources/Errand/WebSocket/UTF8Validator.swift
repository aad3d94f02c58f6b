/// Checks UTF-8 a piece at a time, so that a text message split across frames is refused at the first byte that
/// cannot be valid, wherever the frames cut its characters (RFC 6455 §8.1), without holding the message twice.
struct UTF8Validator: Sendable, Hashable {
    /// Continuation bytes the current character still needs.
    private var pending = 0
    /// The range the next byte must be in: narrower than 0x80...0xBF right after some lead bytes, which is how
    /// overlong forms, surrogates and code points past U+10FFFF are refused.
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Whether every byte so far can begin valid UTF-8; `false` once one cannot.
    private(set) var isValid = true

    /// Whether the bytes so far end on a character boundary (a complete message must).
    var isComplete: Bool { isValid && pending == 0 }

    /// Takes the next bytes; returns ``isValid``.
    @discardableResult
    mutating func consume<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        guard isValid else { return false }
        for byte in bytes where !take(byte) {
            isValid = false
            return false
        }
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        if pending > 0 {
            guard byte >= low, byte <= high else { return false }
            pending -= 1
            low = 0x80
            high = 0xBF
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: pending = 1
        case 0xE0: pending = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: pending = 2
        case 0xED: pending = 2; high = 0x9F
        case 0xF0: pending = 3; low = 0x90
        case 0xF1...0xF3: pending = 3
        case 0xF4: pending = 3; high = 0x8F
        default: return false
        }
        return true
    }
}
