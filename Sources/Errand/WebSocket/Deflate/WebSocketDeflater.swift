import CZlib
import Foundation

/// Compresses the messages the client sends with permessage-deflate (RFC 7692 §7.2.1): each message flushed with an
/// empty stored block, whose final four bytes (0x00 0x00 0xff 0xff) are removed, since the receiver puts them back.
///
/// A class because zlib's stream must stay at one address while it lives; owned by one connection, never shared.
final class WebSocketDeflater {
    enum State: Equatable {
        /// Ready for the next message; `window` is whether earlier messages are in the window it may refer to.
        case ready(window: Bool)
        /// zlib failed (it only does when memory runs out); nothing more is compressed.
        case failed
    }

    private(set) var state = State.ready(window: false)
    /// Whether every message starts with an empty window (`client_no_context_takeover`).
    let resetsBetweenMessages: Bool
    /// The window size, as a power of two (`client_max_window_bits`, 9 to 15: zlib's raw deflate has no 8).
    let windowBits: Int
    private let stream: UnsafeMutablePointer<z_stream>
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    /// Returns `nil` for window bits zlib cannot compress with, or when it cannot make a stream.
    init?(windowBits: Int = 15, resetsBetweenMessages: Bool, level: Int32 = Z_DEFAULT_COMPRESSION) {
        guard (9...15).contains(windowBits) else { return nil }
        self.windowBits = windowBits
        self.resetsBetweenMessages = resetsBetweenMessages
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // A smaller window needs less memory for the hash chains too; memLevel 8 is zlib's default.
        guard errand_deflate_init(stream, level, -Int32(windowBits), windowBits < 15 ? 7 : 8) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// One whole message's payload, compressed; `nil` after zlib failed.
    func compress(_ message: Data) -> Data? {
        guard case .ready = state else { return nil }
        // An empty stored block (§7.2.3.6); zlib would write nothing for a second flush without new input.
        if message.isEmpty { return Data([0x00]) }
        var input = [UInt8](message)
        var output = Data()
        let count = input.count
        var consumed = 0
        while true {
            let (status, used, written) = input.withUnsafeMutableBufferPointer { inputBuffer in
                chunk.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_in = inputBuffer.baseAddress.map { $0 + consumed }
                    stream.pointee.avail_in = UInt32(count - consumed)
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(outputBuffer.count)
                    let status = deflate(stream, Z_SYNC_FLUSH)
                    let used = count - consumed - Int(stream.pointee.avail_in)
                    let written = outputBuffer.count - Int(stream.pointee.avail_out)
                    stream.pointee.next_in = nil
                    stream.pointee.next_out = nil
                    return (status, used, written)
                }
            }
            consumed += used
            output.append(contentsOf: chunk[0..<written])
            guard status == Z_OK || (status == Z_BUF_ERROR && used == 0 && written == 0) else {
                state = .failed
                return nil
            }
            // A sync flush is complete once zlib had room to spare.
            if consumed == count && written < chunk.count { break }
        }
        guard output.suffix(4) == WebSocketInflater.tail else {
            state = .failed
            return nil
        }
        output.removeLast(4)
        if resetsBetweenMessages {
            deflateReset(stream)
            state = .ready(window: false)
        } else {
            state = .ready(window: true)
        }
        return output
    }
}
