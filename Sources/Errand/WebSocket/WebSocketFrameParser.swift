import Foundation

/// Cuts the bytes a server sends into frames, however the reads split them, refusing what a client must refuse
/// before it holds a payload: reserved bits (RSV1 is permessage-deflate's when it was agreed, and then only on the
/// first frame of a data message), unknown opcodes, masked frames, fragmented or long control frames, and a
/// frame longer than the largest message accepted (so a 100 MB frame fails at its header, not after 100 MB).
struct WebSocketFrameParser: Sendable {
    /// The largest payload a data frame may have; a longer one fails with 1009.
    let maxPayload: Int
    /// Whether permessage-deflate was agreed, so that RSV1 marks a compressed message.
    let allowsCompression: Bool
    private var buffer = Data()
    private var failed = false
    /// How many payload bytes of the frame still arriving ``takeUncheckedPayload()`` has handed out.
    private var handedOut = 0

    init(maxPayload: Int, allowsCompression: Bool = false) {
        self.maxPayload = max(0, maxPayload)
        self.allowsCompression = allowsCompression
    }

    /// Bytes received and not yet cut into frames.
    var bufferedCount: Int { buffer.count }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: Data) {
        buffer.append(bytes)
    }

    /// The next whole frame, or `nil` until more bytes arrive. After a violation every call throws it again.
    mutating func nextFrame() throws(WebSocketProtocolViolation) -> WebSocketFrame? {
        guard !failed else { throw .protocolError("the connection already failed") }
        do {
            return try parse()
        } catch {
            failed = true
            buffer = Data()
            handedOut = 0
            throw error
        }
    }

    /// The payload bytes of the data frame still arriving that this has not handed out before, with the frame's
    /// opcode; `nil` when there are none (no frame begun, a control frame, nothing new). Call it after
    /// ``nextFrame()`` returned `nil`: each byte is handed out once, so checking a long frame as it arrives costs
    /// its length, not its length times the reads.
    mutating func takeUncheckedPayload() -> (opcode: WebSocketFrame.Opcode, isCompressed: Bool, bytes: Data)? {
        guard !failed, let head = try? head(), !head.opcode.isControl else { return nil }
        let start = buffer.startIndex + head.length + handedOut
        let end = min(buffer.endIndex, buffer.startIndex + head.length + Int(head.payloadLength))
        guard start < end else { return nil }
        handedOut += end - start
        return (head.opcode, head.isCompressed, Data(buffer[start..<end]))
    }

    private struct Head {
        var isFinal: Bool
        var opcode: WebSocketFrame.Opcode
        var isCompressed: Bool
        /// The head's own length in bytes.
        var length: Int
        var payloadLength: UInt64
    }

    private mutating func parse() throws(WebSocketProtocolViolation) -> WebSocketFrame? {
        guard let head = try head() else { return nil }
        let start = buffer.startIndex
        let total = head.length + Int(head.payloadLength)
        guard buffer.count >= total else { return nil }
        let payload = Data(buffer[(start + head.length)..<(start + total)])
        buffer.removeFirst(total)
        if buffer.isEmpty { buffer = Data() }
        handedOut = 0
        return WebSocketFrame(
            isFinal: head.isFinal, opcode: head.opcode, payload: payload, isCompressed: head.isCompressed)
    }

    /// The head of the next frame, checked; `nil` until all of it arrived.
    private func head() throws(WebSocketProtocolViolation) -> Head? {
        guard buffer.count >= 2 else { return nil }
        let start = buffer.startIndex
        let first = buffer[start]
        let second = buffer[start + 1]
        guard first & 0x30 == 0 else { throw .protocolError("reserved bits set without an extension") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw .protocolError("reserved opcode \(first & 0x0F)")
        }
        let isCompressed = first & 0x40 != 0
        if isCompressed {
            guard allowsCompression else { throw .protocolError("reserved bits set without an extension") }
            guard opcode == .text || opcode == .binary else {
                throw .protocolError("RSV1 set on a control frame or a continuation frame")
            }
        }
        let isFinal = first & 0x80 != 0
        guard second & 0x80 == 0 else { throw .protocolError("a server frame was masked") }
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            guard isFinal else { throw .protocolError("a fragmented control frame") }
            guard shortLength <= WebSocketFrame.maxControlPayload else {
                throw .protocolError("a control frame longer than 125 bytes")
            }
        }
        var headLength = 2
        let length: UInt64
        switch shortLength {
        case 126:
            guard buffer.count >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headLength = 4
        case 127:
            guard buffer.count >= 10 else { return nil }
            length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
            guard length >> 63 == 0 else { throw .protocolError("a frame length with its top bit set") }
            headLength = 10
        default:
            length = UInt64(shortLength)
        }
        guard length <= UInt64(maxPayload) else {
            throw .tooBig("a frame of \(length) bytes, more than the \(maxPayload) accepted")
        }
        return Head(
            isFinal: isFinal, opcode: opcode, isCompressed: isCompressed, length: headLength, payloadLength: length)
    }
}
