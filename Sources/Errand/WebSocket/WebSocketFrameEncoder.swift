import Foundation

/// Writes frames as a client must: every frame masked with a fresh key (RFC 6455 §5.3), so that no byte a page or an
/// app chooses reaches the wire as it was chosen and confuses a proxy on the way.
enum WebSocketFrameEncoder {
    /// The frame's bytes, masked with `key`.
    static func encode(_ frame: WebSocketFrame, maskKey key: UInt32) -> Data {
        let payload = frame.payload
        var bytes = Data(capacity: payload.count + 14)
        bytes.append((frame.isFinal ? 0x80 : 0) | (frame.isCompressed ? 0x40 : 0) | frame.opcode.rawValue)
        switch payload.count {
        case 0...125:
            bytes.append(0x80 | UInt8(payload.count))
        case 126...0xFFFF:
            bytes.append(0x80 | 126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF))
            }
        }
        let mask = [UInt8(key >> 24), UInt8((key >> 16) & 0xFF), UInt8((key >> 8) & 0xFF), UInt8(key & 0xFF)]
        bytes.append(contentsOf: mask)
        var masked = [UInt8](payload)
        for index in masked.indices { masked[index] ^= mask[index & 3] }
        bytes.append(contentsOf: masked)
        return bytes
    }

    /// The frame's bytes, masked with a key from the system's random source.
    static func encode(_ frame: WebSocketFrame) -> Data {
        var generator = SystemRandomNumberGenerator()
        return encode(frame, maskKey: generator.next())
    }

    /// A close frame's payload: the code, then the reason cut to fit 125 bytes on a character boundary.
    static func closePayload(_ code: WebSocketCloseCode, reason: String) -> Data {
        var payload = Data([UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)])
        var text = Substring(reason)
        while text.utf8.count > WebSocketFrame.maxControlPayload - 2 { text = text.dropLast() }
        payload.append(contentsOf: text.utf8)
        return payload
    }
}
