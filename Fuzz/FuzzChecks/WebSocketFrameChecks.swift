import Foundation
@testable import Errand

/// The WebSocket frame parser's and message assembler's promises, checked on arbitrary server bytes: never a crash,
/// the same messages, control frames and failure however the reads cut the bytes, no message over the limit, text
/// messages only of valid UTF-8, and a failure only with 1002, 1007 or 1009.
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
        let whole = outcome(stream, limit: limit, pieces: stream.count + 1)
        let cut = outcome(stream, limit: limit, pieces: piece == 0 ? stream.count + 1 : piece)
        var violations: Violations = []
        if whole != cut { violations.append("cut into \(piece)-byte pieces: \(cut), whole: \(whole)") }
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

    private static func outcome(_ bytes: [UInt8], limit: Int, pieces: Int) -> Outcome {
        var parser = WebSocketFrameParser(maxPayload: limit)
        var assembler = WebSocketMessageAssembler(maxMessageSize: limit)
        var outcome = Outcome()
        var start = 0
        while start < bytes.count {
            let end = min(start + pieces, bytes.count)
            parser.append(Data(bytes[start..<end]))
            start = end
            do {
                while let frame = try parser.nextFrame() {
                    let event = try assembler.take(frame)
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
