import Foundation

/// One RFC 6455 frame as it is on the wire, unmasked: the parser removes the client's mask, the encoder applies it.
struct WebSocketFrame: Sendable, Hashable {
    /// The frame's opcode (RFC 6455 §5.2).
    enum Opcode: UInt8, Sendable, Hashable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong: never fragmented, at most ``WebSocketFrame/maxControlPayload`` bytes.
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// Whether this is the last frame of its message.
    var isFinal: Bool
    var opcode: Opcode
    var payload: Data
    /// RSV1, which permessage-deflate (RFC 7692 §6) sets on the first frame of a compressed message.
    var isCompressed: Bool

    /// The largest payload a control frame may carry (RFC 6455 §5.5).
    static let maxControlPayload = 125

    init(isFinal: Bool = true, opcode: Opcode, payload: Data = Data(), isCompressed: Bool = false) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
        self.isCompressed = isCompressed
    }
}
