import Foundation
@testable import Errand

/// The WebSocket frame parser's and message assembler's promises, checked on arbitrary server bytes: never a crash,
/// the same messages, control frames and failure however the reads cut the bytes, no message over the limit, text
/// messages only of valid UTF-8, and a failure only with 1002, 1007 or 1009. The same again with permessage-deflate
/// agreed (RSV1 frames inflated), and the bytes as one compressed message's payload: the inflater gives the same
/// bytes or failure however the payload is cut into fragments, and never more than the limit.
///
/// Input: the first byte picks the message limit (16 × the byte, or 1 MiB for 0), the second how the rest is cut
/// (pieces of 1 to 255 bytes, or whole for 0); the rest is what the server sent.
enum WebSocketFrameChecks {
    private struct Outcome: Equatable {
        var events: [WebSocketEvent] = []
        var failure: WebSocketCloseCode?
    }

    static func check(_ input: FuzzInput) -> Violations {
        guard input.bytes.count >= 2 else { return [] }
        let limit = input.bytes[0] == 0 ? 1 << 20 : Int(input.bytes[0]) * 16
        let piece = Int(input.bytes[1])
        let stream = Array(input.bytes.dropFirst(2))
        let pieces = piece == 0 ? stream.count + 1 : piece
        var violations: Violations = []
        for compressed in [false, true] {
            let whole = outcome(stream, limit: limit, pieces: stream.count + 1, compressed: compressed)
            let cut = outcome(stream, limit: limit, pieces: pieces, compressed: compressed)
            if whole != cut {
                violations.append("cut into \(piece)-byte pieces (deflate \(compressed)): \(cut), whole: \(whole)")
            }
            violations += check(whole, limit: limit)
        }
        violations += checkInflation(stream, limit: limit, pieces: pieces)
        return violations
    }

    private static func check(_ whole: Outcome, limit: Int) -> Violations {
        var violations: Violations = []
        for event in whole.events {
            switch event {
            case .message(.text(let text)) where text.utf8.count > limit:
                violations.append("a text message of \(text.utf8.count) bytes passed the limit of \(limit)")
            case .message(.binary(let data)) where data.count > limit:
                violations.append("a binary message of \(data.count) bytes passed the limit of \(limit)")
            case .ping(let payload) where payload.count > 125, .pong(let payload) where payload.count > 125:
                violations.append("a control frame of \(payload.count) bytes was taken")
            case .close(let code?, _) where !code.isValidOnTheWire:
                violations.append("the close code \(code) was taken")
            default:
                break
            }
        }
        if let code = whole.failure, ![1002, 1007, 1009].contains(code.rawValue) {
            violations.append("failed with \(code)")
        }
        return violations
    }

    /// The bytes as the payload of one compressed message, whole and in fragments of `pieces` bytes.
    private static func checkInflation(_ bytes: [UInt8], limit: Int, pieces: Int) -> Violations {
        func inflate(_ size: Int) -> Result<Data, WebSocketProtocolViolation>? {
            guard let inflater = WebSocketInflater(limit: limit, resetsBetweenMessages: false) else { return nil }
            var output = Data()
            var start = 0
            repeat {
                let end = min(start + size, bytes.count)
                do {
                    output += try inflater.inflate(Data(bytes[start..<end]), isFinal: end == bytes.count)
                } catch {
                    return .failure(error)
                }
                start = end
            } while start < bytes.count
            return .success(output)
        }
        guard let whole = inflate(bytes.count + 1), let cut = inflate(pieces) else { return ["zlib made no stream"] }
        var violations: Violations = []
        if whole != cut { violations.append("inflated in \(pieces)-byte pieces: \(cut), whole: \(whole)") }
        if case .success(let output) = whole, output.count > limit {
            violations.append("inflated to \(output.count) bytes, past the limit of \(limit)")
        }
        if case .failure(let violation) = whole, ![1002, 1009].contains(violation.code.rawValue) {
            violations.append("inflating failed with \(violation.code)")
        }
        return violations
    }

    private static func outcome(_ bytes: [UInt8], limit: Int, pieces: Int, compressed: Bool) -> Outcome {
        var parser = WebSocketFrameParser(maxPayload: limit, allowsCompression: compressed)
        var assembler = WebSocketMessageAssembler(maxMessageSize: limit)
        let inflater = compressed ? WebSocketInflater(limit: limit, resetsBetweenMessages: false) : nil
        var outcome = Outcome()
        var start = 0
        while start < bytes.count {
            let end = min(start + pieces, bytes.count)
            parser.append(Data(bytes[start..<end]))
            start = end
            do {
                while let frame = try parser.nextFrame() {
                    let event = try assembler.take(try inflater?.take(frame) ?? frame)
                    if event != .partial { outcome.events.append(event) }
                }
            } catch {
                outcome.failure = error.code
                return outcome
            }
        }
        return outcome
    }
}
