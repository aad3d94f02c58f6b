import Foundation

/// Reads back the frames a ``WebSocket`` writes (masked, as a client's must be) so that they can be handed to
/// URLSession, which frames and masks them again itself.
struct WebSocketClientFrameReader: Sendable {
    private var buffer = Data()

    mutating func append(_ bytes: Data) { buffer.append(bytes) }

    /// The next whole frame, unmasked; `nil` until its last byte has been written.
    mutating func nextFrame() throws(ErrandError) -> WebSocketFrame? {
        guard buffer.count >= 2 else { return nil }
        let start = buffer.startIndex
        let first = buffer[start]
        let second = buffer[start + 1]
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw .invalidRequest("a WebSocket frame with opcode \(first & 0x0F) cannot be sent.")
        }
        var offset = 2
        var length = UInt64(second & 0x7F)
        if length >= 126 {
            let extra = length == 126 ? 2 : 8
            guard buffer.count >= offset + extra else { return nil }
            length = (0..<extra).reduce(UInt64(0)) { $0 << 8 | UInt64(buffer[start + offset + $1]) }
            offset += extra
        }
        let masked = second & 0x80 != 0
        let maskStart = offset
        if masked { offset += 4 }
        guard UInt64(buffer.count - offset) >= length else { return nil }
        let end = offset + Int(length)
        var payload = [UInt8](buffer[(start + offset)..<(start + end)])
        if masked {
            let mask = [UInt8](buffer[(start + maskStart)..<(start + maskStart + 4)])
            for index in payload.indices { payload[index] ^= mask[index & 3] }
        }
        buffer.removeFirst(end)
        if buffer.isEmpty { buffer = Data() }
        return WebSocketFrame(isFinal: first & 0x80 != 0, opcode: opcode, payload: Data(payload))
    }
}
