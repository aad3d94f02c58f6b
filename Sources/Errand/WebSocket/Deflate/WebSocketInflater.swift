import CZlib
import Foundation

/// Inflates the messages a server compressed with permessage-deflate (RFC 7692 §7.2.2), fragment by fragment, in
/// bounded steps: output grows at most ``chunkSize`` bytes past the message limit before the message fails with 1009,
/// so a deflate bomb (kilobytes that inflate to gigabytes) costs the limit in memory and as much time, never more.
///
/// A class because zlib's stream must stay at one address while it lives; owned by one connection, never shared.
final class WebSocketInflater {
    enum State: Equatable {
        /// Between messages.
        case ready
        /// Inside a message the server sent without RSV1: its frames pass as they are (§6: compression is per
        /// message).
        case plain
        /// Inside a message: the bytes it has inflated to so far.
        case inflating(produced: Int)
        /// The server ended its deflate stream with a final block (§7.2.3.4) inside this message: what is left of
        /// the message (padding, the tail) is not data, and the next message starts a new stream.
        case ended
        /// A message failed; every later call fails again.
        case failed(WebSocketProtocolViolation)
    }

    /// Whether a compressed message is in progress: its frames' payloads are deflate data, not the message's bytes.
    var isInsideCompressedMessage: Bool {
        switch state {
        case .inflating, .ended: return true
        case .ready, .plain, .failed: return false
        }
    }

    /// The most a single step of zlib writes.
    static let chunkSize = 16 * 1024
    /// What §7.2.2 has the receiver append to every message: the end of the empty stored block the sender removed.
    static let tail = Data([0x00, 0x00, 0xFF, 0xFF])

    private(set) var state = State.ready
    /// The largest message accepted, in inflated bytes.
    let limit: Int
    /// Whether the server starts every message with an empty window (`server_no_context_takeover`).
    let resetsBetweenMessages: Bool
    private let stream: UnsafeMutablePointer<z_stream>
    private var chunk = [UInt8](repeating: 0, count: WebSocketInflater.chunkSize)

    /// Returns `nil` when zlib cannot make a stream (out of memory).
    init?(limit: Int, resetsBetweenMessages: Bool) {
        self.limit = max(0, limit)
        self.resetsBetweenMessages = resetsBetweenMessages
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Negative window bits: raw deflate, no zlib header. 15 reads every window a server may use (8 to 15).
        guard errand_inflate_init(stream, -15) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The frame with its payload inflated when it belongs to a compressed message; control frames and the frames of
    /// uncompressed messages pass unchanged.
    func take(_ frame: WebSocketFrame) throws(WebSocketProtocolViolation) -> WebSocketFrame {
        if case .failed(let violation) = state { throw violation }
        switch frame.opcode {
        case .close, .ping, .pong:
            return frame
        case .text, .binary:
            guard case .ready = state else {
                state = .failed(.protocolError("a new message began before the last one ended"))
                return try take(frame)
            }
            guard frame.isCompressed else {
                state = frame.isFinal ? .ready : .plain
                return frame
            }
        case .continuation:
            switch state {
            case .ready:
                return frame  // the assembler refuses it
            case .plain:
                if frame.isFinal { state = .ready }
                return frame
            case .inflating, .ended, .failed:
                break
            }
        }
        var inflated = frame
        inflated.payload = try inflate(frame.payload, isFinal: frame.isFinal)
        inflated.isCompressed = false
        return inflated
    }

    /// Inflates one frame's payload of a compressed message; `isFinal` for the message's last frame, whose inflated
    /// bytes then include what the tail flushes. Returns the bytes this payload inflated to.
    func inflate(_ payload: Data, isFinal: Bool) throws(WebSocketProtocolViolation) -> Data {
        var produced: Int
        switch state {
        case .failed(let violation): throw violation
        case .ready, .plain: produced = 0
        case .inflating(let count): produced = count
        case .ended:
            if isFinal { finishMessage(streamEnded: true) }
            return Data()
        }
        var output = Data()
        var streamEnded = false
        do {
            streamEnded = try run(payload, produced: &produced, into: &output)
            if isFinal, !streamEnded { streamEnded = try run(Self.tail, produced: &produced, into: &output) }
        } catch {
            state = .failed(error)
            throw error
        }
        if isFinal {
            finishMessage(streamEnded: streamEnded)
        } else {
            state = streamEnded ? .ended : .inflating(produced: produced)
        }
        return output
    }

    private func finishMessage(streamEnded: Bool) {
        state = .ready
        if resetsBetweenMessages || streamEnded { inflateReset(stream) }
    }

    /// Feeds `input` to zlib until it has taken all of it and has nothing more to write; returns whether the deflate
    /// stream ended (the rest of the input is then left alone).
    private func run(_ input: Data, produced: inout Int, into output: inout Data) throws(WebSocketProtocolViolation)
        -> Bool
    {
        var bytes = [UInt8](input)
        let count = bytes.count
        var consumed = 0
        while true {
            let (status, used, written) = bytes.withUnsafeMutableBufferPointer { inputBuffer in
                chunk.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_in = inputBuffer.baseAddress.map { $0 + consumed }
                    stream.pointee.avail_in = UInt32(count - consumed)
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(outputBuffer.count)
                    let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                    let used = count - consumed - Int(stream.pointee.avail_in)
                    let written = outputBuffer.count - Int(stream.pointee.avail_out)
                    stream.pointee.next_in = nil
                    stream.pointee.next_out = nil
                    return (status, used, written)
                }
            }
            consumed += used
            produced += written
            guard produced <= limit else {
                throw .tooBig("a compressed message inflates to more than the \(limit) bytes accepted")
            }
            output.append(contentsOf: chunk[0..<written])
            switch status {
            case Z_OK:
                break
            case Z_STREAM_END:
                return true
            case Z_BUF_ERROR where used == 0 && written == 0:
                return false  // zlib needs more input than this payload holds
            default:
                throw .protocolError("a compressed message is not valid deflate data")
            }
            if consumed == count && written < chunk.count { return false }
        }
    }
}
