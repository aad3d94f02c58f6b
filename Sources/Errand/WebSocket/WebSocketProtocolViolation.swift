/// What the peer did wrong, and the close code that says so (RFC 6455 §7.1.7: fail the connection).
struct WebSocketProtocolViolation: Error, Sendable, Hashable {
    var code: WebSocketCloseCode
    var reason: String

    static func protocolError(_ reason: String) -> Self { Self(code: .protocolError, reason: reason) }
    static func tooBig(_ reason: String) -> Self { Self(code: .messageTooBig, reason: reason) }
    static func invalidText(_ reason: String) -> Self { Self(code: .invalidPayload, reason: reason) }
}
