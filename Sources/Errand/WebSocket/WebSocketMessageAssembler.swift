import Foundation

/// What one frame from the server amounts to, once fragments are joined and control frames read.
enum WebSocketEvent: Sendable, Hashable {
    /// A whole data message.
    case message(WebSocketMessage)
    /// A ping, to be answered with a pong carrying the same bytes.
    case ping(Data)
    /// A pong (an answer to a ping, or an unsolicited heartbeat).
    case pong(Data)
    /// The server's close frame: its code (`nil` when it sent none) and reason.
    case close(WebSocketCloseCode?, String)
    /// A fragment was taken; the message is not whole yet.
    case partial
}

/// Joins fragments into messages (RFC 6455 §5.4): a state machine with one message in progress at most, control
/// frames allowed between its fragments, text checked as UTF-8 fragment by fragment, and the size of the whole
/// message bounded, not just of each frame.
struct WebSocketMessageAssembler: Sendable {
    private enum State: Sendable {
        case idle
        case text(Data, UTF8Validator)
        case binary(Data)
    }

    let maxMessageSize: Int
    private var state = State.idle
    /// The text check carried over the part of a frame that has arrived so far (``inspect(_:_:)``), past the
    /// frames already taken; `nil` when no part of the next frame was inspected.
    private var lookahead: UTF8Validator?

    init(maxMessageSize: Int) {
        self.maxMessageSize = max(0, maxMessageSize)
    }

    /// Whether a fragmented message is in progress.
    var isAssembling: Bool {
        if case .idle = state { return false }
        return true
    }

    /// Checks the next bytes of a data frame that has not arrived whole (its payload's bytes in order, each once):
    /// bytes that cannot continue a text message's UTF-8 throw now, before the rest of the frame comes. The frame
    /// is taken whole later with ``take(_:)`` as any other; what it would refuse for other reasons is left to that.
    mutating func inspect(_ opcode: WebSocketFrame.Opcode, _ bytes: Data) throws(WebSocketProtocolViolation) {
        var validator: UTF8Validator
        if let lookahead {
            validator = lookahead
        } else {
            switch (opcode, state) {
            case (.text, .idle): validator = UTF8Validator()
            case (.continuation, .text(_, let sofar)): validator = sofar
            default: return
            }
        }
        guard validator.consume(bytes) else { throw .invalidText("a text message is not UTF-8") }
        lookahead = validator
    }

    /// Takes the next frame.
    mutating func take(_ frame: WebSocketFrame) throws(WebSocketProtocolViolation) -> WebSocketEvent {
        if !frame.opcode.isControl { lookahead = nil }
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .text, .binary:
            guard case .idle = state else { throw .protocolError("a new message began before the last one ended") }
            try checkSize(frame.payload.count)
            if frame.opcode == .text {
                var validator = UTF8Validator()
                guard validator.consume(frame.payload) else { throw .invalidText("a text message is not UTF-8") }
                state = .text(frame.payload, validator)
            } else {
                state = .binary(frame.payload)
            }
        case .continuation:
            switch state {
            case .idle:
                throw .protocolError("a continuation frame with no message to continue")
            case .text(var bytes, var validator):
                try checkSize(bytes.count + frame.payload.count)
                guard validator.consume(frame.payload) else { throw .invalidText("a text message is not UTF-8") }
                bytes.append(frame.payload)
                state = .text(bytes, validator)
            case .binary(var bytes):
                try checkSize(bytes.count + frame.payload.count)
                bytes.append(frame.payload)
                state = .binary(bytes)
            }
        }
        guard frame.isFinal else { return .partial }
        return try finish()
    }

    private mutating func finish() throws(WebSocketProtocolViolation) -> WebSocketEvent {
        let finished = state
        state = .idle
        switch finished {
        case .idle:
            return .partial
        case .binary(let bytes):
            return .message(.binary(bytes))
        case .text(let bytes, let validator):
            guard validator.isComplete else { throw .invalidText("a text message ends inside a character") }
            return .message(.text(String(decoding: bytes, as: UTF8.self)))
        }
    }

    private func checkSize(_ count: Int) throws(WebSocketProtocolViolation) {
        guard count <= maxMessageSize else {
            throw .tooBig("a message of more than the \(maxMessageSize) bytes accepted")
        }
    }

    /// A close frame's code and reason (RFC 6455 §5.5.1, §7.4): none, or two bytes of a code a peer may send and
    /// a UTF-8 reason.
    static func close(_ payload: Data) throws(WebSocketProtocolViolation) -> WebSocketEvent {
        guard !payload.isEmpty else { return .close(nil, "") }
        guard payload.count >= 2 else { throw .protocolError("a close frame of one byte") }
        let start = payload.startIndex
        let code = WebSocketCloseCode(rawValue: UInt16(payload[start]) << 8 | UInt16(payload[start + 1]))
        guard code.isValidOnTheWire else { throw .protocolError("the close code \(code) is not one a peer may send") }
        let reason = payload.dropFirst(2)
        var validator = UTF8Validator()
        guard validator.consume(reason), validator.isComplete else {
            throw .invalidText("a close reason is not UTF-8")
        }
        return .close(code, String(decoding: reason, as: UTF8.self))
    }
}
