/// Turns the bytes a terminal sends into ``Key``s: UTF-8 characters, control keys, CSI and SS3 sequences (arrows,
/// Page Up/Down, Home/End) and SGR mouse reports (the wheel).
///
/// A state machine fed one read at a time. An escape byte that ends a read, with nothing after it, is the Escape key:
/// a terminal sends a sequence in one write, so its bytes arrive in one read.
public struct KeyDecoder: Sendable {
    /// Where the decoder is inside a sequence.
    enum State: Hashable, Sendable {
        /// Between keys.
        case ground
        /// After ESC.
        case escape
        /// After ESC [ and these parameter bytes.
        case controlSequence([UInt8])
        /// After ESC O.
        case singleShift
        /// Inside a UTF-8 character: the bytes so far and how many in all.
        case character([UInt8], length: Int)
    }

    private(set) var state: State = .ground

    /// A decoder between keys.
    public init() {}

    /// The keys these bytes complete; a sequence cut by the end of the bytes waits for the next read.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        var keys: [Key] = []
        for byte in bytes {
            if let key = step(byte) { keys.append(key) }
        }
        if state == .escape {
            state = .ground
            keys.append(.escape)
        }
        return keys
    }

    private mutating func step(_ byte: UInt8) -> Key? {
        switch state {
        case .ground:
            return ground(byte)
        case .escape:
            switch byte {
            case UInt8(ascii: "["):
                state = .controlSequence([])
            case UInt8(ascii: "O"):
                state = .singleShift
            case 0x1B:
                return .escape
            default:
                // Alt and a key: the key alone.
                state = .ground
                return ground(byte)
            }
            return nil
        case .controlSequence(let parameters):
            if (0x20...0x3F).contains(byte) {
                state = .controlSequence(parameters + [byte])
                return nil
            }
            state = .ground
            return Self.controlSequence(parameters, final: byte)
        case .singleShift:
            state = .ground
            return Self.cursorKey(byte)
        case .character(var bytes, let length):
            guard byte & 0xC0 == 0x80 else {
                state = .ground
                return ground(byte)
            }
            bytes.append(byte)
            if bytes.count < length {
                state = .character(bytes, length: length)
                return nil
            }
            state = .ground
            return String(validating: bytes, as: UTF8.self).flatMap(\.first).map(Key.character)
        }
    }

    private mutating func ground(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x1B:
            state = .escape
            return nil
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        case 0x09: return .tab
        case 0x03: return .interrupt
        case 0x20...0x7E: return .character(Character(Unicode.Scalar(byte)))
        case 0xC2...0xDF:
            state = .character([byte], length: 2)
        case 0xE0...0xEF:
            state = .character([byte], length: 3)
        case 0xF0...0xF4:
            state = .character([byte], length: 4)
        default:
            break
        }
        return nil
    }

    private static func cursorKey(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        default: return nil
        }
    }

    private static func controlSequence(_ parameters: [UInt8], final: UInt8) -> Key? {
        let text = String(decoding: parameters, as: UTF8.self)
        // SGR mouse: ESC [ < button ; column ; row M (press) or m (release); 64 and 65 are the wheel.
        if text.hasPrefix("<") {
            guard final == UInt8(ascii: "M"), let button = text.dropFirst().split(separator: ";").first else {
                return nil
            }
            switch Int(button) {
            case 64: return .wheelUp
            case 65: return .wheelDown
            default: return nil
            }
        }
        if final == UInt8(ascii: "~") {
            switch text.split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        }
        return cursorKey(final)
    }
}
