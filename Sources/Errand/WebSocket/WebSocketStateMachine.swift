import Foundation

/// The life of one WebSocket connection after its handshake (RFC 6455 §7): open, then closing once one side has sent
/// its close frame, then closed. Each event returns the one action to take; the connection performs it.
struct WebSocketStateMachine: Sendable {
    enum State: Sendable, Hashable {
        case open
        /// This side sent a close frame and waits for the peer's.
        case closing(sent: WebSocketCloseCode)
        /// Both close frames were exchanged, the connection failed, or it ended without one.
        case closed(WebSocketCloseCode, reason: String)
    }

    enum Action: Sendable, Hashable {
        case none
        /// Hand the message to the reader.
        case deliver(WebSocketMessage)
        /// Answer a ping.
        case sendPong(Data)
        /// A pong arrived: the keep-alive ping is answered.
        case notePong
        /// Send a close frame and wait for the peer's.
        case sendClose(WebSocketCloseCode, String)
        /// Send a close frame, then release the connection without waiting: the peer closed first, or failed.
        case sendCloseAndRelease(WebSocketCloseCode, String)
        /// Release the connection.
        case release
    }

    private(set) var state = State.open

    /// The peer's close code and reason, once its close frame arrived.
    private(set) var peerClose: (code: WebSocketCloseCode?, reason: String)?

    /// Whether messages may still be sent: no close frame was sent or received yet.
    var isOpen: Bool { state == .open }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// A frame from the peer, as the assembler read it.
    mutating func received(_ event: WebSocketEvent) -> Action {
        switch (state, event) {
        case (.closed, _):
            return .none
        case (_, .partial):
            return .none
        case (.open, .message(let message)):
            return .deliver(message)
        case (.closing, .message):
            // After its own close frame an endpoint still reads, but the message is for nobody.
            return .none
        case (.open, .ping(let payload)):
            return .sendPong(payload)
        case (.closing, .ping):
            return .none
        case (_, .pong):
            return .notePong
        case (.open, .close(let code, let reason)):
            peerClose = (code, reason)
            state = .closed(code ?? .noStatusReceived, reason: reason)
            // The peer's code is echoed; with none, 1000 (RFC 6455 §5.5.1).
            return .sendCloseAndRelease(code ?? .normalClosure, "")
        case (.closing, .close(let code, let reason)):
            peerClose = (code, reason)
            state = .closed(code ?? .noStatusReceived, reason: reason)
            return .release
        }
    }

    /// The peer broke the protocol: fail the connection with the violation's code.
    mutating func violated(_ violation: WebSocketProtocolViolation) -> Action {
        switch state {
        case .closed:
            return .none
        case .open:
            state = .closed(violation.code, reason: violation.reason)
            return .sendCloseAndRelease(violation.code, violation.reason)
        case .closing:
            state = .closed(violation.code, reason: violation.reason)
            return .release
        }
    }

    /// The caller closes (or leaves the message loop, or is cancelled: 1001).
    mutating func closeRequested(_ code: WebSocketCloseCode, reason: String) -> Action {
        guard case .open = state else { return .none }
        state = .closing(sent: code)
        return .sendClose(code, reason)
    }

    /// A keep-alive ping went unanswered for its timeout.
    mutating func pongTimedOut() -> Action {
        guard case .open = state else { return .none }
        state = .closed(.abnormalClosure, reason: "no pong to a keep-alive ping")
        return .sendCloseAndRelease(.internalError, "keep-alive ping timed out")
    }

    /// The connection ended (end of stream, a read or write error) with no close frame to finish it.
    mutating func connectionEnded(_ reason: String) -> Action {
        switch state {
        case .closed:
            return .none
        case .open, .closing:
            state = .closed(.abnormalClosure, reason: reason)
            return .release
        }
    }
}
